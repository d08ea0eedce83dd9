import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { assert, compareStrings, readCsv, sharedPath } from './lib';

/**
 * Azure writes region names with the words run together (`westeurope`, `eastus2`, `southeastasia`); the hosted
 * API's activity ids split them (`west_europe`, `east_us_2`, `southeast_asia`). This finds the split from the
 * source data alone, with no hand list: a vocabulary of the words the sources write apart, and a segmentation of
 * each name into the fewest such words. Checked against every Azure region of the hosted API's own factors.
 *
 * Vocabulary, in order of trust:
 * 1. the hosted API's Azure activity ids (`oefdb/ccf_cloud_factors.csv`: `…-region_west_europe`);
 * 2. the display names of CCF's Azure grid factors (`ccf-coefficients/grid-emissions-factors-azure.csv`:
 *    `West Europe`, `Southeast Asia`);
 * 3. the words of CCF's Azure region enum keys and spaced aliases (`ccf/regions.json`: `EU_FRANCE_CENTRAL`,
 *    `DE West Central`), except a word that is itself words of 1 or 2 run together (CCF's `WESTCENTRAL`), which
 *    would otherwise win as the "fewer words" split of `germanywestcentral`.
 */

export interface AzureRegionsSource {
  regions: Record<string, { name: string; options: string[] }>;
}

const wordsOf = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => /^[a-z]+$/.test(word));

/** The hosted API's Azure region spellings (`west_europe`), from its activity ids. */
export function hostedAzureSpellings(): Set<string> {
  const spellings = new Set<string>();
  for (const row of readCsv(sharedPath('oefdb/ccf_cloud_factors.csv'))) {
    const match = /-provider_azure-region_([a-z0-9_]+?)(?:-type_(?:ssd|hdd))?$/.exec(row.activity_id ?? '');
    if (match?.[1]) spellings.add(match[1]);
  }
  assert(spellings.size > 0, 'ccf_cloud_factors.csv: no Azure activity ids');
  return spellings;
}

function azureGridDisplayNames(): string[] {
  const text = readFileSync(sharedPath('ccf/ccf-coefficients/grid-emissions-factors-azure.csv'), 'utf8');
  // relax_column_count: one row (Finland Central) has a stray extra column; only the Region column is read.
  const rows = parse(text, { columns: true, bom: true, relax_column_count: true }) as Record<
    string,
    string
  >[];
  return rows.map((row) => row.Region ?? '').filter((name) => name !== '');
}

interface Split {
  /** Characters not covered by a vocabulary word or a number. */
  unknown: number;
  pieces: string[];
}

const better = (a: Split, b: Split | undefined): boolean =>
  b === undefined || a.unknown < b.unknown || (a.unknown === b.unknown && a.pieces.length < b.pieces.length);

/**
 * `name` split into vocabulary words and numbers: fewest uncovered characters first, then fewest pieces (so
 * `southeastasia` is `southeast asia`, not `south east asia`). A run of letters no word covers stays one piece.
 */
export function segment(name: string, vocabulary: ReadonlySet<string>): Split {
  const best: Array<Split | undefined> = [{ unknown: 0, pieces: [] }];
  for (let end = 1; end <= name.length; end++) {
    for (let start = 0; start < end; start++) {
      const before = best[start];
      if (before === undefined) continue;
      const piece = name.slice(start, end);
      const known = vocabulary.has(piece) || /^\d+$/.test(piece);
      const candidate = {
        unknown: before.unknown + (known ? 0 : piece.length),
        pieces: [...before.pieces, piece],
      };
      if (better(candidate, best[end])) best[end] = candidate;
    }
  }
  return best[name.length] as Split;
}

/** The vocabulary described above. */
export function azureVocabulary(source: AzureRegionsSource, hosted: ReadonlySet<string>): Set<string> {
  const trusted = new Set([...[...hosted].flatMap(wordsOf), ...azureGridDisplayNames().flatMap(wordsOf)]);
  const fromEnums = new Set<string>();
  for (const [key, { options }] of Object.entries(source.regions)) {
    for (const word of wordsOf(key)) fromEnums.add(word);
    for (const option of options)
      if (/[\s_-]/.test(option)) for (const word of wordsOf(option)) fromEnums.add(word);
  }
  const vocabulary = new Set(trusted);
  for (const word of fromEnums) {
    const split = segment(word, trusted);
    // `westcentral` is `west` + `central`, both written apart by the hosted API; `euap` is no such pair.
    if (!(split.unknown === 0 && split.pieces.length > 1)) vocabulary.add(word);
  }
  return vocabulary;
}

/**
 * The hosted spelling of every Azure region name (lowercase): its words joined by `_`. Fails the build when a
 * region the hosted API named is split differently from the hosted API, or a name has letters no word covers
 * (then the vocabulary's sources have changed and the result needs a look).
 */
export function azureHostedSpellings(
  source: AzureRegionsSource,
  names: readonly string[],
): Map<string, string> {
  const hosted = hostedAzureSpellings();
  const vocabulary = azureVocabulary(source, hosted);
  const spellings = new Map<string, string>();
  const uncovered: string[] = [];
  for (const name of [...names].sort(compareStrings)) {
    const split = segment(name, vocabulary);
    if (split.unknown > 0) uncovered.push(`${name} (${split.pieces.join(' ')})`);
    spellings.set(name, split.pieces.join('_'));
  }
  for (const spelling of hosted) {
    const name = spelling.replaceAll('_', '');
    const ours = spellings.get(name);
    assert(
      ours === undefined || ours === spelling,
      `Azure ${name}: split as ${ours}, the hosted API wrote ${spelling}`,
    );
  }
  if (uncovered.length > 0)
    console.log(`  Azure names with words no source writes apart: ${uncovered.join(', ')}`);
  return spellings;
}
