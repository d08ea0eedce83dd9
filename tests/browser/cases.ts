import type * as Library from '../../src/index';
import type * as DatasetsEntry from '../../src/embedded/index';

/**
 * The cases run both in headless Chromium (tests/browser/page.ts) and in Node (browser.test.ts), by this one
 * function, against the built package, so the two result lists must be identical.
 */

export type Lib = typeof Library;
/** What the page imports from `co2e-engine/datasets`, `…/datasets/cloud` and `…/datasets/spend`. */
export type DatasetsModule = Pick<
  typeof DatasetsEntry,
  'defaultDatasets' | 'ccfGridDatasets' | 'useeioDatasets' | 'cloudDatasets' | 'spendDatasets'
>;

declare global {
  interface Window {
    /** Set by tests/browser/page.ts once the bundle has loaded. */
    co2eCases?: () => CaseOutcome[];
  }
}

export type CaseOutcome =
  | { name: string; ok: true; result: unknown }
  | { name: string; ok: false; isEmissionsError: boolean; errorName: string; body: unknown };

const cpu = { cpu_count: 4, region: 'us_east_1', duration: 1 };
const spend = {
  activity: { classification_type: 'isic4' as const, classification_code: '4711' },
  spend_year: 2023,
  spend_region: 'DE',
  money: 1000,
  money_unit: 'eur',
};

/** Every calculator, single and batch (each batch with a bad element), the engine, custom tables and errors. */
export function runCases(lib: Lib, data: DatasetsModule): CaseOutcome[] {
  const { defaultDatasets: datasets, ccfGridDatasets, useeioDatasets, cloudDatasets, spendDatasets } = data;
  const cases: Array<[string, () => unknown]> = [
    // cpu
    ['cpu aws', () => lib.calculateCpu('aws', cpu, datasets)],
    [
      'cpu gcp 90 min u=0.75',
      () =>
        lib.calculateCpu(
          'gcp',
          {
            cpu_count: 2,
            region: 'europe-west1',
            average_vcpu_utilization: 0.75,
            duration: 90,
            duration_unit: 'min',
          },
          datasets,
        ),
    ],
    [
      'cpu azure ms 2023',
      () =>
        lib.calculateCpu(
          'azure',
          { cpu_count: 8, region: 'westeurope', duration: 3_600_000, duration_unit: 'ms', year: 2023 },
          datasets,
        ),
    ],
    ['cpu 4 significant digits', () => lib.calculateCpu('aws', cpu, datasets, { significantDigits: 4 })],
    [
      'cpu audit trail disabled',
      () => lib.calculateCpu('aws', { ...cpu, audit_trail: 'disabled' }, datasets),
    ],
    ['cpu CCF grid 2024', () => lib.calculateCpu('aws', { ...cpu, year: 2024 }, ccfGridDatasets)],
    ['cpu unknown region', () => lib.calculateCpu('aws', { ...cpu, region: 'mars_1' }, datasets)],
    ['cpu year without factor', () => lib.calculateCpu('aws', { ...cpu, year: 1999 }, datasets)],
    // Bad inputs below are cast: the request types rule them out, and the run-time checks are what is tested.
    ['cpu unsupported provider', () => lib.calculateCpu('ibm' as never, cpu, datasets)],
    ['cpu wrong type', () => lib.calculateCpu('aws', { ...cpu, cpu_count: '4' } as never, datasets)],
    ['cpu aws, datasets/cloud', () => lib.calculateCpu('aws', cpu, cloudDatasets)],
    [
      'instance, datasets/cloud',
      () =>
        lib.calculateInstance(
          'aws',
          { instance: 't2.micro', region: 'us_east_1', duration: 1 },
          cloudDatasets,
        ),
    ],
    // memory, storage, networking
    [
      'memory',
      () =>
        lib.calculateMemory(
          'aws',
          { region: 'eu_central_1', data: 16, data_unit: 'GB', duration: 24 },
          datasets,
        ),
    ],
    [
      'memory 1 TB',
      () =>
        lib.calculateMemory(
          'gcp',
          { region: 'us_central1', data: 1, data_unit: 'tb', duration: 1, duration_unit: 'day' },
          datasets,
        ),
    ],
    [
      'storage ssd',
      () =>
        lib.calculateStorage(
          'gcp',
          { region: 'europe_west1', storage_type: 'ssd', data: 2, data_unit: 'TB', duration: 720 },
          datasets,
        ),
    ],
    [
      'storage hdd days',
      () =>
        lib.calculateStorage(
          'aws',
          { region: 'us_east_1', storage_type: 'HDD', data: 500, duration: 30, duration_unit: 'day' },
          datasets,
        ),
    ],
    [
      'storage bad type',
      () =>
        lib.calculateStorage(
          'aws',
          { region: 'us_east_1', storage_type: 'tape' as never, data: 1, duration: 1 },
          datasets,
        ),
    ],
    ['networking', () => lib.calculateNetworking('aws', { region: 'us_east_1', data: 100 }, datasets)],
    [
      'networking 5 TB',
      () => lib.calculateNetworking('gcp', { region: 'europe_west1', data: 5, data_unit: 'TB' }, datasets),
    ],
    // embodied, instance
    [
      'embodied t2.micro',
      () => lib.calculateEmbodied('aws', { instance: 't2.micro', instance_count: 3, duration: 24 }, datasets),
    ],
    [
      'embodied azure',
      () =>
        lib.calculateEmbodied(
          'azure',
          { instance: 'Standard_D2s_v3', instance_count: 1, duration: 1 },
          datasets,
        ),
    ],
    [
      'embodied unknown instance',
      () => lib.calculateEmbodied('aws', { instance: 't2.micr', instance_count: 1, duration: 1 }, datasets),
    ],
    [
      'instance t2.micro',
      () =>
        lib.calculateInstance(
          'aws',
          { instance: 't2.micro', region: 'us_east_1', duration: 1, duration_unit: 'h' },
          datasets,
        ),
    ],
    [
      'instance gcp u=0.2',
      () =>
        lib.calculateInstance(
          'gcp',
          { instance: 'n2-standard-4', region: 'europe_west1', duration: 24, average_vcpu_utilization: 0.2 },
          datasets,
        ),
    ],
    // spend
    ['spend isic4 4711 DE 2023', () => lib.calculateSpend(spend, datasets)],
    [
      'spend ISIC 62 US 2019 usd',
      () =>
        lib.calculateSpend(
          {
            ...spend,
            activity: { classification_type: 'isic4', classification_code: '62' },
            spend_region: 'US',
            spend_year: 2019,
            money_unit: 'usd',
          },
          datasets,
        ),
    ],
    [
      'spend margins GB 2021 gbp',
      () =>
        lib.calculateSpend(
          {
            ...spend,
            activity: { classification_type: 'isic4', classification_code: 'F' },
            spend_region: 'GB',
            spend_year: 2021,
            money: 5000,
            money_unit: 'GBP',
            tax_margin: 0.19,
            trade_margin: 0.1,
            transport_margin: 0.02,
          },
          datasets,
        ),
    ],
    [
      'spend nace2 47.11',
      () =>
        lib.calculateSpend(
          { ...spend, activity: { classification_type: 'nace2', classification_code: '47.11' } },
          datasets,
        ),
    ],
    ['spend isic4 4711 DE 2023, datasets/spend', () => lib.calculateSpend(spend, spendDatasets)],
    ['spend 4 significant digits', () => lib.calculateSpend(spend, datasets, { significantDigits: 4 })],
    [
      'spend USEEIO naics',
      () =>
        lib.calculateSpend(
          {
            activity: { classification_type: 'naics2017', classification_code: '445110' },
            spend_year: 2022,
            spend_region: 'US',
            money: 100,
            money_unit: 'usd',
          },
          useeioDatasets,
        ),
    ],
    [
      'spend unknown code',
      () =>
        lib.calculateSpend(
          { ...spend, activity: { classification_type: 'isic4', classification_code: '9999' } },
          datasets,
        ),
    ],
    ['spend unsupported currency', () => lib.calculateSpend({ ...spend, money_unit: 'xxx' }, datasets)],
    [
      'spend margins too large',
      () =>
        lib.calculateSpend({ ...spend, tax_margin: 0.5, trade_margin: 0.5, transport_margin: 0.1 }, datasets),
    ],
    // batches, each with a bad element in the middle
    [
      'cpu batch',
      () =>
        lib.calculateCpuBatch('aws', [cpu, { ...cpu, region: 'nowhere' }, { ...cpu, duration: 2 }], datasets),
    ],
    [
      'memory batch',
      () =>
        lib.calculateMemoryBatch(
          'azure',
          [
            { region: 'westeurope', data: 8, duration: 1 },
            { region: 'westeurope', data: -8, duration: 1 },
          ],
          datasets,
        ),
    ],
    [
      'storage batch',
      () =>
        lib.calculateStorageBatch(
          'aws',
          [{ region: 'us_east_1', storage_type: 'hdd', data: 500, duration: 24 }, null as never],
          datasets,
        ),
    ],
    [
      'networking batch',
      () =>
        lib.calculateNetworkingBatch(
          'gcp',
          [
            { region: 'europe_west1', data: 5, data_unit: 'XB' as never },
            { region: 'europe_west1', data: 5 },
          ],
          datasets,
        ),
    ],
    [
      'embodied batch',
      () =>
        lib.calculateEmbodiedBatch(
          'aws',
          [
            { instance: 'm5.large', instance_count: 2, duration: 1 },
            { instance: 'm5.huge', instance_count: 1, duration: 1 },
          ],
          datasets,
        ),
    ],
    [
      'instance batch',
      () =>
        lib.calculateInstanceBatch(
          'gcp',
          [
            { instance: 'e2-standard-2', region: 'europe_west1', duration: 24 },
            { instance: 'e2-standard-2', region: 'europe_west1' } as never,
          ],
          datasets,
        ),
    ],
    [
      'spend batch',
      () =>
        lib.calculateSpendBatch(
          [spend, { ...spend, spend_region: 'Germany' }, { ...spend, money: 1 }],
          datasets,
        ),
    ],
    ['batch not an array', () => lib.calculateCpuBatch('aws', {} as never, datasets)],
    [
      'isErrorBody over a batch',
      () =>
        lib.calculateCpuBatch('aws', [cpu, {} as never], datasets).map((result) => lib.isErrorBody(result)),
    ],
    // the engine, and datasets built from tables in the page (zod validation runs there too)
    [
      'engine',
      () => {
        const engine = lib.createEngine(datasets, { significantDigits: 6 });
        return [
          engine.calculateCpu('gcp', { cpu_count: 2, region: 'europe_west1', duration: 3 }),
          engine.calculateSpendBatch([spend, {} as never]),
        ];
      },
    ],
    [
      'createTableDatasets',
      () => {
        const tables = lib.createTableDatasets({ cloudCoefficients: structuredClone(dataTables(datasets)) });
        return tables.cloudCoefficients.get('aws');
      },
    ],
    [
      'createTableDatasets invalid table',
      () => lib.createTableDatasets({ fx: { dataset: {}, rates: {} } as never }),
    ],
  ];
  return cases.map(([name, run]) => {
    try {
      return { name, ok: true, result: run() };
    } catch (error) {
      const asError = error as Error & { toJSON?: () => unknown };
      return {
        name,
        ok: false,
        isEmissionsError: error instanceof lib.EmissionsError,
        errorName: asError.name,
        body: typeof asError.toJSON === 'function' ? asError.toJSON() : asError.message,
      };
    }
  });
}

/** A CCF coefficients table rebuilt from the default provider, to feed `createTableDatasets`. */
function dataTables(datasets: DatasetsModule['defaultDatasets']) {
  const providers = Object.fromEntries(
    (['aws', 'azure', 'gcp'] as const).map((provider) => [
      provider,
      datasets.cloudCoefficients.get(provider),
    ]),
  );
  return { dataset: datasets.cloudCoefficients.info, providers } as Parameters<
    Lib['createTableDatasets']
  >[0]['cloudCoefficients'] &
    object;
}
