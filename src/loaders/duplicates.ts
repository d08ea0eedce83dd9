import { instanceKey, regionKey } from '../datasets/create';
import type { FilePosition } from '../datasets/errors';
import type { Problems } from './problems';
import type { TableKind, TableOf } from './table-kinds';

/** A row list whose keys must be unique: its field, each row's key, and how a message names row `index`. */
interface Keyed {
  field: string;
  keys: readonly string[];
  what: (index: number) => string;
}

const keyed = <Row>(
  field: string,
  rows: readonly Row[],
  key: (row: Row) => string,
  what: (row: Row) => string,
): Keyed => ({ field, keys: rows.map(key), what: (index) => what(rows[index]!) });

/** The row lists whose keys must be unique, with the key as the engine looks rows up. */
const KEYED_ROWS: { readonly [K in TableKind]?: (table: TableOf<K>) => Keyed } = {
  spendFactors: ({ factors }) =>
    keyed(
      'factors',
      factors,
      (r) => `${r.product}\u0000${r.region}`,
      (r) => `factor for product ${r.product} in region ${r.region}`,
    ),
  margins: ({ margins }) =>
    keyed(
      'margins',
      margins,
      (r) => `${r.region}\u0000${r.product}`,
      (r) => `margins for region ${r.region} and product ${r.product}`,
    ),
  cloudRegions: ({ regions }) =>
    keyed(
      'regions',
      regions,
      (r) => `${r.provider}\u0000${regionKey(r.region)}`,
      (r) => `region ${r.provider} ${r.region}`,
    ),
  cloudInstances: ({ instances }) =>
    keyed(
      'instances',
      instances,
      (r) => `${r.provider}\u0000${instanceKey(r.provider, r.instance)}`,
      (r) => `instance ${r.provider} ${r.instance}`,
    ),
};

/**
 * Records a problem for every row whose key repeats an earlier row's (under the engine's lookup keys: regions as
 * `us_east_1`, instances case-insensitively), so a table that would fail when its datasets are built fails here
 * with the row's position instead.
 */
export function checkDuplicates<K extends TableKind>(
  kind: K,
  table: TableOf<K>,
  problems: Problems,
  locate: (path: readonly PropertyKey[]) => FilePosition,
): void {
  const rows = KEYED_ROWS[kind]?.(table);
  if (rows === undefined) return;
  const first = new Map<string, number>();
  rows.keys.forEach((key, index) => {
    const earlier = first.get(key);
    if (earlier === undefined) {
      first.set(key, index);
      return;
    }
    const at = locate([rows.field, earlier]);
    problems.add(locate([rows.field, index]), `duplicate ${rows.what(index)} (first at line ${at.line})`);
  });
}
