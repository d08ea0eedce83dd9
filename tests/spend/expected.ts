import BigJs from 'big.js';
import classificationsJson from '../../datasets/spend/exiobase-classifications.json';
import factorsJson from '../../datasets/spend/exiobase-factors.oefdb.json';
import regionsFactorsJson from '../../datasets/spend/exiobase-factors.oefdb-regions.json';
import fxJson from '../../datasets/spend/fx-imf.json';
import inflationJson from '../../datasets/spend/inflation-worldbank.json';
import useeioFactorsJson from '../../datasets/spend/useeio-factors.json';

/**
 * Test-side arithmetic for spend, independent of src/: a private big.js (40 decimal places for divisions, half up,
 * the precision DESIGN.md promises) and lookups read straight from the dataset JSON files, so expected values
 * come from the formula and the published numbers, never from the engine.
 */
export const Big = BigJs();
Big.DP = 40;
Big.RM = 1;
export type BigValue = BigJs.Big;

/** The nearest JS number to an exact decimal (what the engine returns). */
export const toNumber = (value: BigValue): number => Number(value.toString());

const fxRates = fxJson.rates as Record<string, Record<string, number>>;
const cpi = inflationJson.country as Record<string, Record<string, number>>;
/** Both embedded EXIOBASE files: the released OEFDB table and the rows its 20-region working file adds. */
const exiobaseFactors = [...factorsJson.factors, ...regionsFactorsJson.factors] as Array<{
  product: string;
  region: string;
  kgco2e: number;
  name: string;
  activity_id: string;
}>;
const useeioFactors = useeioFactorsJson.factors as Array<{ product: string; region: string; kgco2e: number }>;
const weights = classificationsJson.weights as Record<string, Record<string, number>>;
const mappings = classificationsJson.mappings as Record<string, Record<string, string[]>>;

/** Units of `currency` per USD in `year` (fx-imf.json), or a test failure when the file has none. */
export function fx(currency: string, year: number): number {
  const rate = fxRates[currency]?.[String(year)];
  if (rate === undefined) throw new Error(`fx-imf.json has no ${currency} rate for ${year}`);
  return rate;
}

/** World Bank CPI inflation in percent (inflation-worldbank.json), or undefined for a year without data. */
export const cpiRate = (region: string, year: number): number | undefined => cpi[region]?.[String(year)];

/** The EXIOBASE factor row of (product, region) in exiobase-factors.oefdb.json. */
export function exiobaseFactor(product: string, region: string) {
  const row = exiobaseFactors.find((factor) => factor.product === product && factor.region === region);
  if (row === undefined) throw new Error(`no EXIOBASE factor for ${product} in ${region}`);
  return row;
}

export const hasExiobaseFactor = (product: string, region: string): boolean =>
  exiobaseFactors.some((factor) => factor.product === product && factor.region === region);

export function useeioFactor(product: string): number {
  const row = useeioFactors.find((factor) => factor.product === product);
  if (row === undefined) throw new Error(`no USEEIO factor for ${product}`);
  return row.kgco2e;
}

/** EXIOBASE 2019 output (million EUR) of a product in a region, from exiobase-classifications.json. */
export function outputWeight(region: string, product: string): number {
  const weight = weights[region]?.[product];
  if (weight === undefined) throw new Error(`no output weight for ${product} in ${region}`);
  return weight;
}

/** Every code of a classification type in exiobase-classifications.json. */
export const mappedCodes = (type: string): string[] => Object.keys(mappings[type] ?? {});

/** Products a code maps to in exiobase-classifications.json. */
export function mappedProducts(type: string, code: string): string[] {
  const products = mappings[type]?.[code];
  if (products === undefined) throw new Error(`no ${type} mapping for ${code}`);
  return products;
}

/** Whether a code of the classification is a class (ISIC `4711`, NACE `47.11`, NAICS `445110`). */
const isClass: Record<string, (code: string) => boolean> = {
  isic4: (code) => /^\d{4}$/.test(code),
  nace2: (code) => /^\d\d\.\d\d$/.test(code),
  naics2017: (code) => /^\d{6}$/.test(code),
};

/**
 * The product rule of docs/spend.md computed from the class-level mappings alone: each product's output is split
 * equally among the classes that map to it, a code holds its own classes' parts, and the factor is Σ f·w / Σ w with
 * w = output × (the code's classes mapping to the product) / (all classes mapping to it), over the products with a
 * factor in the region. `classesOf` picks the code's classes (by code prefix unless given, e.g. for a section).
 */
export function classWeightedFactor(
  type: string,
  code: string,
  region: string,
  classesOf: (klass: string) => boolean = (klass) => klass.startsWith(code),
): { factor: BigValue; weights: Map<string, BigValue> } {
  const classes = Object.entries(mappings[type] ?? {}).filter(([klass]) => isClass[type]!(klass));
  const all = new Map<string, number>();
  const own = new Map<string, number>();
  for (const [klass, products] of classes) {
    for (const product of products) {
      all.set(product, (all.get(product) ?? 0) + 1);
      if (classesOf(klass)) own.set(product, (own.get(product) ?? 0) + 1);
    }
  }
  let numerator = new Big(0);
  let denominator = new Big(0);
  const used = new Map<string, BigValue>();
  for (const [product, count] of own) {
    if (!hasExiobaseFactor(product, region)) continue;
    const weight = new Big(outputWeight(region, product)).times(count).div(all.get(product)!);
    used.set(product, weight);
    numerator = numerator.plus(weight.times(exiobaseFactor(product, region).kgco2e));
    denominator = denominator.plus(weight);
  }
  return { factor: numerator.div(denominator), weights: used };
}

/** Σ w·f / Σ w over the products of a code that have a factor in the region. */
export function outputWeightedFactor(type: string, code: string, region: string): BigValue {
  let numerator = new Big(0);
  let denominator = new Big(0);
  for (const product of mappedProducts(type, code)) {
    if (!hasExiobaseFactor(product, region)) continue;
    const weight = new Big(outputWeight(region, product));
    numerator = numerator.plus(weight.times(exiobaseFactor(product, region).kgco2e));
    denominator = denominator.plus(weight);
  }
  return numerator.div(denominator);
}

export interface SpendCase {
  money: number;
  /** Spend currency, lowercase. */
  currency: string;
  spendYear: number;
  region: string;
  factor: BigValue | number;
  margins: { tax: number; trade: number; transport: number };
  /** Year of the FX rates to use (defaults to the spend year). */
  fxYear?: number;
  factorCurrency?: string;
  factorYear?: number;
}

export interface Expected {
  /** Units of factor currency per unit of spend currency. */
  rate: BigValue;
  moneyInFactorCurrency: BigValue;
  /** Π(1 + r_y/100) over the years between the factor year and the spend year that have a rate. */
  compounded: BigValue;
  inflationApplied: BigValue;
  activityValue: BigValue;
  co2e: BigValue;
}

/**
 * DESIGN.md §4 written out: activity_value = money × rate(factor currency)/rate(spend currency) × (1 − tax − trade −
 * transport), then ÷ Π(1 + r_y/100) for y = factor year+1..spend year, or × Π(1 + r_y/100) for y = spend year+1..factor
 * year when the spend is earlier; years without a CPI rate are skipped. co2e = activity_value × factor.
 */
export function expectedSpend(spend: SpendCase): Expected {
  const factorCurrency = spend.factorCurrency ?? 'eur';
  const factorYear = spend.factorYear ?? 2019;
  const fxYear = spend.fxYear ?? spend.spendYear;
  const rate =
    spend.currency === factorCurrency
      ? new Big(1)
      : new Big(fx(factorCurrency, fxYear)).div(fx(spend.currency, fxYear));
  const moneyInFactorCurrency =
    spend.currency === factorCurrency
      ? new Big(spend.money)
      : new Big(spend.money).times(fx(factorCurrency, fxYear)).div(fx(spend.currency, fxYear));
  const basic = moneyInFactorCurrency.times(
    new Big(1).minus(spend.margins.tax).minus(spend.margins.trade).minus(spend.margins.transport),
  );
  const later = spend.spendYear >= factorYear;
  const [first, last] = later ? [factorYear + 1, spend.spendYear] : [spend.spendYear + 1, factorYear];
  let compounded = new Big(1);
  for (let year = first; year <= last; year++) {
    const rate = cpiRate(spend.region, year);
    if (rate !== undefined) compounded = compounded.times(new Big(1).plus(new Big(rate).div(100)));
  }
  const activityValue = later ? basic.div(compounded) : basic.times(compounded);
  const inflationApplied = later ? compounded.minus(1) : new Big(1).div(compounded).minus(1);
  return {
    rate,
    moneyInFactorCurrency,
    compounded,
    inflationApplied,
    activityValue,
    // As published: the activity value's number times the factor, rounded once (issue 39).
    co2e: new Big(Number(activityValue.toString())).times(spend.factor),
  };
}

/** ISIC codes at every level; each has factors in all five regions (single products and output-weighted means). */
export const CODES = [
  '4711',
  '10',
  'C',
  '47',
  'G',
  '01',
  '35',
  '49',
  '62',
  '2410',
  '8610',
  'A',
  'F',
  '4100',
] as const;
