import { describe, expect, it } from 'vitest';
import { checkFreshness, freshnessReport } from '../../scripts/datasets/cloud/freshness';
import { azureSizesOf, type ProviderLists } from '../../scripts/datasets/cloud/provider-lists';
import listsJson from '../../scripts/datasets/cloud/provider-lists.json';
import instancesJson from '../../datasets/cloud/instances.json';
import type { CloudInstancesTable } from '../../src/datasets/tables';

const lists = listsJson as ProviderLists;
const table = instancesJson as CloudInstancesTable;

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
    expect(freshnessReport(result).split('\n')[0]).toBe(
      `aws: listed 1195: answered 720, excluded 475, new 0; gone from the lists ${result.aws.gone.length}`,
    );
  });

  it('finds new and gone types in lists of its own', () => {
    const own: ProviderLists = {
      sources: lists.sources,
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
