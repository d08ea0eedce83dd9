/**
 * Freshness check (issue 38): compares our instance and region tables with the providers' lists we ship
 * (`provider-lists.json`, see `provider-lists.ts`) and prints what is new (listed by a provider, but neither answered
 * nor excluded with a reason) and what is gone (answered, but on no current list: retired or renamed types and
 * regions, billing aliases and staging names, still answered for old bills). Run it after regenerating the lists:
 *
 *   npx tsx scripts/datasets/cloud/freshness.ts
 *
 * tests/datasets/freshness.test.ts runs it against the committed lists and tables.
 */
import { regionKey } from '../../../src/datasets/create';
import { instanceKey } from '../../../src/datasets/keys';
import type { CloudInstancesTable, CloudProvider, CloudRegionsTable } from '../../../src/datasets/tables';
import { isMain, readJson, repoPath } from '../lib';
import { PROVIDER_LISTS_FILE, type ProviderLists } from './provider-lists';

export interface Freshness {
  /** Listed by the provider; neither in the table nor in its excluded listing. */
  new: string[];
  /** In the table, on no list of the provider. */
  gone: string[];
  /** Listed and answered / listed and excluded with a reason. */
  answered: number;
  excluded: number;
}

const PROVIDERS: readonly CloudProvider[] = ['aws', 'azure', 'gcp'];

export function checkFreshness(
  lists: ProviderLists,
  table: CloudInstancesTable,
): Record<CloudProvider, Freshness> {
  const result = {} as Record<CloudProvider, Freshness>;
  for (const provider of PROVIDERS) {
    const key = (name: string) => instanceKey(provider, name);
    const listed = new Set(lists.instances[provider].map(key));
    const answered = new Set(
      table.instances.filter((r) => r.provider === provider).map((r) => key(r.instance)),
    );
    const excluded = new Set(
      (table.excluded ?? []).filter((g) => g.provider === provider).flatMap((g) => g.instances.map(key)),
    );
    result[provider] = {
      new: lists.instances[provider].filter((name) => !answered.has(key(name)) && !excluded.has(key(name))),
      gone: table.instances
        .filter((r) => r.provider === provider && !listed.has(key(r.instance)))
        .map((r) => r.instance),
      answered: lists.instances[provider].filter((name) => answered.has(key(name))).length,
      excluded: lists.instances[provider].filter((name) => excluded.has(key(name))).length,
    };
  }
  return result;
}

/**
 * The regions table against the providers' region lists: new = listed, but neither in the table nor unsupported with
 * a reason; gone = in the table, on no list (compared as the engine looks regions up: `eu_central_1` = `eu-central-1`).
 *
 * @example
 * checkRegionFreshness(lists, regionsTable).aws.new; // [] when every AWS region has a grid zone or a reason
 */
export function checkRegionFreshness(
  lists: ProviderLists,
  table: CloudRegionsTable,
): Record<CloudProvider, Freshness> {
  const result = {} as Record<CloudProvider, Freshness>;
  for (const provider of PROVIDERS) {
    const listed = lists.regions[provider];
    const listedKeys = new Set(listed.map(regionKey));
    const answered = new Set(
      table.regions.filter((r) => r.provider === provider).map((r) => regionKey(r.region)),
    );
    const refused = new Set(
      (table.unsupported ?? []).filter((r) => r.provider === provider).map((r) => regionKey(r.region)),
    );
    result[provider] = {
      new: listed.filter((name) => !answered.has(regionKey(name)) && !refused.has(regionKey(name))),
      gone: table.regions
        .filter((r) => r.provider === provider && !listedKeys.has(regionKey(r.region)))
        .map((r) => r.region),
      answered: listed.filter((name) => answered.has(regionKey(name))).length,
      excluded: listed.filter((name) => refused.has(regionKey(name))).length,
    };
  }
  return result;
}

/** The report as printed: counts per provider, then the new names (they need a row or a reason). */
export function freshnessReport(result: Record<CloudProvider, Freshness>, what = 'instance types'): string {
  const lines: string[] = [`${what}:`];
  for (const provider of PROVIDERS) {
    const r = result[provider];
    lines.push(
      `${provider}: listed ${r.answered + r.excluded + r.new.length}: answered ${r.answered}, excluded ${r.excluded}, new ${r.new.length}; gone from the lists ${r.gone.length}`,
    );
    if (r.new.length > 0) lines.push(`  new: ${r.new.join(' ')}`);
    if (what !== 'instance types' && r.gone.length > 0) lines.push(`  gone: ${r.gone.join(' ')}`);
  }
  return lines.join('\n');
}

if (isMain(import.meta.url)) {
  const lists = readJson(PROVIDER_LISTS_FILE) as ProviderLists;
  const table = readJson(repoPath('datasets/cloud/instances.json')) as CloudInstancesTable;
  console.log(freshnessReport(checkFreshness(lists, table)));
  const regions = readJson(repoPath('datasets/cloud/regions-electricitymaps.json')) as CloudRegionsTable;
  console.log(freshnessReport(checkRegionFreshness(lists, regions), 'regions (default grid)'));
}
