import { type Decimal, add, decimal, toPlainString } from './decimal';

/** Digits below 10^-SCALE go the slow exact way; above it, a scaled BigInt sums them exactly and fast. */
const SCALE = 30;
const POWERS: bigint[] = Array.from({ length: 2 * SCALE + 1 }, (_, index) => 10n ** BigInt(index));
const NUMBER = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * An exact running sum of decimal strings, for tables of millions of cells (an EXIOBASE use table has 78 million)
 * and for the CLI's run summaries: each value becomes an integer count of 10^-30, summed as a BigInt, a fraction of
 * the cost of a decimal addition; a value with digits below 10^-30 is added exactly as a decimal instead. Nothing is
 * rounded.
 *
 * @example
 * ```ts
 * const sum = new DecimalSum();
 * sum.add('0.1'); sum.add('2e-1');
 * sum.text(); // '0.3'
 * ```
 */
export class DecimalSum {
  private scaled = 0n;
  private rest: Decimal | undefined;

  /** Adds a plain decimal (`12`, `-0.5`, `1.2e-5`); false, adding nothing, when the text is not one. */
  add(text: string): boolean {
    const scaled = DecimalSum.scale(text);
    if (scaled !== undefined) {
      this.scaled += scaled;
      return true;
    }
    if (!DecimalSum.isPlainDecimal(text)) return false;
    this.addRest(decimal(text));
    return true;
  }

  /**
   * Whether {@link DecimalSum.add} takes `text`: a plain decimal, with digits, in any notation.
   *
   * @example
   * ```ts
   * DecimalSum.isPlainDecimal('1.5e-40'); // true
   * DecimalSum.isPlainDecimal('1,5'); // false
   * ```
   */
  static isPlainDecimal(text: string): boolean {
    const match = NUMBER.exec(text);
    return match !== null && `${match[2] ?? ''}${match[3] ?? ''}` !== '';
  }

  /**
   * Adds a value {@link DecimalSum.scale} has read (so that one reading serves several sums), or `text` when it
   * could not.
   */
  addScaled(scaled: bigint | undefined, text: string): void {
    if (scaled !== undefined) this.scaled += scaled;
    else this.add(text);
  }

  /** Adds another sum, exactly (no text in between). */
  addSum(other: DecimalSum): void {
    this.scaled += other.scaled;
    if (other.rest !== undefined) this.addRest(other.rest);
  }

  /**
   * This sum in two parts that survive structured cloning, for {@link DecimalSum.addParts} in another thread: the
   * count of 10^-30 and, when some value had digits below that, the exact rest as plain decimal text. Nothing is
   * written as decimal text in the usual case, and nothing is read back.
   *
   * @example
   * ```ts
   * const sum = new DecimalSum();
   * sum.add('0.5');
   * sum.parts(); // { scaled: 500000000000000000000000000000n, rest: undefined }
   * ```
   */
  parts(): { scaled: bigint; rest: string | undefined } {
    return { scaled: this.scaled, rest: this.rest === undefined ? undefined : toPlainString(this.rest) };
  }

  /** Adds a sum given as its {@link DecimalSum.parts}, exactly. */
  addParts(scaled: bigint, rest: string | undefined): void {
    this.scaled += scaled;
    if (rest !== undefined) this.addRest(decimal(rest));
  }

  /** Adds a value with digits below 10^-30, exactly, to the sum's decimal part. */
  private addRest(value: Decimal): void {
    this.rest = this.rest === undefined ? value : add(this.rest, value);
  }

  /** `text` as a count of 10^-30, or undefined when it has digits below that or is no plain decimal. */
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

  /** The exact sum so far. */
  total(): Decimal {
    return decimal(this.text());
  }

  /** The exact sum so far, as `toPlainString` writes a decimal (`-12.5`, `0`, no trailing zeros). */
  text(): string {
    if (this.rest !== undefined) return toPlainString(add(decimal(this.scaledText()), this.rest));
    return this.scaledText();
  }

  private scaledText(): string {
    if (this.scaled === 0n) return '0';
    const negative = this.scaled < 0n;
    const digits = (negative ? -this.scaled : this.scaled).toString().padStart(SCALE + 1, '0');
    const whole = digits.slice(0, -SCALE);
    let end = digits.length;
    while (end > whole.length && digits.charCodeAt(end - 1) === 48 /* 0 */) end--;
    const fraction = digits.slice(whole.length, end);
    return `${negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`;
  }
}
