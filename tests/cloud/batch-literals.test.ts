/**
 * A batch builds its results with literals of its own (core/batch.ts `inBatch`: V8 decides per literal where to
 * allocate), so each result is written twice in the source. These tests hold the two copies together: every
 * calculator's batch element is its single call's result, member for member and in the same order, on the default
 * and the CCF application datasets, with the audit trail on and off, rounded and not, and for GPU instances.
 */
import { describe, expect, it } from 'vitest';
import { inBatch, runBatch } from '../../src/core/batch';
import { EmissionsError } from '../../src/core/errors';
import { calculateCpu, calculateCpuBatch } from '../../src/cloud/cpu';
import { calculateEmbodied, calculateEmbodiedBatch } from '../../src/cloud/embodied';
import { calculateInstance, calculateInstanceBatch } from '../../src/cloud/instance';
import { calculateMemory, calculateMemoryBatch } from '../../src/cloud/memory';
import { calculateNetworking, calculateNetworkingBatch } from '../../src/cloud/networking';
import { calculateStorage, calculateStorageBatch } from '../../src/cloud/storage';
import type { CalculationOptions } from '../../src/core/estimate';
import type { CloudDatasets } from '../../src/datasets/types';
import { defaultDatasets } from '../../src/embedded/index';
import { ccfAppDatasets } from '../../src/embedded/cloud';

type Single = (
  provider: 'aws',
  request: never,
  datasets: CloudDatasets,
  options?: CalculationOptions,
) => unknown;
type Batch = (
  provider: 'aws',
  requests: never[],
  datasets: CloudDatasets,
  options?: CalculationOptions,
) => unknown[];

const CALCULATORS: ReadonlyArray<[string, Single, Batch, object[]]> = [
  [
    'cpu',
    calculateCpu as Single,
    calculateCpuBatch as Batch,
    [
      { cpu_count: 2, region: 'us_east_1', duration: 3.5 },
      {
        cpu_count: 4,
        region: 'eu_west_1',
        average_vcpu_utilization: 0.31,
        duration: 90,
        duration_unit: 'min',
      },
    ],
  ],
  [
    'memory',
    calculateMemory as Single,
    calculateMemoryBatch as Batch,
    [{ data: 16, region: 'us_east_1', duration: 2 }],
  ],
  [
    'storage',
    calculateStorage as Single,
    calculateStorageBatch as Batch,
    [{ data: 500, data_unit: 'GB', storage_type: 'ssd', region: 'us_east_1', duration: 720 }],
  ],
  [
    'networking',
    calculateNetworking as Single,
    calculateNetworkingBatch as Batch,
    [{ data: 12.5, region: 'us_east_1' }],
  ],
  [
    'embodied',
    calculateEmbodied as Single,
    calculateEmbodiedBatch as Batch,
    [{ instance: 'm5.xlarge', instance_count: 3, duration: 24 }],
  ],
  [
    'instance',
    calculateInstance as Single,
    calculateInstanceBatch as Batch,
    [
      { instance: 'm5.xlarge', region: 'us_east_1', duration: 24 },
      { instance: 't3.micro', region: 'eu_west_1', duration: 1 / 3, average_vcpu_utilization: 0.7 },
      { instance: 'p3.2xlarge', region: 'us_east_1', duration: 5 },
      { instance: 'inf2.xlarge', region: 'us_east_1', duration: 5 },
    ],
  ],
];
const DATASETS: ReadonlyArray<[string, CloudDatasets]> = [
  ['default datasets', defaultDatasets],
  ['CCF application datasets', ccfAppDatasets],
];
const OPTIONS: ReadonlyArray<CalculationOptions | undefined> = [undefined, { significantDigits: 4 }];

/** The single call's result, or the error body its batch element carries (an instance a table lacks). */
function aloneOrErrorBody(calculate: () => unknown, index: number): unknown {
  try {
    return calculate();
  } catch (error) {
    if (!(error instanceof EmissionsError)) throw error;
    return error.withPathPrefix(`requests[${index}]`).toJSON();
  }
}

describe.each(CALCULATORS)(
  '%s: a batch element is its single call, member for member',
  (_kind, single, batch, requests) => {
    it.each(DATASETS)('on the %s, audit trail on and off, rounded and not', (_name, datasets) => {
      let compared = 0;
      for (const options of OPTIONS) {
        for (const auditTrail of ['enabled', 'disabled']) {
          const withTrail = requests.map((request) => ({ ...request, audit_trail: auditTrail }));
          const results = batch('aws', withTrail as never[], datasets, options);
          withTrail.forEach((request, index) => {
            const alone = aloneOrErrorBody(() => single('aws', request as never, datasets, options), index);
            expect(JSON.stringify(results[index])).toBe(JSON.stringify(alone));
            expect(results[index]).toStrictEqual(alone);
            compared++;
          });
        }
      }
      expect(compared).toBe(requests.length * 4);
    });
  },
);

describe('inBatch', () => {
  it('is true only while runBatch runs, nested batches included, and false again after an element throws', () => {
    expect(inBatch()).toBe(false);
    expect(runBatch([1, 2], () => inBatch())).toEqual([true, true]);
    expect(runBatch([1], () => runBatch([2], () => inBatch())[0] && inBatch())).toEqual([true]);
    expect(inBatch()).toBe(false);
    expect(() =>
      runBatch([1], () => {
        throw new TypeError('bug');
      }),
    ).toThrow(TypeError);
    expect(inBatch()).toBe(false);
    runBatch([1], () => {
      throw new EmissionsError('invalid_request', 'bad', { path: 'x' });
    });
    expect(inBatch()).toBe(false);
  });
});
