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

/**
 * One provider's list against the names a table answers and the names it refuses with a reason, all compared under
 * `key` (the engine's lookup key).
 */
function compare(
  listed: readonly string[],
  answeredNames: readonly string[],
  refusedNames: readonly string[],
  key: (name: string) => string,
): Freshness {
  const listedKeys = new Set(listed.map(key));
  const answered = new Set(answeredNames.map(key));
  const refused = new Set(refusedNames.map(key));
  return {
    new: listed.filter((name) => !answered.has(key(name)) && !refused.has(key(name))),
    gone: answeredNames.filter((name) => !listedKeys.has(key(name))),
    answered: listed.filter((name) => answered.has(key(name))).length,
    excluded: listed.filter((name) => refused.has(key(name))).length,
  };
}

const byProvider = (compareOne: (provider: CloudProvider) => Freshness) =>
  Object.fromEntries(PROVIDERS.map((provider) => [provider, compareOne(provider)])) as Record<
    CloudProvider,
    Freshness
  >;

export function checkFreshness(
  lists: ProviderLists,
  table: CloudInstancesTable,
): Record<CloudProvider, Freshness> {
  return byProvider((provider) =>
    compare(
      lists.instances[provider],
      table.instances.filter((r) => r.provider === provider).map((r) => r.instance),
      (table.excluded ?? []).filter((g) => g.provider === provider).flatMap((g) => g.instances),
      (name) => instanceKey(provider, name),
    ),
  );
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
  return byProvider((provider) =>
    compare(
      lists.regions[provider],
      table.regions.filter((r) => r.provider === provider).map((r) => r.region),
      (table.unsupported ?? []).filter((r) => r.provider === provider).map((r) => r.region),
      regionKey,
    ),
  );
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
