import { type Decimal, add, decimal, div, mul, sum, ZERO, isPositive } from '../core/decimal';
import { EmissionsError, listForMessage } from '../core/errors';
import type { SpendDatasets, SpendFactor } from '../datasets/types';
import { notice, type Notice } from './notices';
import type { ParsedSpendRequest } from './spend.schema';

/** One model product behind a spend factor, with its share of the mean. */
export interface ProductShare {
  product: string;
  name: string;
  /** kg CO2e per unit of money of this product in the region. */
  factor: number;
  /** Weight in the mean (e.g. EXIOBASE output, million EUR), or null for an unweighted mean or a single product. */
  weight: number | null;
}

export interface SelectedFactor {
  /** The classification code as resolved (`47.11` for NACE `4711`), or the activity id. */
  code: string;
  products: readonly string[];
  rows: readonly SpendFactor[];
  factor: Decimal;
  shares: ProductShare[];
  notices: Notice[];
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
    return { code: activity.activity_id, products: [product] as readonly string[] };
  }
  const type = activity.classification_type.toLowerCase();
  if (!datasets.classifications.types.includes(type)) {
    const valid = datasets.classifications.types;
    throw new EmissionsError(
      'invalid_request',
      `Classification type '${activity.classification_type}' is not supported. Valid types: ${valid.join(', ')}.`,
      { path: 'activity.classification_type', valid_values: [...valid] },
    );
  }
  const code = normaliseCode(type, activity.classification_code);
  const products = datasets.classifications.products(type, code);
  if (products === undefined) {
    throw new EmissionsError(
      'unknown_classification_code',
      `'${activity.classification_code}' is not a known ${type} code with a mapping to ${datasets.classifications.productClassification} products.`,
      { path: 'activity.classification_code' },
    );
  }
  return { code, products };
}

/**
 * Selects the spend factor of an activity in a region: the product's factor, or the weighted mean over the
 * products a code maps to (weights from the classifications dataset, e.g. EXIOBASE output of the region).
 *
 * @throws {EmissionsError} `unknown_classification_code`, `no_emission_factors_found`, `invalid_request`.
 */
export function selectFactor(request: ParsedSpendRequest, datasets: SpendDatasets): SelectedFactor {
  const region = request.spend_region;
  const { code, products } = resolveProducts(request.activity, datasets);
  const factors = datasets.spendFactors;
  if (!factors.regions.includes(region)) {
    throw new EmissionsError(
      'no_emission_factors_found',
      `No emission factors for region '${region}' in ${factors.info.source_dataset}. Regions with factors: ${listForMessage(factors.regions, 60)}.`,
      { path: 'spend_region', valid_values: [...factors.regions] },
    );
  }
  const rows = products.flatMap((product) => factors.get(product, region) ?? []);
  if (rows.length === 0) {
    throw new EmissionsError(
      'no_emission_factors_found',
      `No emission factor in region '${region}' for ${code} (products ${listForMessage(products)}).`,
      { path: 'activity' },
    );
  }
  const notices: Notice[] = [];
  const missing = products.filter((product) => !rows.some((row) => row.product === product));
  if (missing.length > 0) {
    notices.push(
      notice(
        'products_without_factor',
        'info',
        `${code} maps to ${products.length} products; ${missing.length} have no factor in ${region} and are left out of the mean: ${listForMessage(missing)}.`,
      ),
    );
  }
  const name = (row: SpendFactor) => datasets.classifications.productName(row.product) ?? row.name;
  if (rows.length === 1) {
    const row = rows[0] as SpendFactor;
    return {
      code,
      products,
      rows,
      factor: decimal(row.kgco2e),
      shares: [{ product: row.product, name: name(row), factor: row.kgco2e, weight: null }],
      notices,
    };
  }

  const weights = rows.map((row) => datasets.classifications.weight(region, row.product));
  const weighted =
    weights.every((weight) => weight !== undefined) &&
    isPositive(sum(weights.map((w) => decimal(w as number))));
  let factor: Decimal;
  if (weighted) {
    let numerator = ZERO;
    rows.forEach((row, index) => {
      numerator = add(numerator, mul(decimal(row.kgco2e), decimal(weights[index] as number)));
    });
    factor = div(numerator, sum(weights.map((w) => decimal(w as number))));
  } else {
    factor = div(sum(rows.map((row) => decimal(row.kgco2e))), decimal(rows.length));
    notices.push(
      notice(
        'unweighted_mean',
        'warning',
        `${code} maps to ${rows.length} products with factors; the dataset has no usable weights for ${region} (${datasets.classifications.weightsDescription}), so the factor is their plain mean.`,
      ),
    );
  }
  const shares = rows.map((row, index) => ({
    product: row.product,
    name: name(row),
    factor: row.kgco2e,
    weight: weighted ? (weights[index] as number) : null,
  }));
  return { code, products, rows, factor, shares, notices };
}
