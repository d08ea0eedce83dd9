import { closestSpellings } from '../core/spelling';
import {
  type Decimal,
  add,
  decimal,
  div,
  isPositive,
  mul,
  sum,
  toFixed,
  toNumber,
  ZERO,
} from '../core/decimal';
import { EmissionsError, listForMessage } from '../core/errors';
import type { SpendDatasets, SpendFactor } from '../datasets/types';
import { notice, type Notice } from './notices';
import { clip, resolveSpendRegion } from './regions';
import type { ParsedSpendRequest } from './spend.schema';
import { codeSuggestion } from './suggestions';

/** " Did you mean: x?" for a classification type close to a valid one (a swap, a missing digit), else "". */
const typeSuggestion = (valid: readonly string[], typed: string): string => {
  const close = closestSpellings(valid, typed);
  return close.length === 0 ? '' : ` Did you mean: ${close.join(', ')}?`;
};

/** One model product behind a spend factor, with its share of the mean. */
export interface ProductShare {
  product: string;
  name: string;
  /** kg CO2e per unit of money of this product in the region. */
  factor: number;
  /**
   * Weight in the mean: the product's share of the code × its regional weight (e.g. EXIOBASE output, million EUR),
   * or null for an unweighted mean or a single product.
   */
  weight: number | null;
}

export interface SelectedFactor {
  /** The classification code as resolved (`47.11` for NACE `4711`), or the activity id. */
  code: string;
  products: readonly string[];
  rows: readonly SpendFactor[];
  factor: Decimal;
  shares: ProductShare[];
  /** The exact weights behind `shares` (same order), or null for a single product or a plain mean. */
  weights: readonly Decimal[] | null;
  notices: Notice[];
  /** The factor region: `spend_region` itself, or the EXIOBASE region it belongs to (`VN` → `WA`). */
  region: string;
}

/** Canonical spelling of a classification code: section letters upper-case, NACE dotted (`4711` → `47.11`). */
export function normaliseCode(type: string, code: string): string {
  const compact = code.trim().toUpperCase();
  if (type === 'nace2') {
    const digits = compact.replaceAll('.', '');
    return /^\d{3,4}$/.test(digits) ? `${digits.slice(0, 2)}.${digits.slice(2)}` : compact;
  }
  return compact.replaceAll('.', '');
}

/** The products an activity maps to, or `unknown_classification_code` / `invalid_request` (type). */
function resolveProducts(activity: ParsedSpendRequest['activity'], datasets: SpendDatasets) {
  if ('activity_id' in activity) {
    const product = datasets.spendFactors.productForActivity(activity.activity_id);
    if (product === undefined) {
      throw new EmissionsError(
        'no_emission_factors_found',
        `No emission factor has activity_id '${activity.activity_id}'.`,
        {
          path: 'activity.activity_id',
        },
      );
    }
    return { type: undefined, code: activity.activity_id, products: [product] as readonly string[] };
  }
  const type = activity.classification_type.toLowerCase();
  if (!datasets.classifications.types.includes(type)) {
    const valid = datasets.classifications.types;
    throw new EmissionsError(
      'invalid_request',
      `Classification type '${activity.classification_type}' is not supported.${typeSuggestion(valid, activity.classification_type)} Valid types: ${valid.join(', ')}.`,
      { path: 'activity.classification_type', valid_values: [...valid] },
    );
  }
  const code = normaliseCode(type, activity.classification_code);
  const products = datasets.classifications.products(type, code);
  if (products === undefined) {
    const { hint, suggestions } = codeSuggestion(type, code, datasets.classifications, normaliseCode);
    throw new EmissionsError(
      'unknown_classification_code',
      `'${activity.classification_code}' is not a known ${type} code with a mapping to ${datasets.classifications.productClassification} products.${hint}`,
      { path: 'activity.classification_code', ...(suggestions.length > 0 && { valid_values: suggestions }) },
    );
  }
  return { type, code, products };
}

/**
 * Selects the spend factor of an activity in a region. A code that one product represents gets that product's own
 * factor. A code over several products gets their mean weighted by each product's share of the code × its regional
 * output: a product's output is split equally among the classes that map to it, and a code holds its own classes'
 * parts (see docs/spend.md, "Which product a code means"). Products without output in the region weigh nothing; if
 * only one product is left, the code gets that product's factor. Products without a factor in the region are left
 * out with a warning that says how much of the code's weight the factor covers.
 *
 * @throws {@link EmissionsError} `unknown_classification_code`, `no_emission_factors_found`, `invalid_request`.
 */
export function selectFactor(request: ParsedSpendRequest, datasets: SpendDatasets): SelectedFactor {
  const { type, code, products } = resolveProducts(request.activity, datasets);
  const factors = datasets.spendFactors;
  // The country's own factors, else its EXIOBASE region's (VN → WA), else an error naming what would answer.
  const { region, notices: regionNotices } = resolveSpendRegion(request.spend_region, factors);
  // A loop rather than flatMap, which V8 makes an array per product for (bench/cli.md, "the first rows of each key").
  const rows: SpendFactor[] = [];
  for (const product of products) {
    const row = factors.get(product, region);
    if (row !== undefined) rows.push(row);
  }
  if (rows.length === 0) throw noFactorInRegion(code, products, region, datasets);

  const weightOf = productWeights(type, code, region, datasets);
  const notices: Notice[] = [...regionNotices];
  const note = type === undefined ? undefined : datasets.classifications.note?.(type, code);
  if (note !== undefined) notices.push(notice('classification_note', 'info', note));
  const missing = products.filter((product) => !rows.some((row) => row.product === product));
  if (missing.length > 0) {
    const coverage = coveredShare(products, missing, weightOf);
    notices.push(
      notice(
        'products_without_factor',
        'warning',
        `${code} maps to ${products.length} products; ${missing.length} ${missing.length === 1 ? 'has' : 'have'} no factor in ${region} and ${missing.length === 1 ? 'is' : 'are'} left out of the mean: ${listForMessage(missing.map((product) => productLabel(product, datasets)))}.` +
          (coverage === undefined
            ? ''
            : ` The products used carry ${coverage}% of the code's weight in ${region}, so the factor stands for that part only.`),
      ),
    );
  }
  const name = (row: SpendFactor) => datasets.classifications.productName(row.product) ?? row.name;
  const single = (row: SpendFactor): SelectedFactor => ({
    code,
    products,
    rows: [row],
    factor: decimal(row.kgco2e),
    shares: [{ product: row.product, name: name(row), factor: row.kgco2e, weight: null }],
    weights: null,
    notices,
    region,
  });
  if (rows.length === 1) return single(rows[0] as SpendFactor);

  const weights = rows.map((row) => weightOf(row.product));
  const total = weights.every((weight) => weight !== undefined) ? sum(weights) : ZERO;
  if (isPositive(total)) {
    const used = rows.filter((_, index) => isPositive(weights[index] as Decimal));
    if (used.length === 1) return single(used[0] as SpendFactor);
    let numerator = ZERO;
    rows.forEach((row, index) => {
      numerator = add(numerator, mul(decimal(row.kgco2e), weights[index] as Decimal));
    });
    const shares = rows.map((row, index) => ({
      product: row.product,
      name: name(row),
      factor: row.kgco2e,
      weight: toNumber(weights[index] as Decimal),
    }));
    return {
      code,
      products,
      rows,
      factor: div(numerator, total),
      shares,
      weights: weights as Decimal[],
      notices,
      region,
    };
  }
  notices.push(
    notice(
      'unweighted_mean',
      'warning',
      `${code} maps to ${rows.length} products with factors; the dataset has no usable weights for ${region} (${datasets.classifications.weightsDescription}), so the factor is their plain mean.`,
    ),
  );
  const shares = rows.map((row) => ({
    product: row.product,
    name: name(row),
    factor: row.kgco2e,
    weight: null,
  }));
  const factor = div(sum(rows.map((row) => decimal(row.kgco2e))), decimal(rows.length));
  return { code, products, rows, factor, shares, weights: null, notices, region };
}

/**
 * A product's weight in the mean for a code: its share of the code (classes of the code mapping to it over all
 * classes mapping to it; whole when the dataset gives no share) × its weight in the region, or undefined.
 */
function productWeights(type: string | undefined, code: string, region: string, datasets: SpendDatasets) {
  const { classifications } = datasets;
  return (product: string): Decimal | undefined => {
    const weight = classifications.weight(region, product);
    if (weight === undefined) return undefined;
    const share = type === undefined ? undefined : classifications.share?.(type, code, product);
    return share === undefined
      ? decimal(weight)
      : div(mul(decimal(weight), decimal(share[0])), decimal(share[1]));
  };
}

/** Percentage (one decimal) of a code's weight carried by the products that have factors, or undefined. */
function coveredShare(
  products: readonly string[],
  missing: readonly string[],
  weightOf: (product: string) => Decimal | undefined,
): string | undefined {
  const weights = products.map(weightOf);
  if (weights.some((weight) => weight === undefined)) return undefined;
  const total = sum(weights as Decimal[]);
  if (!isPositive(total)) return undefined;
  const covered = sum(
    weights.filter((_, index) => !missing.includes(products[index] as string)) as Decimal[],
  );
  return toFixed(div(mul(covered, decimal(100)), total), 1);
}

const productLabel = (product: string, datasets: SpendDatasets) => {
  const name = datasets.classifications.productName(product);
  return name === undefined ? product : `${product} ${name}`;
};

/**
 * No product of the code has a factor in the region: a short message with the next step, the products the region does
 * have in `valid_values`.
 */
function noFactorInRegion(
  code: string,
  products: readonly string[],
  region: string,
  datasets: SpendDatasets,
): EmissionsError {
  const factors = datasets.spendFactors;
  const available = factors.productsIn?.(region) ?? [];
  const wanted =
    products.length === 1
      ? `product ${products[0]}`
      : `${products.length} products: ${listForMessage(products, 3)}`;
  const nextStep =
    factors.restOfWorldRegion === undefined
      ? ' Try `--datasets ceda` (every sector in 148 countries).'
      : ` ${factors.info.source}'s export rounds it to 0.000 there (below 0.0005 kg per USD), so it is withheld.`;
  const message = `No factor in ${region} for ${code} (${wanted}) in ${factors.info.id}.${nextStep}`;
  return new EmissionsError('no_emission_factors_found', clip(message), {
    path: 'activity',
    ...(available.length > 0 && { valid_values: [...available] }),
  });
}
