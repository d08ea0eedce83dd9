import { describe, expect, it } from 'vitest';
import {
  checkFreshness,
  checkRegionFreshness,
  freshnessReport,
} from '../../scripts/datasets/cloud/freshness';
import {
  awsRegionsOf,
  azureRegionsOf,
  azureSizesOf,
  gcpRegionsOf,
  type ProviderLists,
} from '../../scripts/datasets/cloud/provider-lists';
import listsJson from '../../scripts/datasets/cloud/provider-lists.json';
import instancesJson from '../../datasets/cloud/instances.json';
import ccfRegionsJson from '../../datasets/cloud/regions-ccf.json';
import regionsJson from '../../datasets/cloud/regions-electricitymaps.json';
import type { CloudInstancesTable, CloudRegionsTable } from '../../src/datasets/tables';

const lists = listsJson as ProviderLists;
const table = instancesJson as CloudInstancesTable;
const regionsTable = regionsJson as CloudRegionsTable;
const ccfRegionsTable = ccfRegionsJson as CloudRegionsTable;

describe('freshness: our instance tables against the providers’ lists we ship (issue 38)', () => {
  const result = checkFreshness(lists, table);

  it('the committed lists: unique, sorted names, one source per provider', () => {
    for (const provider of ['aws', 'azure', 'gcp'] as const) {
      const names = lists.instances[provider];
      expect(names.length, provider).toBeGreaterThan(300);
      expect(new Set(names).size, provider).toBe(names.length);
      expect(
        [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
        provider,
      ).toEqual(names);
      expect(lists.sources[provider].length).toBeGreaterThan(10);
    }
  });

  it('every AWS and GCP type on the lists is answered or excluded with a reason', () => {
    expect(result.aws).toMatchObject({ new: [], answered: 720, excluded: 475 });
    expect(result.gcp).toMatchObject({ new: [], answered: 384, excluded: 31 });
    // Listed, answered: the types.
    for (const type of ['r7i.large', 'm8i.large', 'c8g.large']) expect(lists.instances.aws).toContain(type);
  });

  it('Azure: the sizes on the Resource SKU list that no source or specs row covers are reported as new', () => {
    // 736 sizes (B v2, v7, DC/EC confidential, network-optimised v6 …) have neither a row nor a reason yet.
    expect(result.azure.answered).toBe(617);
    expect(result.azure.new.length).toBe(736);
    expect(result.azure.new).toContain('Standard_B2s_v2');
    expect(result.azure.new).not.toContain('Standard_D4s_v6');
  });

  it('reports types answered but on no current list as gone (old generations and service types, kept for old bills)', () => {
    expect(result.aws.gone).toContain('cc2.8xlarge');
    expect(result.aws.gone).not.toContain('m5.large');
    expect(freshnessReport(result).split('\n')[1]).toBe(
      `aws: listed 1195: answered 720, excluded 475, new 0; gone from the lists ${result.aws.gone.length}`,
    );
  });

  it('finds new and gone types in lists of its own', () => {
    const own: ProviderLists = {
      ...lists,
      instances: { aws: ['m5.large', 'z9.large'], azure: ['standard_d4s_v6'], gcp: [] },
    };
    const mini: CloudInstancesTable = {
      ...table,
      instances: table.instances.filter((r) =>
        ['m5.large', 'c5.large', 'Standard_D4s_v6'].includes(r.instance),
      ),
      excluded: [],
    };
    const check = checkFreshness(own, mini);
    expect(check.aws).toEqual({ new: ['z9.large'], gone: ['c5.large'], answered: 1, excluded: 0 });
    // Azure names match as the engine looks them up (case-insensitive).
    expect(check.azure).toEqual({ new: [], gone: [], answered: 1, excluded: 0 });
  });

  it('reads Azure size names from the generated file’s comments', () => {
    expect(
      azureSizesOf('/// Standard_D4s_v6 — 4 vCPUs — 16 GB RAM\n/// Standard_B2s — 2 vCPUs — 4 GB RAM'),
    ).toEqual(['Standard_B2s', 'Standard_D4s_v6']);
  });
});

describe('freshness: our region tables against the providers’ region lists we ship (issue 38)', () => {
  it('the committed lists: unique, sorted, each with its source', () => {
    expect(lists.regions.aws.length).toBe(39);
    expect(lists.regions.azure.length).toBe(55);
    expect(lists.regions.gcp.length).toBe(43);
    for (const provider of ['aws', 'azure', 'gcp'] as const) {
      const names = lists.regions[provider];
      expect(new Set(names).size, provider).toBe(names.length);
      expect(
        [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
        provider,
      ).toEqual(names);
      expect(lists.region_sources[provider].length).toBeGreaterThan(10);
    }
    for (const region of ['mx-central-1', 'ap-southeast-5', 'ap-southeast-7', 'ca-west-1', 'eusc-de-east-1'])
      expect(lists.regions.aws).toContain(region);
    for (const region of ['africa-south1', 'europe-north2', 'northamerica-south1', 'asia-southeast3'])
      expect(lists.regions.gcp).toContain(region);
    for (const region of [
      'austriaeast',
      'belgiumcentral',
      'chilecentral',
      'malaysiawest',
      'indonesiacentral',
    ])
      expect(lists.regions.azure).toContain(region);
  });

  it('every listed region has a grid zone in the default grid: none new', () => {
    const result = checkRegionFreshness(lists, regionsTable);
    expect(result.aws).toMatchObject({ new: [], answered: 39, excluded: 0, gone: [] });
    expect(result.gcp).toMatchObject({ new: [], answered: 43, excluded: 0 });
    expect(result.azure).toMatchObject({ new: [], answered: 55, excluded: 0 });
    // Kept for old bills and billing aliases: no longer (or not yet) on the lists.
    expect(result.gcp.gone).toEqual(['us-central2']);
    for (const region of ['taiwannorth', 'denmarkeast', 'eastus3', 'uk', 'jioindiawest'])
      expect(result.azure.gone).toContain(region);
  });

  it('in CCF’s grid every listed region has a figure or is refused with the reason', () => {
    const result = checkRegionFreshness(lists, ccfRegionsTable);
    for (const provider of ['aws', 'azure', 'gcp'] as const)
      expect(result[provider].new, provider).toEqual([]);
    expect(result.aws.excluded).toBeGreaterThan(0); // mx-central-1 …: CCF has no figure for them
  });

  it('prints new and gone regions of lists of its own', () => {
    const own: ProviderLists = {
      ...lists,
      regions: { aws: ['us-east-1', 'xx-south-9'], azure: [], gcp: [] },
    };
    const mini: CloudRegionsTable = {
      ...regionsTable,
      regions: regionsTable.regions.filter((r) => ['us-east-1', 'us-west-2'].includes(r.region)),
      unsupported: [],
    };
    const check = checkRegionFreshness(own, mini);
    expect(check.aws).toEqual({ new: ['xx-south-9'], gone: ['us-west-2'], answered: 1, excluded: 0 });
    expect(freshnessReport(check, 'regions').split('\n')).toEqual([
      'regions:',
      'aws: listed 2: answered 1, excluded 0, new 1; gone from the lists 1',
      '  new: xx-south-9',
      '  gone: us-west-2',
      'azure: listed 0: answered 0, excluded 0, new 0; gone from the lists 0',
      'gcp: listed 0: answered 0, excluded 0, new 0; gone from the lists 0',
    ]);
  });

  it('reads the providers’ files: AWS partitions, Google’s zones, Azure’s regions table', () => {
    expect(
      awsRegionsOf(
        JSON.stringify({
          partitions: [
            { id: 'aws', regions: { 'aws-global': {}, 'mx-central-1': {} } },
            { id: 'aws-eusc', regions: { 'eusc-de-east-1': {} } },
            { id: 'aws-iso', regions: { 'us-iso-east-1': {} } },
          ],
        }),
      ),
    ).toEqual(['eusc-de-east-1', 'mx-central-1']);
    expect(gcpRegionsOf('`europe-north2-a`\n\nStockholm\n\n`europe-north2-b` `us-west4-ai2b`')).toEqual([
      'europe-north2',
      'us-west4',
    ]);
    expect(
      azureRegionsOf(
        [
          '#### [All](#tab/all)',
          '| Region | Availability zone support | Paired region | Physical location | Geography | Programmatic name |',
          '|---|---|---|---|---|---|',
          '| Austria East | yes | N/A | Vienna | Austria | austriaeast |',
          '| :::image source="media/icon-region-coming-soon.svg"::: Denmark East | | N/A | Copenhagen | Denmark | denmarkeast |',
          '#### [Americas](#tab/americas)',
          '| Brazil South | | | | | brazilsouth |',
        ].join('\n'),
      ),
    ).toEqual(['austriaeast']);
  });
});
