import { instanceKey, regionKey } from '../datasets/create';
import type { FilePosition } from '../datasets/errors';
import type { Problems } from './problems';
import type { TableKind, TableOf } from './table-kinds';

type Keyed = {
  rows: readonly unknown[];
  field: string;
  key: (row: never) => string;
  what: (row: never) => string;
};

/** The row lists whose keys must be unique, with the key as the engine looks rows up. */
function keyedRows(kind: TableKind, table: TableOf<TableKind>): Keyed | undefined {
  switch (kind) {
    case 'spendFactors': {
      const { factors } = table as TableOf<'spendFactors'>;
      type Row = (typeof factors)[number];
      return {
        rows: factors,
        field: 'factors',
        key: (r: Row) => `${r.product}\u0000${r.region}`,
        what: (r: Row) => `factor for product ${r.product} in region ${r.region}`,
      };
    }
    case 'margins': {
      const { margins } = table as TableOf<'margins'>;
      type Row = (typeof margins)[number];
      return {
        rows: margins,
        field: 'margins',
        key: (r: Row) => `${r.region}\u0000${r.product}`,
        what: (r: Row) => `margins for region ${r.region} and product ${r.product}`,
      };
    }
    case 'cloudRegions': {
      const { regions } = table as TableOf<'cloudRegions'>;
      type Row = (typeof regions)[number];
      return {
        rows: regions,
        field: 'regions',
        key: (r: Row) => `${r.provider}\u0000${regionKey(r.region)}`,
        what: (r: Row) => `region ${r.provider} ${r.region}`,
      };
    }
    case 'cloudInstances': {
      const { instances } = table as TableOf<'cloudInstances'>;
      type Row = (typeof instances)[number];
      return {
        rows: instances,
        field: 'instances',
        key: (r: Row) => `${r.provider}\u0000${instanceKey(r.provider, r.instance)}`,
        what: (r: Row) => `instance ${r.provider} ${r.instance}`,
      };
    }
    default:
      return undefined;
  }
}

/**
 * Records a problem for every row whose key repeats an earlier row's (under the engine's lookup keys: regions as
 * `us_east_1`, instances case-insensitively), so a table that would fail when its datasets are built fails here
 * with the row's position instead.
 */
export function checkDuplicates(
  kind: TableKind,
  table: TableOf<TableKind>,
  problems: Problems,
  locate: (path: readonly PropertyKey[]) => FilePosition,
): void {
  const keyed = keyedRows(kind, table);
  if (keyed === undefined) return;
  const first = new Map<string, number>();
  keyed.rows.forEach((row, index) => {
    const key = keyed.key(row as never);
    const earlier = first.get(key);
    if (earlier === undefined) {
      first.set(key, index);
      return;
    }
    const at = locate([keyed.field, earlier]);
    problems.add(
      locate([keyed.field, index]),
      `duplicate ${keyed.what(row as never)} (first at line ${at.line})`,
    );
  });
}
