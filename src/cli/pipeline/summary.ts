import { compare } from '../../core/decimal';
import { DecimalReading, DecimalSum } from '../../core/decimal-sum';
import { numberText } from '../../core/number-text';
import { inTonnes, massText } from './mass-text';
import type { RowTally } from './row-adapter';

/**
 * A summary as plain data: what a worker sends back for its chunk, and what a resumable run keeps beside its
 * partial output. Decimals are strings, so merging stays exact.
 */
export interface SummaryState {
  rows: number;
  failures: number;
  total: string;
  groups: Record<string, Record<string, { co2e: string; rows: number }>>;
  errorCodes: Record<string, number>;
  firstFailures: string[];
  /** The adapter's own tally ({@link RowTally.state}), when the run keeps one. */
  tally?: unknown;
}

/**
 * A chunk's summary as a worker posts it to the main thread (structured cloning): its sums as counts of 10^-30
 * ({@link DecimalSum.parts}) and its groups as parallel arrays, so that the worker writes no decimal text per group
 * and the main thread reads none back: a varied chunk of ledger rows has hundreds of groups, and as
 * {@link SummaryState} (an object per group, its sum as text) they cost both threads a share of a `--jobs 2` run.
 */
export interface SummaryParts {
  rows: number;
  failures: number;
  total: { scaled: bigint; rest: string | undefined };
  /**
   * Per grouping: each key, and its rows and sum at the same index: the sum's four limbs at 4 × index
   * ({@link DecimalSum.pushLimbs}), its BigInt part and rest only for the sums that have one.
   */
  groups: Array<{
    name: string;
    keys: string[];
    rows: number[];
    limbs: number[];
    bigs: Array<[index: number, big: bigint]>;
    rests: Array<[index: number, rest: string]>;
  }>;
  errorCodes: Array<[code: string, count: number]>;
  firstFailures: string[];
  /** The adapter's own tally ({@link RowTally.state}), when the run keeps one. */
  tally?: unknown;
}

/** Whether `value` is a count: a safe whole number, not negative. */
export const isCount = (value: unknown): value is number =>
  Number.isSafeInteger(value) && (value as number) >= 0;
const isDecimalText = (value: unknown): value is string =>
  typeof value === 'string' && DecimalSum.isPlainDecimal(value);
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Whether `value` (read back from a resumable run's state file) is a {@link SummaryState} that merges exactly: counts
 * that are whole and not negative, sums that are decimal text. A damaged one would otherwise merge as a wrong summary
 * (a sum that is not a decimal adds nothing, a count that is no number makes the rows NaN).
 *
 * @example
 * ```ts
 * isSummaryState(new RunSummary({}).toState()); // true
 * isSummaryState({ ...new RunSummary({}).toState(), total: 'lots' }); // false
 * ```
 */
export function isSummaryState(value: unknown): value is SummaryState {
  if (!isRecord(value)) return false;
  const { rows, failures, total, groups, errorCodes, firstFailures } = value;
  return (
    isCount(rows) &&
    isCount(failures) &&
    isDecimalText(total) &&
    isRecord(groups) &&
    Object.values(groups).every(
      (keys) =>
        isRecord(keys) &&
        Object.values(keys).every(
          (entry) => isRecord(entry) && isDecimalText(entry.co2e) && isCount(entry.rows),
        ),
    ) &&
    isRecord(errorCodes) &&
    Object.values(errorCodes).every(isCount) &&
    Array.isArray(firstFailures) &&
    firstFailures.every((failure) => typeof failure === 'string')
  );
}

interface Group {
  /** Summed as scaled integers (exact, and a fraction of the cost of a decimal addition per row). */
  co2e: DecimalSum;
  rows: number;
}

/**
 * One grouping's groups by key, and the rows not yet in them: each row's key and the four limbs of its kg
 * ({@link DecimalReading}), in row order. A chunk of a varied ledger has nearly as many groups as rows, so grouping
 * its rows in the chunk (a map entry and a sum made per row) and again when the chunk is merged did the work twice;
 * rows are grouped once, where they are merged (or when the chunk's groups are read).
 */
interface Grouping {
  readonly groups: Map<string, Group>;
  readonly keys: string[];
  readonly limbs: number[];
}

const MAX_GROUPS_SHOWN = 15;
/** Error codes kept with an example (one each): a run has a handful of codes, not dozens. */
const MAX_FAILURES_SHOWN = 20;
/** Characters of an example message shown; the whole message is in the row's error column. */
const MAX_EXAMPLE_CHARS = 160;

/** The prefix of a hint's count among the error codes (no error code has a colon). */
const HINT = 'hint:';
/**
 * Among the error codes, as hints are (so state files, worker parts and merges carry them unchanged): the records
 * with keys the output has no column for, and the records each such key was in.
 */
const DROPPED_RECORDS = 'dropped:records';
const DROPPED_KEY = 'dropped key:';
/** Dropped keys named in the warning; the rest are counted. */
const MAX_DROPPED_SHOWN = 10;
/**
 * Dropped keys are counted while the error codes hold fewer entries than this: records each with a key of its own
 * (`tag_<uuid>`) must not grow the summary, which is saved at every checkpoint, with the length of the file.
 */
const MAX_DROPPED_KEYS = 1_000;
/** Whether an entry of the error codes is an error code (the others, hints and dropped keys, have a colon). */
const isErrorCode = (code: string) => !code.includes(':');

const recordsText = (count: number) => `${count} ${count === 1 ? 'record' : 'records'}`;

/**
 * The warning for keys the output had no column for, or undefined when none was dropped.
 *
 * @example
 * ```ts
 * droppedKeysLine(new Map([['dropped:records', 1], ['dropped key:invoice', 1]]));
 * // "warning: 1 record has keys the first record lacks, which the output has no column for: 'invoice' (1 record); …"
 * ```
 */
export function droppedKeysLine(errorCodes: ReadonlyMap<string, number>): string | undefined {
  const records = errorCodes.get(DROPPED_RECORDS);
  if (records === undefined) return undefined;
  const keys = [...errorCodes].filter(([code]) => code.startsWith(DROPPED_KEY));
  const named = keys
    .slice(0, MAX_DROPPED_SHOWN)
    .map(([code, count]) => `'${code.slice(DROPPED_KEY.length)}' (${recordsText(count)})`);
  if (keys.length > MAX_DROPPED_SHOWN) named.push('more keys');
  return (
    `warning: ${recordsText(records)} ${records === 1 ? 'has' : 'have'} keys the first record lacks, which the ` +
    `output has no column for: ${named.join(', ')}; give every key in the first record (null where it has no ` +
    'value) to keep them.'
  );
}

/**
 * The end report's lines for the failed rows another way would answer, e.g.
 * `  900 of them would be answered by --datasets ceda`. Kept apart so other summary forms can show the same counts.
 *
 * @example
 * ```ts
 * hintLines(new Map([['no_emission_factors_found', 3], ['hint:--datasets ceda', 2]]));
 * // ['  2 of them would be answered by --datasets ceda']
 * ```
 */
export function hintLines(errorCodes: ReadonlyMap<string, number>): string[] {
  return [...errorCodes]
    .filter(([code]) => code.startsWith(HINT))
    .map(([code, count]) => `  ${count} of them would be answered by ${code.slice(HINT.length)}`);
}

/** Failed rows per hint (`--datasets ceda` → rows), from a summary's state. */
export const hintCounts = (state: Pick<SummaryState, 'errorCodes'>): Record<string, number> =>
  Object.fromEntries(
    Object.entries(state.errorCodes)
      .filter(([code]) => code.startsWith(HINT))
      .map(([code, count]) => [code.slice(HINT.length), count]),
  );

/** The error code a kept example is for (`code: line N: message`). */
const codeOf = (failure: string): string => failure.slice(0, failure.indexOf(':'));

/** The group of `key`, made where there is none. */
function groupOf(groups: Map<string, Group>, key: string): Group {
  let group = groups.get(key);
  if (group === undefined) {
    group = { co2e: new DecimalSum(), rows: 0 };
    groups.set(key, group);
  }
  return group;
}

/** A grouping's rows not yet grouped ({@link Grouping}), added to `groups`, one row each. */
function addRows(groups: Map<string, Group>, { keys, limbs }: Grouping): void {
  for (let index = 0; index < keys.length; index++) {
    const group = groupOf(groups, keys[index] as string);
    group.co2e.addLimbParts(limbs, 4 * index, 0n);
    group.rows += 1;
  }
}

/**
 * Totals of a run, summed exactly, for the summary printed at the end: rows, failures by error code, and kg per
 * group of each of the adapter's groupings.
 *
 * @example
 * ```ts
 * const summary = new RunSummary({ region: 'by region' });
 * summary.success(0.5, { region: 'DE' });
 * summary.failure(3, 'invalid_request', "'money' is required");
 * ```
 */
export class RunSummary {
  rows = 0;
  failures = 0;
  private readonly total = new DecimalSum();
  private readonly groups = new Map<string, Grouping>();
  private readonly errorCodes = new Map<string, number>();
  private readonly firstFailures: string[] = [];
  /** The row's kilograms as read for the sums (one per summary, reused). */
  private readonly reading = new DecimalReading();

  /**
   * `tally`: the adapter's own tally of the same rows ({@link RowAdapter.newTally}), kept, saved and merged with
   * this summary.
   */
  constructor(
    private readonly groupings: Readonly<Record<string, string>>,
    readonly tally?: RowTally,
  ) {
    for (const name of Object.keys(groupings))
      this.groups.set(name, { groups: new Map(), keys: [], limbs: [] });
  }

  /**
   * A row computed: its kg, its summary groups, and what it adds to the adapter's tally (`tallied`); `co2eText`,
   * where the caller has it, is `numberText(co2e)`.
   */
  success(co2e: number, groups: Record<string, string>, tallied?: unknown, co2eText?: string): void {
    this.rows += 1;
    if (this.tally !== undefined) {
      if (tallied === undefined) this.tally.miss();
      else this.tally.add(tallied);
    }
    // The number's shortest decimal text: the value decimal(co2e) would hold, read once for both sums.
    const reading = this.reading;
    reading.read(co2eText ?? numberText(co2e));
    this.total.addReading(reading);
    if (!reading.inLimbs) {
      // Rare (digits below 10^-30): added to its groups at once, after the rows before it, so groups keep the order
      // in which their keys first came.
      this.settle();
      for (const name in groups) {
        const grouping = this.groups.get(name);
        if (grouping === undefined) continue;
        const group = groupOf(grouping.groups, groups[name] as string);
        group.co2e.addReading(reading);
        group.rows += 1;
      }
      return;
    }
    for (const name in groups) {
      const grouping = this.groups.get(name);
      if (grouping === undefined) continue;
      grouping.keys.push(groups[name] as string);
      grouping.limbs.push(reading.l0, reading.l1, reading.l2, reading.l3);
    }
  }

  /** Puts the rows not yet grouped into their groups. */
  private settle(): void {
    for (const grouping of this.groups.values()) {
      addRows(grouping.groups, grouping);
      grouping.keys.length = 0;
      grouping.limbs.length = 0;
    }
  }

  /** A record whose `keys` the output has no column for (JSON Lines in, CSV or Parquet out): counted for the warning. */
  dropped(keys: readonly string[]): void {
    this.errorCodes.set(DROPPED_RECORDS, (this.errorCodes.get(DROPPED_RECORDS) ?? 0) + 1);
    for (const key of keys) this.countDroppedKey(DROPPED_KEY + key, 1);
  }

  private countDroppedKey(code: string, count: number): void {
    const before = this.errorCodes.get(code);
    if (before === undefined && this.errorCodes.size >= MAX_DROPPED_KEYS) return;
    this.errorCodes.set(code, (before ?? 0) + count);
  }

  /** A failed row; `hint`, where the adapter has one, is another way that answers it, counted per hint. */
  failure(line: number, code: string, message: string, hint?: string): void {
    this.rows += 1;
    this.failures += 1;
    this.tally?.miss();
    const seen = this.errorCodes.has(code);
    this.errorCodes.set(code, (this.errorCodes.get(code) ?? 0) + 1);
    // Counted beside the error codes, so state files, worker parts and merges carry them unchanged.
    if (hint !== undefined) this.errorCodes.set(HINT + hint, (this.errorCodes.get(HINT + hint) ?? 0) + 1);
    if (!seen && this.firstFailures.length < MAX_FAILURES_SHOWN) {
      const text = message.startsWith(`line ${line}:`) ? message : `line ${line}: ${message}`;
      this.firstFailures.push(`${code}: ${text}`);
    }
  }

  /** This summary as plain data. */
  toState(): SummaryState {
    this.settle();
    // Object.fromEntries defines each key as the object's own, where `groups[key] = …` with a key such as a
    // region named `__proto__` would set the object's prototype, and the group would vanish from the saved state.
    const groups: SummaryState['groups'] = Object.fromEntries(
      [...this.groups].map(([name, grouping]) => [
        name,
        Object.fromEntries(
          [...grouping.groups].map(([key, group]) => [key, { co2e: group.co2e.text(), rows: group.rows }]),
        ),
      ]),
    );
    return {
      rows: this.rows,
      failures: this.failures,
      total: this.total.text(),
      groups,
      errorCodes: Object.fromEntries(this.errorCodes),
      firstFailures: [...this.firstFailures],
      ...(this.tally !== undefined && { tally: this.tally.state() }),
    };
  }

  /** This summary as a worker posts it: see {@link SummaryParts}. */
  toParts(): SummaryParts {
    this.settle();
    const groups: SummaryParts['groups'] = [];
    for (const [name, { groups: grouping }] of this.groups) {
      const keys: string[] = [];
      const rows: number[] = [];
      const limbs: number[] = [];
      const bigs: Array<[number, bigint]> = [];
      const rests: Array<[number, string]> = [];
      for (const [key, group] of grouping) {
        const big = group.co2e.pushLimbs(limbs);
        if (big !== 0n) bigs.push([keys.length, big]);
        const rest = group.co2e.restText();
        if (rest !== undefined) rests.push([keys.length, rest]);
        keys.push(key);
        rows.push(group.rows);
      }
      groups.push({ name, keys, rows, limbs, bigs, rests });
    }
    return {
      rows: this.rows,
      failures: this.failures,
      total: this.total.parts(),
      groups,
      errorCodes: [...this.errorCodes],
      firstFailures: [...this.firstFailures],
      ...(this.tally !== undefined && { tally: this.tally.state() }),
    };
  }

  /**
   * Adds the rows of a later part of the same run: a worker's {@link SummaryParts}, a saved {@link SummaryState}
   * (a resumed run), or a summary of the main thread's own (summed as it is, without writing and reading back its
   * decimals).
   */
  merge(part: SummaryState | SummaryParts | RunSummary): void {
    this.settle();
    this.mergeTally(part);
    if (part instanceof RunSummary) {
      this.mergeSummary(part);
      return;
    }
    if (typeof part.total !== 'string') {
      this.mergeParts(part as SummaryParts);
      return;
    }
    const state = part as SummaryState;
    this.rows += state.rows;
    this.failures += state.failures;
    this.total.add(state.total);
    for (const [name, keys] of Object.entries(state.groups)) {
      const grouping = this.groups.get(name)?.groups;
      if (grouping === undefined) continue;
      for (const [key, entry] of Object.entries(keys)) {
        const group = groupOf(grouping, key);
        group.co2e.add(entry.co2e);
        group.rows += entry.rows;
      }
    }
    this.mergeFailures(Object.entries(state.errorCodes), state.firstFailures);
  }

  /** A part's tally into this one's; a part of rows without one (a state saved by a run that kept none) is a miss. */
  private mergeTally(part: SummaryState | SummaryParts | RunSummary): void {
    if (this.tally === undefined) return;
    if (part.tally !== undefined) this.tally.merge(part.tally);
    else if (part.rows > 0) this.tally.miss();
  }

  private mergeSummary(other: RunSummary): void {
    this.rows += other.rows;
    this.failures += other.failures;
    this.total.addSum(other.total);
    for (const [name, keys] of other.groups) {
      const grouping = this.groups.get(name)?.groups;
      if (grouping === undefined) continue;
      // Its groups, then its rows not yet grouped (which came after them): keys keep the order they first came in.
      for (const [key, part] of keys.groups) {
        const group = groupOf(grouping, key);
        group.co2e.addSum(part.co2e);
        group.rows += part.rows;
      }
      addRows(grouping, keys);
    }
    this.mergeFailures(other.errorCodes, other.firstFailures);
  }

  private mergeParts(parts: SummaryParts): void {
    this.rows += parts.rows;
    this.failures += parts.failures;
    this.total.addParts(parts.total.scaled, parts.total.rest);
    for (const { name, keys, rows, limbs, bigs, rests } of parts.groups) {
      const grouping = this.groups.get(name)?.groups;
      if (grouping === undefined) continue;
      const bigAt = new Map(bigs);
      const restAt = new Map(rests);
      keys.forEach((key, index) => {
        const group = groupOf(grouping, key);
        group.co2e.addLimbParts(limbs, 4 * index, bigAt.get(index) ?? 0n);
        const rest = restAt.get(index);
        if (rest !== undefined) group.co2e.addParts(0n, rest);
        group.rows += rows[index] as number;
      });
    }
    this.mergeFailures(parts.errorCodes, parts.firstFailures);
  }

  private mergeFailures(codes: Iterable<[string, number]>, firstFailures: readonly string[]): void {
    for (const [code, count] of codes) {
      if (code.startsWith(DROPPED_KEY)) this.countDroppedKey(code, count);
      else this.errorCodes.set(code, (this.errorCodes.get(code) ?? 0) + count);
    }
    // One example per code: the first in file order (parts merge in order).
    const kept = new Set(this.firstFailures.map(codeOf));
    for (const failure of firstFailures) {
      if (this.firstFailures.length >= MAX_FAILURES_SHOWN || kept.has(codeOf(failure))) continue;
      kept.add(codeOf(failure));
      this.firstFailures.push(failure);
    }
  }

  /** Total kg CO2e of the rows that succeeded, as an exact decimal string. */
  totalCo2e(): string {
    return this.total.text();
  }

  /**
   * The end report: rows, the total in t and kg (four significant digits; the exact sums are in `--summary`), the
   * largest groups, and one line per error code with its count and an example. `timedRows`: the rows computed in
   * `seconds` (fewer than `rows` when a run was resumed).
   */
  format(command: string, seconds: number, interrupted = false, timedRows = this.rows): string {
    const rate = seconds > 0 ? Math.round(timedRows / seconds) : timedRows;
    const total = this.total.total();
    const tonnes = inTonnes(total);
    const lines = [
      `co2e-engine ${command}: ${this.rows} rows, ${this.failures} failed, ${seconds.toFixed(1)} s (${rate} rows/s)${interrupted ? ', interrupted' : ''}`,
      `total co2e: ${massText(total, true)} (${massText(total, false)}; rows that succeeded)`,
    ];
    this.settle();
    for (const [name, title] of Object.entries(this.groupings)) {
      const grouping = [...(this.groups.get(name)?.groups ?? new Map<string, Group>()).entries()].map(
        ([key, group]) => [key, { co2e: group.co2e.total(), rows: group.rows }] as const,
      );
      if (grouping.length === 0) continue;
      grouping.sort(([, a], [, b]) => compare(b.co2e, a.co2e));
      lines.push(`${title}:`);
      const shown = grouping.slice(0, MAX_GROUPS_SHOWN);
      const width = Math.max(...shown.map(([key]) => key.length));
      const masses = shown.map(([, group]) => massText(group.co2e, tonnes));
      const massWidth = Math.max(...masses.map((mass) => mass.length));
      shown.forEach(([key, group], index) => {
        lines.push(
          `  ${key.padEnd(width)}  ${masses[index]!.padStart(massWidth)}  (${group.rows} ${group.rows === 1 ? 'row' : 'rows'})`,
        );
      });
      if (grouping.length > MAX_GROUPS_SHOWN)
        lines.push(`  … and ${grouping.length - MAX_GROUPS_SHOWN} more`);
    }
    if (this.failures > 0) {
      lines.push('failed, by error code (count, first example):');
      const codes = [...this.errorCodes.entries()]
        .filter(([code]) => isErrorCode(code))
        .sort(([, a], [, b]) => b - a);
      const width = Math.max(...codes.map(([code]) => code.length));
      const examples = new Map(this.firstFailures.map((failure) => [codeOf(failure), failure]));
      for (const [code, count] of codes) {
        const failure = examples.get(code);
        let example = failure === undefined ? '' : failure.slice(code.length + 2);
        if (example.length > MAX_EXAMPLE_CHARS) example = `${example.slice(0, MAX_EXAMPLE_CHARS - 1)}…`;
        lines.push(
          `  ${code.padEnd(width)}  ${count} ${count === 1 ? 'row ' : 'rows'}  ${example}`.trimEnd(),
        );
      }
      lines.push(...hintLines(this.errorCodes));
      lines.push('  (every failed row has its code and message in the error columns of the output)');
    }
    const dropped = droppedKeysLine(this.errorCodes);
    if (dropped !== undefined) lines.push(dropped);
    return `${lines.join('\n')}\n`;
  }
}
