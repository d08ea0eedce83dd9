import { checkDuplicates } from './duplicates';
import { jsonSyntaxErrorOffset, locateJson } from './json-locate';
import { Problems } from './problems';
import { assertTableKind, type TableKind, type TableOf } from './table-kinds';
import { failAt, positionOfOffset, refuseUnderflow, withoutBom } from './text';
import { validateTable } from './validate';

/** Options of {@link parseTableJson}. */
export interface ParseTableJsonOptions {
  /** Name of the file, for error messages (default `<kind>.json`). */
  file?: string;
}

/**
 * Parses and validates a table in the JSON format of its kind (the shape of the embedded tables in
 * `co2e-engine/datasets`, described by `docs/schemas/<kind>.schema.json`). Nothing is returned unless the whole
 * table is valid, and rows with a repeated key (two factors for one product and region, say) are refused.
 *
 * @example
 * ```ts
 * import { parseTableJson } from 'co2e-engine/loaders';
 * const fx = parseTableJson('fx', text, { file: 'fx.json' });
 * const datasets = { ...defaultDatasets, ...createTableDatasets({ fx }) };
 * ```
 * @throws {@link DatasetError} naming the file, the line and column, and what is wrong (the first problem in file order,
 *   with how many more there are).
 */
export function parseTableJson<K extends TableKind>(
  kind: K,
  text: string,
  options: ParseTableJsonOptions = {},
): TableOf<K> {
  const file = options.file ?? `${String(kind)}.json`;
  assertTableKind(kind, file);
  const json = withoutBom(text);
  let candidate: unknown;
  try {
    candidate = JSON.parse(json);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // Our own scan finds the offset on every engine; V8 names it in some messages (`position N`), not in all.
    const offset = jsonSyntaxErrorOffset(json) ?? /position (\d+)/.exec(message)?.[1];
    failAt(
      file,
      offset === undefined ? { line: 1 } : positionOfOffset(json, Number(offset)),
      `not valid JSON: ${message}`,
    );
  }
  refuseUnderflow(json, file);
  const problems = new Problems(file);
  const locate = (path: readonly PropertyKey[]) => {
    for (let length = path.length; length >= 0; length--) {
      const offset = locateJson(json, path.slice(0, length));
      if (offset !== undefined) return positionOfOffset(json, offset);
    }
    return { line: 1 };
  };
  const table = validateTable(kind, candidate, problems, locate);
  if (table !== undefined) checkDuplicates(kind, table, problems, locate);
  problems.throwIfAny();
  return table as TableOf<K>;
}
