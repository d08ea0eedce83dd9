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
    // Files of different lengths cannot be paired: the longer one's first row without a partner.
    expect([shorter.table, shorter.line, shorter.problem]).toEqual([
      'azure-instances.csv',
      4,
      '6 rows, but coefficients-azure-embodied.csv has 2; the two files must be row by row',
    ]);
  });

  // m5.large: 200 vCPUs on a 96-vCPU platform.
  const awsTooManyVcpus = {
    instances: AWS_INSTANCES.replace('m5.large,2017,2,96', 'm5.large,2017,200,96'),
    embodied: AWS_EMBODIED,
  };

  it('refuses an instance with more vCPUs than its platform', () => {
    const error = catchError(() => parseCcfInstances({ aws: awsTooManyVcpus }, { ...meta, years: [2024] }));
    expect([error.table, error.line, error.problem]).toEqual([
      'coefficients-aws-embodied.csv',
      2,
      'aws/m5.large: vcpu 200 > platform 96',
    ]);
  });

  it('reports every contradiction of the files, each at its file and line, before failing', () => {
    const error = catchError(() =>
      parseCcfInstances(
        {
          aws: awsTooManyVcpus,
          azure: {
            // D2s v3 on Broadwell with 16 GiB where Skylake has 8; E16-4s v3 with a ratio of 0.5 (8 vCPUs, not 4).
            instances: AZURE_INSTANCES.replace('D2s v3,Broadwell,2,8', 'D2s v3,Broadwell,2,16').replace(
              'E16-4s v3,Broadwell,0.25',
              'E16-4s v3,Broadwell,0.5',
            ),
            embodied: AZURE_EMBODIED,
          },
          // e2-standard-2 with 4 vCPUs on Broadwell, 2 elsewhere.
          gcp: {
            instances: GCP_INSTANCES.replace('e2-standard-2,Broadwell,2', 'e2-standard-2,Broadwell,4'),
            embodiedMean: GCP_EMBODIED_MEAN,
          },
        },
        { ...meta, years: [2024] },
      ),
    );
    expect([error.table, error.line, error.problem]).toEqual([
      'coefficients-aws-embodied.csv',
      2,
      'aws/m5.large: vcpu 200 > platform 96 (and 3 more problems in these files)',
    ]);
    expect(error.problems?.map((p) => [p.table, p.line, p.problem])).toEqual([
      ['coefficients-aws-embodied.csv', 2, 'aws/m5.large: vcpu 200 > platform 96'],
      ['azure-instances.csv', 3, 'Azure Standard_D2s_v3: specs differ between microarchitecture rows'],
      ['azure-instances.csv', 4, "Azure E16-4s v3: fractional vCPU 0.5 × 16 is not the name's 4"],
      ['gcp-instances.csv', 2, 'GCP e2-standard-2: instance specs differ by microarchitecture'],
    ]);
  });

  it('reports Azure sizes whose ARM names differ only in case, and every out-of-step row', () => {
    // A D2S v3 row besides D2s v3 names the same size to the engine, which looks instances up case-insensitively.
    const instances = `${AZURE_INSTANCES}\nDsv3,D2S v3,Skylake,2,8,64,256`;
    const embodied = `${AZURE_EMBODIED}\n6,Dsv3,d2s v3,Skylake,0,0,0,0,1400`
      .replace('0,Dsv3,D2s v3,Skylake', '0,Dsv3,D4s v3,Skylake')
      .replace('3,Mv2,M208ms v2,Skylake', '3,Mv2,M208ms v2,Icelake');
    const error = catchError(() =>
      parseCcfInstances({ azure: { instances, embodied } }, { ...meta, years: [2024] }),
    );
    expect(error.problems?.map((p) => [p.table, p.line, p.problem])).toEqual([
      [
        'coefficients-azure-embodied.csv',
        2,
        'D4s v3/Skylake vs D2s v3/Skylake in azure-instances.csv: the files are out of step',
      ],
      [
        'coefficients-azure-embodied.csv',
        5,
        'M208ms v2/Icelake vs M208ms v2/Skylake in azure-instances.csv: the files are out of step',
      ],
      [
        'coefficients-azure-embodied.csv',
        8,
        'd2s v3/Skylake vs D2S v3/Skylake in azure-instances.csv: the files are out of step',
      ],
    ]);
    const collision = catchError(() =>
      parseCcfInstances(
        { azure: { instances, embodied: `${AZURE_EMBODIED}\n6,Dsv3,D2S v3,Skylake,0,0,0,0,1400` } },
        { ...meta, years: [2024] },
      ),
    );
    expect([collision.table, collision.line, collision.problem]).toEqual([
      'azure-instances.csv',
      8,
      'Azure ARM names Standard_D2s_v3 and Standard_D2S_v3 collide case-insensitively',
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
