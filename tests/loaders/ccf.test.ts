import { describe, expect, it } from 'vitest';
import { DatasetError } from '../../src/index';
import { parseCcfInstances, parseCcfUseCoefficients } from '../../src/loaders/index';
import {
  AWS_EMBODIED,
  AWS_INSTANCES,
  AZURE_EMBODIED,
  AZURE_INSTANCES,
  EXPECTED_INSTANCES,
  GCP_EMBODIED_MEAN,
  GCP_INSTANCES,
  USE_CSV,
} from './ccf-fixture';
import { caught } from '../fixtures/caught';

const meta = {
  dataset: {
    id: 'ccf-test',
    version: '1',
    source: 'CCF',
    source_dataset: 'ccf-coefficients',
    licence: 'Apache-2.0',
    attribution: 'CCF',
  },
  default_year: 2024,
  gwp: 'ar4',
  years: [2024],
} as const;
const files = {
  aws: { instances: AWS_INSTANCES, embodied: AWS_EMBODIED },
  azure: { instances: AZURE_INSTANCES, embodied: AZURE_EMBODIED },
  gcp: { instances: GCP_INSTANCES, embodiedMean: GCP_EMBODIED_MEAN },
};

const catchError = (run: () => unknown): DatasetError => caught(DatasetError, run);

describe('parseCcfInstances', () => {
  it('builds the instances table with the decisions of the embedded default', () => {
    const result = parseCcfInstances(files, { ...meta, years: [2024] });
    expect(result.cloudInstances).toEqual({ ...meta, instances: EXPECTED_INSTANCES });
  });

  it('lists what it dropped and the decisions it took', () => {
    const result = parseCcfInstances(files, { ...meta, years: [2024] });
    expect(result.dropped).toEqual([
      { provider: 'aws', instance: 't9.nano', reason: 'not in aws-instances.csv' },
      { provider: 'aws', instance: 'x9.big', reason: 'missing, zero or unparseable vcpu' },
      { provider: 'gcp', instance: 'zz-1', reason: 'not in gcp-instances.csv' },
    ]);
    expect(result.notes).toEqual([
      'azure: 1 constrained-vCPU sizes: vcpu = active vCPUs from the name (CSV held the ratio)',
      'azure: series "Mv2" platform vCPU 208 < largest size 416; platform_vcpu = 416 for M208ms v2, M416ms v2',
      'azure: Standard_D2s_v3 embodied totals differ by microarchitecture; mean 1450 used',
      'gcp: e2-standard-2 platform vCPUs 96/96/80 by microarchitecture; 96 used',
      'gcp: n2-standard-4 platform vCPUs 80/96 by microarchitecture; 96 used',
    ]);
  });

  it('reads only the providers given', () => {
    const result = parseCcfInstances({ gcp: files.gcp }, { ...meta, years: [2024] });
    expect(result.cloudInstances.instances.map((row) => row.instance)).toEqual([
      'e2-standard-2',
      'n2-standard-4',
    ]);
  });

  it('refuses Azure files that are out of step, naming the line', () => {
    const swapped = AZURE_EMBODIED.replace('0,Dsv3,D2s v3,Skylake', '0,Dsv3,D4s v3,Skylake');
    const error = catchError(() =>
      parseCcfInstances(
        { azure: { instances: AZURE_INSTANCES, embodied: swapped } },
        { ...meta, years: [2024] },
      ),
    );
    expect([error.table, error.line]).toEqual(['coefficients-azure-embodied.csv', 2]);
    expect(error.problem).toMatch(/D4s v3\/Skylake vs D2s v3\/Skylake/);
    const shorter = catchError(() =>
      parseCcfInstances(
        {
          azure: { instances: AZURE_INSTANCES, embodied: AZURE_EMBODIED.split('\n').slice(0, 3).join('\n') },
        },
        { ...meta, years: [2024] },
      ),
    );
    expect(shorter.problem).toMatch(/2 rows, but azure-instances.csv has 6/);
  });

  it('refuses an instance with more vCPUs than its platform', () => {
    const error = catchError(() =>
      parseCcfInstances(
        {
          aws: {
            instances: AWS_INSTANCES.replace('m5.large,2017,2,96', 'm5.large,2017,200,96'),
            embodied: AWS_EMBODIED,
          },
        },
        { ...meta, years: [2024] },
      ),
    );
    expect([error.table, error.line, error.problem]).toEqual([
      'coefficients-aws-embodied.csv',
      2,
      'aws/m5.large: vcpu 200 > platform 96',
    ]);
  });

  it('refuses invalid table-wide fields', () => {
    expect(catchError(() => parseCcfInstances(files, { ...meta, years: [] })).table).toBe(
      'cloudInstances meta',
    );
  });
});

describe('parseCcfUseCoefficients', () => {
  it('averages watts per vCPU over the architectures: mean by default', () => {
    // min (0.6 + 0.7 + 0.5) / 3 = 0.6; max (4.1 + 3.9 + 1.7) / 3 = 9.7 / 3 = 3.2333…, the nearest double 3.2333333333333334
    expect(parseCcfUseCoefficients(USE_CSV)).toEqual({
      min_watts: 0.6,
      max_watts: 3.2333333333333334,
      architectures: ['Skylake', 'Cascade Lake', 'EPYC 2nd Gen'],
      average: 'mean',
    });
  });

  it('or the median, over chosen architectures', () => {
    // sorted min 0.5, 0.6, 0.7 → 0.6; max 1.7, 3.9, 4.1 → 3.9
    expect(parseCcfUseCoefficients(USE_CSV, { average: 'median' })).toMatchObject({
      min_watts: 0.6,
      max_watts: 3.9,
    });
    // two rows: the median is their mean, (0.6 + 0.7) / 2 = 0.65, (4.1 + 3.9) / 2 = 4
    expect(
      parseCcfUseCoefficients(USE_CSV, { average: 'median', architectures: ['Skylake', 'Cascade Lake'] }),
    ).toEqual({
      min_watts: 0.65,
      max_watts: 4,
      architectures: ['Skylake', 'Cascade Lake'],
      average: 'median',
    });
  });

  it('reads watts written with a plus sign as their number (it threw a RangeError before)', () => {
    expect(parseCcfUseCoefficients(USE_CSV.replace('0.7,3.9', '+0.7,+3.9'))).toEqual(
      parseCcfUseCoefficients(USE_CSV),
    );
  });

  it('refuses unknown architectures, bad numbers and missing columns, naming where', () => {
    expect(catchError(() => parseCcfUseCoefficients(USE_CSV, { architectures: ['Zen 9'] })).problem).toBe(
      'no architecture "Zen 9"; the file has Skylake, Cascade Lake, EPYC 2nd Gen',
    );
    const bad = catchError(() =>
      parseCcfUseCoefficients(USE_CSV.replace('0.7,3.9', '0.7,-3.9'), { file: 'coefficients-aws-use.csv' }),
    );
    expect(bad.message).toBe(
      'coefficients-aws-use.csv at line 3, column 4 (Max Watts): Max Watts: -3.9 is negative',
    );
    expect(catchError(() => parseCcfUseCoefficients(USE_CSV.replace('Max Watts', 'Peak'))).problem).toBe(
      'missing column "Max Watts"',
    );
    expect(catchError(() => parseCcfUseCoefficients(',Architecture,Min Watts,Max Watts\n')).problem).toBe(
      'no architecture rows to average',
    );
  });
});
