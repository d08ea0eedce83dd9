import { runBatch } from '../core/batch';
import {
  type Decimal,
  decimal,
  isPositive,
  mul,
  ONE,
  roundSignificant,
  sub,
  toNumber,
} from '../core/decimal';
import { EmissionsError, type ErrorBody } from '../core/errors';
import {
  buildEstimate,
  type CalculationOptions,
  type Estimate,
  type FactorMetadata,
  outputNumber,
  sharedNumber,
} from '../core/estimate';
import { factorId } from '../core/factor-id';
import { createMemo, type MemoPart } from '../core/memo';
import { parseRequest } from '../core/validate';
import { requireParts } from '../datasets/require';
import type { DatasetInfo } from '../datasets/tables';
import type { SpendDatasets } from '../datasets/types';
import { type ProductShare, type SelectedFactor, selectFactor } from './classification';
import { exchangeRate, type ExchangeRate } from './currency';
import { priceChange, type PriceChange } from './inflation';
import { type AppliedMargins, applyMargins, type MarginName } from './margins';
import type { Notice } from './notices';
import { type ParsedSpendRequest, SpendRequest } from './spend.schema';

export type { Notice } from './notices';
export type { ProductShare } from './classification';

/** How a spend estimate was made. SPEC.md's four fields first; the rest make every step checkable. */
export interface SpendCalculationDetails {
  tax_margin: number;
  trade_margin: number;
  transport_margin: number;
  /** Price level of the spend year over the factor year, minus 1 (negative for spend before the factor year). */
  inflation_applied: number;
  /** Where each margin came from: `supplied`, `default` (dataset) or `none` (0, see notices). */
  margin_sources: Record<MarginName, 'supplied' | 'default' | 'none'>;
  /**
   * Present only when a margin is `default`: the margins datasets (`id@version`, sorted) the defaults came from,
   * so that with layered datasets (`mergeDatasets`, `--datasets`) you can tell your margins from the embedded ones.
   */
  margin_datasets?: string[];
  /** Years whose annual rates were compounded. */
  inflation_years: number[];
  /** Units of the factor currency per unit of `money_unit` (1 when they are the same). */
  exchange_rate: number;
  /** Year of the annual average exchange rates used, or null when no conversion was needed. */
  exchange_rate_year: number | null;
  /** `money` converted to the factor currency, before margins and inflation. */
  money_in_factor_currency: number;
  factor_currency: string;
  factor_year: number;
  price_basis: 'basic' | 'purchaser';
  /** The model products behind the factor, with their factors and weights. */
  products: ProductShare[];
}

/** Result of {@link calculateSpend}: SPEC.md's procurement spend response. */
export interface SpendEstimate {
  estimate: Estimate;
  calculation_details: SpendCalculationDetails;
  notices: Notice[];
}

/**
 * Emissions of procurement spend (GHG Protocol Scope 3 category 1), spend-based:
 * `activity_value = money_in_factor_currency × (1 − tax − trade − transport) / (1 + inflation_applied)` in the
 * factor currency, `co2e = activity_value × factor`. Every fallback (exchange-rate year, default margins,
 * missing inflation years) is a notice.
 *
 * @example
 * ```ts
 * import { calculateSpend } from 'co2e-engine';
 * import { defaultDatasets } from 'co2e-engine/datasets';
 * const result = calculateSpend({
 *   activity: { classification_type: 'isic4', classification_code: '4711' },
 *   spend_year: 2023, spend_region: 'DE', money: 1000, money_unit: 'eur',
 * }, defaultDatasets);
 * result.estimate.co2e; // kg CO2e
 * ```
 * @throws {@link EmissionsError} `unknown_classification_code`, `no_emission_factors_found`, `unsupported_currency`,
 *   `invalid_request`.
 */
export function calculateSpend(
  request: SpendRequest,
  datasets: SpendDatasets,
  options?: CalculationOptions,
): SpendEstimate {
  const { estimate, margins, exchange, prices, money, selected, factors } = spendParts(
    request,
    datasets,
    options,
  );
  const number = (value: Decimal) => outputNumber(value, options);
  return {
    estimate,
    calculation_details: {
      tax_margin: number(margins.values.tax_margin),
      trade_margin: number(margins.values.trade_margin),
      transport_margin: number(margins.values.transport_margin),
      inflation_applied: sharedNumber(prices.applied, options),
      margin_sources: { ...margins.origins },
      ...(margins.datasets.length > 0 ? { margin_datasets: [...margins.datasets] } : {}),
      inflation_years: [...prices.years],
      exchange_rate: sharedNumber(exchange.rate, options),
      exchange_rate_year: exchange.rateYear,
      money_in_factor_currency: number(mul(money, exchange.rate)),
      factor_currency: factors.currency,
      factor_year: factors.factorYear,
      price_basis: factors.priceBasis,
      products: selected.shares.map((share) => ({ ...share })),
    },
    // Copies: the selection, exchange-rate, margins and price-change parts are cached and shared between calls.
    notices: spendNotices({ selected, exchange, margins, prices }).map((n) => ({ ...n })),
  };
}

/**
 * The notices of a spend estimate, in order: factor selection, exchange rate, margins, price change. The cached
 * parts' own notices, shared between calls: copy them before handing them to a caller that may change them.
 *
 * @internal
 * @example
 * ```ts
 * spendNotices(spendParts(request, defaultDatasets)).map((notice) => notice.code);
 * ```
 */
export function spendNotices({
  selected,
  exchange,
  margins,
  prices,
}: Pick<SpendParts, 'selected' | 'exchange' | 'margins' | 'prices'>): Notice[] {
  return [...selected.notices, ...exchange.notices, ...margins.notices, ...prices.notices];
}

/**
 * The estimate of {@link calculateSpend} and the parts its details are made of, for a caller that shows only some
 * of them (the CLI's result columns): the details it does not show are never computed. The parts are the
 * calculator's cached values, shared between calls: read them, never change them.
 *
 * @internal
 * @example
 * ```ts
 * const { estimate, exchange } = spendParts(request, defaultDatasets);
 * estimate.co2e; // as calculateSpend(request, defaultDatasets).estimate.co2e
 * ```
 * @throws {@link EmissionsError} as {@link calculateSpend}.
 */
export function spendParts(
  request: SpendRequest,
  datasets: SpendDatasets,
  options?: CalculationOptions,
): SpendParts {
  requireParts(datasets, SPEND_PARTS, 'calculateSpend');
  const input = parseRequest(SpendRequest, request);
  const { selected, metadata } = selections.get(
    [datasets.spendFactors, datasets.classifications],
    selectionKey(input),
    () => {
      const selection = selectFactor(input, datasets);
      return { selected: selection, metadata: spendMetadata(input, selection, datasets) };
    },
  );
  const factors = datasets.spendFactors;

  const product = selected.rows.length === 1 ? selected.rows[0]?.product : undefined;
  // Each part from its own cache, keyed by what it depends on (a ledger's rows rarely repeat the whole combination
  // of currency, year, region and product, but draw on few rates and price levels); their product is per request.
  const exchange = exchangeRates.get(
    [datasets.fx],
    [input.money_unit, factors.currency, input.spend_year],
    () => exchangeRate(input.money_unit, factors.currency, input.spend_year, datasets.fx),
  );
  // The product matters only where the dataset has a sector rate for it in the span; else the country's rates
  // make the same price change for every product, so one cache entry serves them all.
  // Factors priced in one country's money everywhere (CEDA: US dollars) take that country's price index.
  const priceRegion = factors.basisRegion ?? input.spend_region;
  const sectorProduct =
    product !== undefined &&
    hasSectorRate(datasets.inflation, priceRegion, product, input.spend_year, factors.factorYear)
      ? product
      : undefined;
  const prices = priceChanges.get(
    [datasets.inflation],
    [factors.factorYear, priceRegion, input.spend_year, sectorProduct, factors.basisRegion !== undefined],
    () =>
      priceChange(
        priceRegion,
        sectorProduct,
        input.spend_year,
        factors.factorYear,
        datasets.inflation,
        factors.basisRegion === undefined ? undefined : factors.info.source,
      ),
  );
  const multiplier = roundSignificant(mul(exchange.rate, prices.deflator), PRECISION);
  const money = decimal(input.money);
  const margins = applyMargins(input, selected, datasets);
  const { basicShare } = margins;
  if (!isPositive(basicShare)) {
    throw new EmissionsError(
      'invalid_request',
      `The margins sum to ${toNumber(sub(ONE, basicShare))}; tax, trade and transport margins together must be below 1.`,
      {
        path:
          (['tax_margin', 'trade_margin', 'transport_margin'] as const).find((m) => input[m] !== undefined) ??
          'tax_margin',
      },
    );
  }
  const activityValue = roundSignificant(mul(mul(money, basicShare), multiplier), PRECISION);

  const estimate = buildEstimate(
    {
      activityValue,
      activityUnit: factors.currency,
      factor: selected.factor,
      metadata,
      method: factors.gwp,
      origin: selected.rows.length === 1 ? 'source' : 'co2e-engine',
      auditTrail: input.audit_trail,
    },
    options,
  );
  return { estimate, margins, exchange, prices, money, selected, factors };
}

/** What {@link spendParts} gives: the estimate and the parts of its details, the calculator's cached values. */
export interface SpendParts {
  estimate: Estimate;
  margins: AppliedMargins;
  exchange: ExchangeRate;
  prices: PriceChange;
  /** The request's money, in its own currency. */
  money: Decimal;
  selected: SelectedFactor;
  factors: SpendDatasets['spendFactors'];
}

/** The dataset parts `calculateSpend` reads. */
export const SPEND_PARTS = ['spendFactors', 'classifications', 'margins', 'inflation', 'fx'] as const;

/** Whether any year of the span between the two years has a sector rate for the product in the region. */
function hasSectorRate(
  inflation: SpendDatasets['inflation'],
  region: string,
  product: string,
  spendYear: number,
  factorYear: number,
): boolean {
  const from = Math.min(spendYear, factorYear);
  const to = Math.max(spendYear, factorYear);
  for (let year = from + 1; year <= to; year++) {
    if (inflation.sectorRate(region, product, year) !== undefined) return true;
  }
  return false;
}

/** Exchange rates per currency pair and year. */
const exchangeRates = createMemo<ExchangeRate>();
/** Price changes per region, product (sector rates), spend year and factor year: one division by the level each. */
const priceChanges = createMemo<PriceChange>();

/**
 * Significant digits kept by the multiplier and the activity value: those of IEEE 754 decimal128, far beyond the
 * 17 a JS number shows, so outputs are unaffected while per-call products stay short.
 */
const PRECISION = 34;

/** Factor selections (with their metadata) per factor and classification datasets; they depend on nothing else. */
const selections = createMemo<{ selected: SelectedFactor; metadata: FactorMetadata }>();

const selectionKey = ({ activity, spend_region }: ParsedSpendRequest): MemoPart[] =>
  'activity_id' in activity
    ? ['id', activity.activity_id, spend_region]
    : ['type', activity.classification_type.toLowerCase(), activity.classification_code, spend_region];

function spendMetadata(
  input: ParsedSpendRequest,
  selected: SelectedFactor,
  datasets: SpendDatasets,
): FactorMetadata {
  // A row's own dataset (set by mergeDatasets) wins, so a user's overriding factor reports its own source and id.
  const infos = distinctDatasets(selected.rows.map((row) => row.dataset ?? datasets.spendFactors.info));
  const identity = infos.flatMap((info) => [info.id, info.version]);
  const region = selected.region;
  const base = {
    access_type: 'public',
    source: [...new Set(infos.map((info) => info.source))].join('; '),
    source_dataset: [...new Set(infos.map((info) => info.source_dataset))].join('; '),
    year: datasets.spendFactors.factorYear,
    region,
    source_lca_activity: 'unknown',
  } as const;
  const single = selected.rows.length === 1 ? selected.rows[0] : undefined;
  if (single !== undefined) {
    return {
      ...base,
      name: single.name,
      id: factorId([...identity, single.activity_id, single.product, region]),
      activity_id: single.activity_id,
      category: 'Procurement',
      data_quality_flags: [...single.data_quality_flags],
    };
  }
  const products = selected.rows.map((row) => row.product);
  const type =
    'classification_type' in input.activity ? input.activity.classification_type.toLowerCase() : 'activity';
  const weighted = selected.shares.every((share) => share.weight !== null);
  const mapping =
    datasets.classifications.mappingDataset?.(type, selected.code) ?? datasets.classifications.info;
  return {
    ...base,
    name: `${type} ${selected.code}: ${weighted ? 'output-weighted' : 'unweighted'} mean of ${products.length} ${datasets.classifications.productClassification} products (${products.join(', ')})`,
    id: factorId([...identity, mapping.id, mapping.version, type, selected.code, region]),
    activity_id: `${type}-${selected.code.toLowerCase().replaceAll('.', '_')}-mean`,
    category: 'Procurement',
    data_quality_flags: [...new Set(selected.rows.flatMap((row) => row.data_quality_flags))].sort(),
  };
}

/** Datasets in first-seen order, one per (id, version). */
function distinctDatasets(infos: readonly DatasetInfo[]): DatasetInfo[] {
  const seen = new Map<string, DatasetInfo>();
  for (const info of infos) {
    const key = `${info.id}\u0000${info.version}`;
    if (!seen.has(key)) seen.set(key, info);
  }
  return [...seen.values()];
}

/**
 * {@link calculateSpend} for each request, in order; a bad request becomes its error body and the rest are computed.
 *
 * @example
 * ```ts
 * calculateSpendBatch([{ activity: { activity_id: '...' }, spend_year: 2022, spend_region: 'GB', money: 10, money_unit: 'gbp' }], defaultDatasets);
 * ```
 * @throws {@link EmissionsError} `invalid_request` when `requests` is not an array.
 */
export function calculateSpendBatch(
  requests: readonly SpendRequest[],
  datasets: SpendDatasets,
  options?: CalculationOptions,
): Array<SpendEstimate | ErrorBody> {
  // Datasets that lack a part fail the whole batch once: no request could fix them.
  requireParts(datasets, SPEND_PARTS, 'calculateSpend');
  // Each element is checked by the schema: the type is what callers may pass, not a promise about JSON input.
  return runBatch(requests, (request) => calculateSpend(request as SpendRequest, datasets, options));
}
