import { add, compare, type Decimal, decimal, toPlainString } from '../../core/decimal';

/** Digits below 10^-SCALE go the slow exact way (a decimal); above it, a scaled BigInt sums them exactly and fast. */
const SCALE = 30;
const POWERS: bigint[] = Array.from({ length: 2 * SCALE + 1 }, (_, index) => 10n ** BigInt(index));
const NUMBER = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * An exact running sum of plain decimals (a number's shortest text, or a summary's decimal text): integer counts of
 * 10^-30 in a BigInt, and a decimal for the rare value with digits below that. Its text is the exact sum as
 * `toPlainString` writes it, without a decimal division when the decimal part is unused.
 */
class ExactSum {
  private scaled = 0n;
  private rest: Decimal | undefined;

  /** Adds a plain decimal (`12`, `-0.5`, `1.2e-5`). */
  add(text: string): void {
    const scaled = ExactSum.scale(text);
    if (scaled !== undefined) this.scaled += scaled;
    else this.rest = this.rest === undefined ? decimal(text) : add(this.rest, decimal(text));
  }

  /** Adds a value {@link ExactSum.scale} has read, or its text when it could not. */
  addScaled(scaled: bigint | undefined, text: string): void {
    if (scaled !== undefined) this.scaled += scaled;
    else this.add(text);
  }

  /** `text` as a count of 10^-30, or undefined when it has digits below that (or is no plain decimal). */
  static scale(text: string): bigint | undefined {
    const match = NUMBER.exec(text);
    if (match === null) return undefined;
    const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
    const digits = whole + fraction;
    if (digits === '') return undefined;
    const shift = Number(exponent) - fraction.length + SCALE;
    if (shift < 0 || shift >= POWERS.length) return undefined;
    return BigInt(sign + digits) * (POWERS[shift] as bigint);
  }

  /** The exact sum, as `toPlainString` writes a decimal (`-12.5`, `0`, no trailing zeros). */
  text(): string {
    if (this.rest !== undefined) return toPlainString(add(decimal(this.scaledText()), this.rest));
    return this.scaledText();
  }

  value(): Decimal {
    return decimal(this.text());
  }

  private scaledText(): string {
    const negative = this.scaled < 0n;
    const digits = (negative ? -this.scaled : this.scaled).toString().padStart(SCALE + 1, '0');
    const whole = digits.slice(0, -SCALE);
    let end = digits.length;
    while (end > whole.length && digits.charCodeAt(end - 1) === 48 /* 0 */) end--;
    const fraction = digits.slice(whole.length, end);
    if (this.scaled === 0n) return '0';
    return `${negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`;
  }
}

/** Totals of a run, summed exactly, for the summary printed at the end. */

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
}

interface Group {
  /** Summed as scaled integers (exact, and a fraction of the cost of a decimal addition per row). */
  co2e: ExactSum;
  rows: number;
}

const MAX_GROUPS_SHOWN = 15;
const MAX_FAILURES_SHOWN = 5;

export class RunSummary {
  rows = 0;
  failures = 0;
  private readonly total = new ExactSum();
  private readonly groups = new Map<string, Map<string, Group>>();
  private readonly errorCodes = new Map<string, number>();
  private readonly firstFailures: string[] = [];

  constructor(private readonly groupings: Readonly<Record<string, string>>) {
    for (const name of Object.keys(groupings)) this.groups.set(name, new Map());
  }

  success(co2e: number, groups: Record<string, string>): void {
    this.rows += 1;
    // The number's shortest decimal text: the value decimal(co2e) would hold.
    const amount = String(co2e);
    const scaled = ExactSum.scale(amount);
    this.total.addScaled(scaled, amount);
    for (const name in groups) {
      const grouping = this.groups.get(name);
      if (grouping === undefined) continue;
      const key = groups[name] as string;
      let group = grouping.get(key);
      if (group === undefined) {
        group = { co2e: new ExactSum(), rows: 0 };
        grouping.set(key, group);
      }
      group.co2e.addScaled(scaled, amount);
      group.rows += 1;
    }
  }

  failure(line: number, code: string, message: string): void {
    this.rows += 1;
    this.failures += 1;
    this.errorCodes.set(code, (this.errorCodes.get(code) ?? 0) + 1);
    if (this.firstFailures.length < MAX_FAILURES_SHOWN) {
      const text = message.startsWith(`line ${line}:`) ? message : `line ${line}: ${message}`;
      this.firstFailures.push(`${code}: ${text}`);
    }
  }

  /** This summary as plain data. */
  toState(): SummaryState {
    const groups: SummaryState['groups'] = {};
    for (const [name, grouping] of this.groups) {
      groups[name] = {};
      for (const [key, group] of grouping) groups[name][key] = { co2e: group.co2e.text(), rows: group.rows };
    }
    return {
      rows: this.rows,
      failures: this.failures,
      total: this.total.text(),
      groups,
      errorCodes: Object.fromEntries(this.errorCodes),
      firstFailures: [...this.firstFailures],
    };
  }

  /** Adds the rows of `state` (a later part of the same run) to this summary. */
  merge(state: SummaryState): void {
    this.rows += state.rows;
    this.failures += state.failures;
    this.total.add(state.total);
    for (const [name, keys] of Object.entries(state.groups)) {
      const grouping = this.groups.get(name);
      if (grouping === undefined) continue;
      for (const [key, part] of Object.entries(keys)) {
        let group = grouping.get(key);
        if (group === undefined) {
          group = { co2e: new ExactSum(), rows: 0 };
          grouping.set(key, group);
        }
        group.co2e.add(part.co2e);
        group.rows += part.rows;
      }
    }
    for (const [code, count] of Object.entries(state.errorCodes))
      this.errorCodes.set(code, (this.errorCodes.get(code) ?? 0) + count);
    for (const failure of state.firstFailures)
      if (this.firstFailures.length < MAX_FAILURES_SHOWN) this.firstFailures.push(failure);
  }

  /** Total kg CO2e of the rows that succeeded, as an exact decimal string. */
  totalCo2e(): string {
    return this.total.text();
  }

  /** `timedRows`: the rows computed in `seconds` (fewer than `rows` when a run was resumed). */
  format(command: string, seconds: number, interrupted = false, timedRows = this.rows): string {
    const rate = seconds > 0 ? Math.round(timedRows / seconds) : timedRows;
    const lines = [
      `co2e-engine ${command}: ${this.rows} rows, ${this.failures} failed, ${seconds.toFixed(1)} s (${rate} rows/s)${interrupted ? ', interrupted' : ''}`,
      `total co2e: ${this.totalCo2e()} kg (rows that succeeded)`,
    ];
    for (const [name, title] of Object.entries(this.groupings)) {
      const grouping = [...(this.groups.get(name) ?? new Map<string, Group>()).entries()].map(
        ([key, group]) => [key, { co2e: group.co2e.value(), rows: group.rows }] as const,
      );
      if (grouping.length === 0) continue;
      grouping.sort(([, a], [, b]) => compare(b.co2e, a.co2e));
      lines.push(`${title}:`);
      const width = Math.max(...grouping.slice(0, MAX_GROUPS_SHOWN).map(([key]) => key.length));
      for (const [key, group] of grouping.slice(0, MAX_GROUPS_SHOWN)) {
        lines.push(
          `  ${key.padEnd(width)}  ${toPlainString(group.co2e)} kg  (${group.rows} ${group.rows === 1 ? 'row' : 'rows'})`,
        );
      }
      if (grouping.length > MAX_GROUPS_SHOWN)
        lines.push(`  … and ${grouping.length - MAX_GROUPS_SHOWN} more`);
    }
    if (this.failures > 0) {
      const codes = [...this.errorCodes.entries()].map(([code, count]) => `${code} ${count}`).join(', ');
      lines.push(`failures by error code: ${codes}`);
      for (const failure of this.firstFailures) lines.push(`  ${failure}`);
      if (this.failures > this.firstFailures.length)
        lines.push(`  … see the error columns of the output for the rest`);
    }
    return `${lines.join('\n')}\n`;
  }
}
