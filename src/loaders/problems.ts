import { DatasetError, type FilePosition } from '../datasets/errors';
import { describePosition } from './text';

/**
 * Problems found while reading a file, so that the whole file is checked before anything is built and the
 * first problem in file order is reported (with how many more there are).
 */
export class Problems {
  private readonly byPosition = new Map<string, { position: FilePosition; problem: string }>();

  constructor(private readonly file: string) {}

  /** Records a problem; the first one recorded at a position wins (a bad cell is not also reported as missing). */
  add(position: FilePosition, problem: string): void {
    const key = `${position.line}:${position.column ?? 0}`;
    if (!this.byPosition.has(key)) this.byPosition.set(key, { position, problem });
  }

  get size(): number {
    return this.byPosition.size;
  }

  /** @throws {DatasetError} for the first problem in file order, if there is any. */
  throwIfAny(): void {
    const sorted = [...this.byPosition.values()].sort(
      (a, b) => a.position.line - b.position.line || (a.position.column ?? 0) - (b.position.column ?? 0),
    );
    const first = sorted[0];
    if (first === undefined) return;
    const more = sorted.length - 1;
    const suffix = more === 0 ? '' : ` (and ${more} more problem${more === 1 ? '' : 's'} in this file)`;
    throw new DatasetError(
      this.file,
      describePosition(first.position),
      `${first.problem}${suffix}`,
      first.position,
    );
  }
}

/** Positions of the values of a table being built, by path, to map validation issues back to the file. */
export class Locations {
  private readonly byPath = new Map<string, FilePosition>();

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
      const found = this.byPath.get(pathKey(path.slice(0, length)));
      if (found !== undefined) return found;
    }
    return undefined;
  }
}

const pathKey = (path: readonly PropertyKey[]) => path.map(String).join('\u0000');
