import { describe, expect, it } from 'vitest';
import {
  CALCULATOR_DATASETS,
  calculateCpu,
  calculateCpuBatch,
  calculateEmbodied,
  calculateEmbodiedBatch,
  calculateInstance,
  calculateInstanceBatch,
  calculateMemory,
  calculateMemoryBatch,
  calculateNetworking,
  calculateNetworkingBatch,
  calculateSpend,
  calculateSpendBatch,
  calculateStorage,
  calculateStorageBatch,
  type Datasets,
  EmissionsError,
} from '../../src/index';
import { defaultDatasets } from '../../src/embedded/index';
import { caught } from '../fixtures/caught';

/**
 * Datasets per calculator: each calculator reads only the parts it declares (CALCULATOR_DATASETS), runs without
 * the others, and names itself and the missing part when one of its own is absent.
 */

const CPU = { cpu_count: 2, region: 'us_east_1', duration: 3 };
const MEMORY = { data: 8, data_unit: 'GB', region: 'us_east_1', duration: 3 };
const STORAGE = { data: 2, data_unit: 'TB', storage_type: 'ssd', region: 'us_east_1', duration: 3 };
const NETWORKING = { data: 5, data_unit: 'GB', region: 'us_east_1' };
const EMBODIED = { instance: 't2.micro', instance_count: 1, duration: 1 };
const INSTANCE = { instance: 't2.micro', region: 'us_east_1', duration: 1 };
const SPEND = {
  activity: { classification_type: 'isic4', classification_code: '4711' },
  spend_year: 2023,
  spend_region: 'DE',
  money: 1000,
  money_unit: 'eur',
};

type Call = (datasets: Datasets) => unknown;
const CASES: ReadonlyArray<{ calculator: keyof typeof CALCULATOR_DATASETS; single: Call; batch: Call }> = [
  {
    calculator: 'calculateCpu',
    single: (d) => calculateCpu('aws', CPU, d as never),
    batch: (d) => calculateCpuBatch('aws', [CPU], d as never),
  },
  {
    calculator: 'calculateMemory',
    single: (d) => calculateMemory('aws', MEMORY as never, d as never),
    batch: (d) => calculateMemoryBatch('aws', [MEMORY as never], d as never),
  },
  {
    calculator: 'calculateStorage',
    single: (d) => calculateStorage('aws', STORAGE as never, d as never),
    batch: (d) => calculateStorageBatch('aws', [STORAGE as never], d as never),
  },
  {
    calculator: 'calculateNetworking',
    single: (d) => calculateNetworking('aws', NETWORKING as never, d as never),
    batch: (d) => calculateNetworkingBatch('aws', [NETWORKING as never], d as never),
  },
  {
    calculator: 'calculateEmbodied',
    single: (d) => calculateEmbodied('aws', EMBODIED, d as never),
    batch: (d) => calculateEmbodiedBatch('aws', [EMBODIED], d as never),
  },
  {
    calculator: 'calculateInstance',
    single: (d) => calculateInstance('aws', INSTANCE, d as never),
    batch: (d) => calculateInstanceBatch('aws', [INSTANCE], d as never),
  },
  {
    calculator: 'calculateSpend',
    single: (d) => calculateSpend(SPEND as never, d as never),
    batch: (d) => calculateSpendBatch([SPEND as never], d as never),
  },
];

const ALL_PARTS = Object.keys(defaultDatasets) as Array<keyof Datasets>;
const without = (parts: ReadonlyArray<keyof Datasets>): Datasets => {
  const datasets: Record<string, unknown> = {};
  for (const part of ALL_PARTS) if (!parts.includes(part)) datasets[part] = defaultDatasets[part];
  return datasets as Datasets;
};

const thrown = (call: () => unknown): EmissionsError => caught(EmissionsError, call);

describe('CALCULATOR_DATASETS', () => {
  it('declares what each calculator reads (the instance table only for instance and embodied; no grid for embodied)', () => {
    expect(CALCULATOR_DATASETS).toEqual({
      calculateCpu: ['cloudCoefficients', 'cloudRegions'],
      calculateMemory: ['cloudCoefficients', 'cloudRegions'],
      calculateStorage: ['cloudCoefficients', 'cloudRegions'],
      calculateNetworking: ['cloudCoefficients', 'cloudRegions'],
      calculateEmbodied: ['cloudCoefficients', 'cloudInstances'],
      calculateInstance: ['cloudCoefficients', 'cloudRegions', 'cloudInstances'],
      calculateSpend: ['spendFactors', 'classifications', 'margins', 'inflation', 'fx'],
    });
    expect(Object.isFrozen(CALCULATOR_DATASETS)).toBe(true);
  });
});

describe.each(CASES)('$calculator', ({ calculator, single, batch }) => {
  const needs: ReadonlyArray<keyof Datasets> = CALCULATOR_DATASETS[calculator];
  const others = ALL_PARTS.filter((part) => !needs.includes(part));

  it('gives the same result with only its declared parts as with every part', () => {
    expect(single(without(others))).toEqual(single(defaultDatasets));
    expect(batch(without(others))).toEqual(batch(defaultDatasets));
  });

  it.each([...needs])(
    'without %s: missing_dataset naming the calculator and the part, single and batch',
    (part) => {
      for (const call of [single, batch]) {
        const error = thrown(() => call(without([part])));
        expect(error.error_code).toBe('missing_dataset');
        expect(error.status).toBe(500);
        expect(error.path).toBe(`datasets.${part}`);
        expect(error.valid_values).toEqual([part]);
        expect(error.message).toMatch(
          new RegExp(`^${calculator} needs the dataset part '${part}', which these datasets lack`),
        );
        expect(error.toJSON()).toMatchObject({
          error: 'internal_server_error',
          error_code: 'missing_dataset',
        });
      }
    },
  );

  it('names every missing part, in its declared order', () => {
    const error = thrown(() => single(without(needs)));
    expect(error.valid_values).toEqual([...needs]);
    expect(error.path).toBe(`datasets.${needs[0]}`);
    expect(error.message).toContain(
      `needs the dataset parts ${needs.map((part) => `'${part}'`).join(', ')},`,
    );
  });

  it.each([null, undefined, 42])('with datasets %p: missing_dataset at path datasets', (datasets) => {
    const error = thrown(() => single(datasets as never));
    expect(error.error_code).toBe('missing_dataset');
    expect(error.path).toBe('datasets');
    expect(error.message).toBe(
      `${calculator} needs a datasets object with ${needs.map((part) => `'${part}'`).join(', ')}; got ${
        datasets === null ? 'null' : typeof datasets
      }.`,
    );
  });
});
