/**
 * Freshness check (issue 38): compares our instance tables with the providers' lists we ship
 * (`provider-lists.json`, see `provider-lists.ts`) and prints what is new (listed by a provider, but neither answered
 * nor excluded with a reason) and what is gone (answered, but on no current list: retired or renamed types, still
 * answered for old bills). Run it after regenerating the lists:
 *
 *   npx tsx scripts/datasets/cloud/freshness.ts
 *
 * tests/datasets/freshness.test.ts runs it against the committed lists and tables.
 */
import { instanceKey } from '../../../src/datasets/keys';
import type { CloudInstancesTable, CloudProvider } from '../../../src/datasets/tables';
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

/** The report as printed: counts per provider, then the new types (they need a row or a reason). */
export function freshnessReport(result: Record<CloudProvider, Freshness>): string {
  const lines: string[] = [];
  for (const provider of PROVIDERS) {
    const r = result[provider];
    lines.push(
      `${provider}: listed ${r.answered + r.excluded + r.new.length}: answered ${r.answered}, excluded ${r.excluded}, new ${r.new.length}; gone from the lists ${r.gone.length}`,
    );
    if (r.new.length > 0) lines.push(`  new: ${r.new.join(' ')}`);
  }
  return lines.join('\n');
}

if (isMain(import.meta.url)) {
  const lists = readJson(PROVIDER_LISTS_FILE) as ProviderLists;
  const table = readJson(repoPath('datasets/cloud/instances.json')) as CloudInstancesTable;
  console.log(freshnessReport(checkFreshness(lists, table)));
}
