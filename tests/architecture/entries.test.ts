import { describe, expect, it } from 'vitest';
import * as root from '../../src/index';
import * as schemas from '../../src/schemas';
import * as datasets from '../../src/embedded/index';
import * as datasetsCloud from '../../src/embedded/cloud';
import * as datasetsSpend from '../../src/embedded/spend';

/**
 * What each entry exports at run time (issue 35 item 2): the root holds what an app calls, and every name that left
 * it is reachable from the subpath that owns it. Written out by hand, so a name added to or dropped from an entry
 * is a decision this file records.
 */
const ROOT_RUNTIME = [
  'calculateCpu',
  'calculateCpuBatch',
  'calculateMemory',
  'calculateMemoryBatch',
  'calculateStorage',
  'calculateStorageBatch',
  'calculateNetworking',
  'calculateNetworkingBatch',
  'calculateEmbodied',
  'calculateEmbodiedBatch',
  'calculateInstance',
  'calculateInstanceBatch',
  'calculateSpend',
  'calculateSpendBatch',
  'createEngine',
  'CALCULATORS',
  'CALCULATOR_DATASETS',
  'listCapabilities',
  'EmissionsError',
  'ERROR_CODES',
  'isErrorBody',
  'DatasetError',
  'createTableDatasets',
  'mergeDatasets',
];

/** Every run-time name the root exported before issue 35 and no longer does, with the entry that has it now. */
const MOVED: ReadonlyArray<readonly [string, string, Record<string, unknown>]> = [
  ...[
    'CpuRequest',
    'MemoryRequest',
    'StorageRequest',
    'NetworkingRequest',
    'EmbodiedRequest',
    'InstanceRequest',
    'SpendRequest',
    'DATA_UNITS',
    'DURATION_UNITS',
    'MAX_QUANTITY',
    'CLOUD_PROVIDER_NAMES',
    'CLOUD_PROVIDERS',
    'GWP_METHODS',
    'safeParseTable',
    'spendFactorsFromGrid',
  ].map((name) => [name, name, schemas] as const),
  // Renamed: a schema shares its name with its type (CONTRIBUTING.md "Names").
  ...[
    'DatasetInfo',
    'CloudProvider',
    'CloudCoefficientsTable',
    'PublishedFactor',
    'CloudRegionsTable',
    'CloudInstancesTable',
    'SpendFactorsTable',
    'SpendFactorsGrid',
    'ClassificationsTable',
    'MarginsTable',
    'InflationTable',
    'FxTable',
  ].map((name) => [`${name}Schema`, name, schemas] as const),
  ...[
    'EXIOBASE_COUNTRIES',
    'exiobaseRegionOf',
    'REGION_ALIASES',
    'REST_OF_WORLD_COUNTRIES',
    'REST_OF_WORLD_REGIONS',
    'coverageRows',
    'spendCoverage',
  ].map((name) => [name, name, datasetsSpend] as const),
];

describe('the root entry (co2e-engine)', () => {
  it('exports at run time exactly what an app calls, at most 30 names', () => {
    expect(Object.keys(root).sort()).toEqual([...ROOT_RUNTIME].sort());
    expect(ROOT_RUNTIME.length).toBeLessThanOrEqual(30);
  });

  it('reaches every request schema through the registry too', () => {
    expect(root.CALCULATORS.cpu.schema).toBe(schemas.CpuRequest);
    expect(root.CALCULATORS.spend.schema).toBe(schemas.SpendRequest);
  });
});

describe.each(MOVED)('%s, moved off the root entry', (old, now, entry) => {
  it(`is ${now} of its new entry, and gone from the root`, () => {
    expect(entry[now]).toBeDefined();
    expect(old in root).toBe(false);
  });
});

describe('the data subpaths', () => {
  it('keep what bench/reference.mjs and the examples import', () => {
    expect(datasets.defaultDatasets).toBeDefined();
    expect(datasetsCloud.cloudDatasets).toBeDefined();
    expect(datasetsSpend.spendDatasets).toBeDefined();
  });
});
