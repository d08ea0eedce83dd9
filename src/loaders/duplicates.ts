import { instanceKey, regionKey } from '../datasets/create';
import type { FilePosition } from '../datasets/errors';
import type { Problems } from './problems';
import type { TableKind, TableOf } from './table-kinds';

/** A row's fields that key it, as text. */
type KeyFields = Readonly<Record<string, string>>;

/**
 * A row list whose keys must be unique: its field, how a message names a row (`{name}` for a field's value), and
 * the row's key: the named fields, the last one as the engine looks it up (`lookup`; by default as written).
 */
interface Keyed {
  field: string;
  what: string;
  lookup?: (row: KeyFields) => string;
}

/** The row lists whose keys must be unique, with the key as the engine looks rows up. */
const KEYED_ROWS: { readonly [K in TableKind]?: Keyed } = {
  spendFactors: { field: 'factors', what: 'factor for product {product} in region {region}' },
  margins: { field: 'margins', what: 'margins for region {region} and product {product}' },
  cloudRegions: { field: 'regions', what: 'region {provider} {region}', lookup: (r) => regionKey(r.region!) },
  cloudInstances: {
    field: 'instances',
    what: 'instance {provider} {instance}',
    lookup: (r) => instanceKey(r.provider!, r.instance!),
  },
};

const PLACEHOLDER = /\{(\w+)\}/g;

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
  const keyed = KEYED_ROWS[kind];
  if (keyed === undefined) return;
  const names = [...keyed.what.matchAll(PLACEHOLDER)].map((match) => match[1]!);
  const rows = (table as unknown as Readonly<Record<string, readonly KeyFields[]>>)[keyed.field] ?? [];
  const first = new Map<string, number>();
  rows.forEach((row, index) => {
    const parts = names.map((name) => row[name]);
    if (keyed.lookup !== undefined) parts[parts.length - 1] = keyed.lookup(row);
    const key = parts.join('\u0000');
    const earlier = first.get(key);
    if (earlier === undefined) {
      first.set(key, index);
      return;
    }
    const at = locate([keyed.field, earlier]);
    const what = keyed.what.replace(PLACEHOLDER, (_, name: string) => String(row[name]));
    problems.add(locate([keyed.field, index]), `duplicate ${what} (first at line ${at.line})`);
  });
}
