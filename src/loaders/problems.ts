import { DatasetError, type DatasetProblem, type FilePosition } from '../datasets/errors';
import { describePosition } from './text';

/**
 * Problems found while reading a file (or the files of one input), so that the whole input is checked before
 * anything is built and the first problem is reported, with how many more there are and the list of all of them.
 */
export class Problems {
  private readonly byPosition = new Map<
    string,
    { order: number; position: FilePosition; found: DatasetProblem }
  >();
  /** The files problems were found in, in the order of their first problem: the order they are reported in. */
  private readonly files: string[] = [];

  constructor(private readonly file: string) {}

  /**
   * Records a problem at a position of `file` (by default the file this reader reads); the first one recorded at a
   * position wins (a bad cell is not also reported as missing).
   */
  add(position: FilePosition, problem: string, file = this.file): void {
    let order = this.files.indexOf(file);
    if (order === -1) order = this.files.push(file) - 1;
    const key = `${order}:${position.line}:${position.column ?? 0}`;
    if (this.byPosition.has(key)) return;
    const found = { table: file, location: describePosition(position), problem, ...placement(position) };
    this.byPosition.set(key, { order, position, found });
  }

  get size(): number {
    return this.byPosition.size;
  }

  /** @throws {@link DatasetError} for the first problem in file order, if there is any, with all of them. */
  throwIfAny(): void {
    const sorted = [...this.byPosition.values()].sort(
      (a, b) =>
        a.order - b.order ||
        a.position.line - b.position.line ||
        (a.position.column ?? 0) - (b.position.column ?? 0),
    );
    const first = sorted[0];
    if (first === undefined) return;
    const more = sorted.length - 1;
    const where = this.files.length === 1 ? 'this file' : 'these files';
    const suffix = more === 0 ? '' : ` (and ${more} more problem${more === 1 ? '' : 's'} in ${where})`;
    throw new DatasetError(
      first.found.table,
      first.found.location,
      `${first.found.problem}${suffix}`,
      first.position,
      sorted.map((entry) => entry.found),
    );
  }
}

/** The line and column of a position, as a {@link DatasetProblem} states them. */
const placement = ({ line, column }: FilePosition) => ({ line, ...(column !== undefined && { column }) });

/** Where a row's fields sit: a field's column, or for a nested field (`kgco2e_alt.ar5`) its sub-fields' columns. */
export type RowColumns = Readonly<Record<string, string | Readonly<Record<string, string>>>>;

/** A row located once, its cells' positions derived only when an issue asks (a large file has millions of cells). */
interface RowLocation {
  readonly line: number;
  at(column: string): FilePosition;
}

/** Positions of the values of a table being built, by path, to map validation issues back to the file. */
export class Locations {
  private readonly byPath = new Map<string, FilePosition>();
  /** Rows at `[name, index]`, in parallel arrays (no key and no object per row). */
  private readonly indexed = new Map<string, { rows: RowLocation[]; columns: RowColumns[] }>();
  private readonly keyed = new Map<string, { row: RowLocation; columns: RowColumns }>();

  /**
   * Locates a row at `path` and its fields by column (`{ kgco2e: 'kgco2e' }`, one object shared by every row): one
   * entry per row, whatever its number of cells.
   */
  setRow(path: readonly PropertyKey[], row: RowLocation, columns: RowColumns): void {
    const [name, index] = path;
    if (path.length === 2 && typeof name === 'string' && typeof index === 'number') {
      let rows = this.indexed.get(name);
      if (rows === undefined) this.indexed.set(name, (rows = { rows: [], columns: [] }));
      rows.rows[index] = row;
      rows.columns[index] = columns;
    } else this.keyed.set(pathKey(path), { row, columns });
  }

  set(path: readonly PropertyKey[], position: FilePosition): void {
    this.byPath.set(pathKey(path), position);
  }

  /** Sets a position unless the path has one already (the first row that mentions a key). */
  setFirst(path: readonly PropertyKey[], position: FilePosition): void {
    const key = pathKey(path);
    if (!this.byPath.has(key)) this.byPath.set(key, position);
  }

  /** Position of the path or of its longest located prefix (a missing key is reported where its parent is). */
  find(path: readonly PropertyKey[]): FilePosition | undefined {
    for (let length = path.length; length >= 0; length--) {
      const key = pathKey(path.slice(0, length));
      const found = this.byPath.get(key);
      if (found !== undefined) return found;
      const rest = path.slice(length).map(String);
      const keyed = this.keyed.get(key);
      if (keyed !== undefined) return rowPosition(keyed.row, keyed.columns, rest);
      const [name, index] = path;
      if (length === 2 && typeof name === 'string' && typeof index === 'number') {
        const rows = this.indexed.get(name);
        const row = rows?.rows[index];
        if (row !== undefined) return rowPosition(row, rows?.columns[index] ?? {}, rest);
      }
    }
    return undefined;
  }
}

/** A field's cell in a located row (`['kgco2e']`, `['kgco2e_alt', 'ar5']`), else the row's line. */
function rowPosition(row: RowLocation, columns: RowColumns, rest: readonly string[]): FilePosition {
  const [field, sub] = rest;
  const spec = field === undefined || !Object.hasOwn(columns, field) ? undefined : columns[field];
  if (typeof spec === 'string') return row.at(spec);
  if (spec !== undefined && sub !== undefined && Object.hasOwn(spec, sub)) return row.at(spec[sub] as string);
  return { line: row.line };
}

const pathKey = (path: readonly PropertyKey[]) => path.map(String).join('\u0000');
