import { type Decimal, add, decimal, toPlainString } from './decimal';

/** Digits below 10^-SCALE go the slow exact way; above it, scaled integers sum them exactly and fast. */
const SCALE = 30;
const POWERS: bigint[] = Array.from({ length: 2 * SCALE + 1 }, (_, index) => 10n ** BigInt(index));
const NUMBER = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** Decimal digits per limb: a limb holds less than 10^15, so two limbs and a carry stay exact doubles (below 2^53). */
const LIMB_DIGITS = 15;
const LIMB = 1e15;
/** 10^0 … 10^14, exact as doubles. */
const LIMB_POWERS: readonly number[] = Array.from({ length: LIMB_DIGITS }, (_, index) => 10 ** index);
/** Weights (of 10^-30) a reading's limbs hold: 10^0 … 10^59, so values below 10^30. */
const READ_WEIGHTS = 4 * LIMB_DIGITS;
const LIMB_1 = 10n ** 15n;
const LIMB_2 = 10n ** 30n;
const LIMB_3 = 10n ** 45n;

const isDigit = (code: number): boolean => code >= 48 && code <= 57;

/** What a limb just added to carries into the next: one either way at most (see DecimalSum's limbs). */
const carryOf = (limb: number): number => (limb >= LIMB ? 1 : limb < 0 ? -1 : 0);

/**
 * A decimal text read once as a count of 10^-30 in four limbs of 15 digits, for the sums it goes into
 * ({@link DecimalSum.addReading}): no regular expression, string or BigInt per value, which is most of the cost of
 * summing a million rows' kilograms. Reuse one reading for value after value.
 *
 * @example
 * ```ts
 * const reading = new DecimalReading();
 * reading.read('-12.5'); // true
 * const sum = new DecimalSum();
 * sum.addReading(reading);
 * sum.text(); // '-12.5'
 * ```
 */
export class DecimalReading {
  /** The text last read. */
  text = '';
  /** Whether it is in the limbs; when not, a sum takes {@link DecimalReading.text} the exact slower way. */
  inLimbs = false;
  l0 = 0;
  l1 = 0;
  l2 = 0;
  l3 = 0;

  /**
   * Reads a plain decimal (`12`, `-0.5`, `1.2e-5`) with no digit below 10^-30 and under 10^30 into the limbs;
   * false for anything else (other text, or a value the limbs cannot hold), which the sums then add another way.
   */
  read(text: string): boolean {
    this.text = text;
    this.inLimbs = false;
    const length = text.length;
    let index = 0;
    let code = text.charCodeAt(0);
    const negative = code === 45; // -
    if (negative || code === 43 /* + */) index = 1;
    const wholeStart = index;
    while (index < length && isDigit(text.charCodeAt(index))) index++;
    const wholeEnd = index;
    let fractionStart = index;
    if (index < length && text.charCodeAt(index) === 46 /* . */) {
      fractionStart = ++index;
      while (index < length && isDigit(text.charCodeAt(index))) index++;
    }
    const fractionEnd = index;
    const digits = wholeEnd - wholeStart + (fractionEnd - fractionStart);
    if (digits === 0) return false;
    let exponent = 0;
    if (index < length) {
      code = text.charCodeAt(index);
      if (code !== 101 && code !== 69) return false; // e, E
      code = text.charCodeAt(++index);
      const negativeExponent = code === 45;
      if (negativeExponent || code === 43) index++;
      const exponentStart = index;
      // Past 9999 no reading fits; the digits are still checked, so that the text is refused only when invalid.
      for (; index < length && isDigit(text.charCodeAt(index)); index++)
        if (exponent < 1e4) exponent = exponent * 10 + text.charCodeAt(index) - 48;
      if (index === exponentStart || index !== length) return false;
      if (negativeExponent) exponent = -exponent;
    }
    // The weight (power of 10^-30's multiples) of the last digit, and of the first.
    const last = exponent - (fractionEnd - fractionStart) + SCALE;
    let weight = last + digits - 1;
    if (last < 0 || weight >= READ_WEIGHTS) return false;
    let l0 = 0;
    let l1 = 0;
    let l2 = 0;
    let l3 = 0;
    // Horner within each limb: a limb is stored when its lowest weight is reached, or with the last digit.
    let value = 0;
    let left = digits;
    for (index = wholeStart; left > 0; index++) {
      if (index === wholeEnd) index = fractionStart;
      value = value * 10 + (text.charCodeAt(index) - 48);
      left--;
      if (left === 0 || weight % LIMB_DIGITS === 0) {
        const limb = (weight / LIMB_DIGITS) | 0;
        const scaled = value * (LIMB_POWERS[weight - limb * LIMB_DIGITS] as number);
        if (limb === 0) l0 = scaled;
        else if (limb === 1) l1 = scaled;
        else if (limb === 2) l2 = scaled;
        else l3 = scaled;
        value = 0;
      }
      weight--;
    }
    this.l0 = negative ? -l0 : l0;
    this.l1 = negative ? -l1 : l1;
    this.l2 = negative ? -l2 : l2;
    this.l3 = negative ? -l3 : l3;
    this.inLimbs = true;
    return true;
  }
}

/** The reading {@link DecimalSum.add} uses. */
const shared = new DecimalReading();

/**
 * An exact running sum of decimal strings, for tables of millions of cells (an EXIOBASE use table has 78 million)
 * and for the CLI's run summaries: each value becomes an integer count of 10^-30, kept in four limbs of 15 digits
 * (exact doubles) with a BigInt for what outgrows them, a fraction of the cost of a decimal addition; a value with
 * digits below 10^-30 is added exactly as a decimal instead. Nothing is rounded.
 *
 * @example
 * ```ts
 * const sum = new DecimalSum();
 * sum.add('0.1'); sum.add('2e-1');
 * sum.text(); // '0.3'
 * ```
 */
export class DecimalSum {
  // The count of 10^-30 is big + l3·10^45 + l2·10^30 + l1·10^15 + l0, with l0, l1 and l2 in [0, 10^15) and l3 in
  // (-10^15, 10^15) between additions: each addition then carries at most one per limb, exactly.
  private big = 0n;
  private l0 = 0;
  private l1 = 0;
  private l2 = 0;
  private l3 = 0;
  private rest: Decimal | undefined;

  /** Adds a plain decimal (`12`, `-0.5`, `1.2e-5`); false, adding nothing, when the text is not one. */
  add(text: string): boolean {
    if (shared.read(text)) {
      this.addLimbs(shared.l0, shared.l1, shared.l2, shared.l3);
      return true;
    }
    const scaled = DecimalSum.scale(text);
    if (scaled !== undefined) {
      this.big += scaled;
      return true;
    }
    if (!DecimalSum.isPlainDecimal(text)) return false;
    this.addRest(decimal(text));
    return true;
  }

  /**
   * Adds what a {@link DecimalReading} read (its text, where it could not), so that one reading serves several sums.
   * Adds nothing for a text that is not a plain decimal.
   */
  addReading(reading: DecimalReading): void {
    if (reading.inLimbs) this.addLimbs(reading.l0, reading.l1, reading.l2, reading.l3);
    else this.add(reading.text);
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

  /** Adds another sum, exactly (no text in between). */
  addSum(other: DecimalSum): void {
    this.big += other.big;
    this.addLimbs(other.l0, other.l1, other.l2, other.l3);
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
    return { scaled: this.scaled(), rest: this.restText() };
  }

  /** Adds a sum given as its {@link DecimalSum.parts}, exactly. */
  addParts(scaled: bigint, rest: string | undefined): void {
    this.big += scaled;
    if (rest !== undefined) this.addRest(decimal(rest));
  }

  /**
   * This sum for another thread, as cheaply as it is kept: appends its four limbs to `limbs` and gives the BigInt
   * part (0n unless the sum outgrew the limbs); {@link DecimalSum.addLimbParts} takes both back. Any rest below
   * 10^-30 is not included: see {@link DecimalSum.parts}.
   *
   * @example
   * ```ts
   * const sum = new DecimalSum();
   * sum.add('0.5');
   * const limbs: number[] = [];
   * sum.pushLimbs(limbs); // 0n; limbs is [0, 0, 500000000000000, 0]
   * ```
   */
  pushLimbs(limbs: number[]): bigint {
    limbs.push(this.l0, this.l1, this.l2, this.l3);
    return this.big;
  }

  /** Adds a sum given by {@link DecimalSum.pushLimbs}: its four limbs from `limbs[at]` and its BigInt part. */
  addLimbParts(limbs: readonly number[], at: number, big: bigint): void {
    if (big !== 0n) this.big += big;
    this.addLimbs(
      limbs[at] as number,
      limbs[at + 1] as number,
      limbs[at + 2] as number,
      limbs[at + 3] as number,
    );
  }

  /** The rest below 10^-30 as plain decimal text, if any value had digits there (see {@link DecimalSum.parts}). */
  restText(): string | undefined {
    return this.rest === undefined ? undefined : toPlainString(this.rest);
  }

  /** Adds limbs of 10^-30 (each under 10^15 in size, of either sign), carrying so that the limbs stay in range. */
  private addLimbs(a0: number, a1: number, a2: number, a3: number): void {
    let l0 = this.l0 + a0;
    let l1 = this.l1 + a1;
    let l2 = this.l2 + a2;
    let l3 = this.l3 + a3;
    let carry = carryOf(l0);
    l0 -= carry * LIMB;
    l1 += carry;
    carry = carryOf(l1);
    l1 -= carry * LIMB;
    l2 += carry;
    carry = carryOf(l2);
    l2 -= carry * LIMB;
    l3 += carry;
    if (l3 >= LIMB || l3 <= -LIMB) {
      this.big += BigInt(l3) * LIMB_3;
      l3 = 0;
    }
    this.l0 = l0;
    this.l1 = l1;
    this.l2 = l2;
    this.l3 = l3;
  }

  /** The count of 10^-30, whole. */
  private scaled(): bigint {
    return (
      this.big +
      BigInt(this.l3) * LIMB_3 +
      BigInt(this.l2) * LIMB_2 +
      BigInt(this.l1) * LIMB_1 +
      BigInt(this.l0)
    );
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
    const scaled = this.scaled();
    if (scaled === 0n) return '0';
    const negative = scaled < 0n;
    const digits = (negative ? -scaled : scaled).toString().padStart(SCALE + 1, '0');
    const whole = digits.slice(0, -SCALE);
    let end = digits.length;
    while (end > whole.length && digits.charCodeAt(end - 1) === 48 /* 0 */) end--;
    const fraction = digits.slice(whole.length, end);
    return `${negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`;
  }
}
