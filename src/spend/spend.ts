import { runBatch } from '../core/batch';
import {
  type Decimal,
  decimal,
  doubleDouble,
  isPositive,
  mul,
  ONE,
  roundSignificant,
  sub,
  toNumber,
} from '../core/decimal';
import { EmissionsError, errorAgain, type ErrorBody } from '../core/errors';
import {
  type AuditTrail,
  buildEstimate,
  cachedTemplate,
  type CalculationOptions,
  type Estimate,
  type EstimateParts,
  estimateOfTemplate,
  type EstimateTemplate,
  type EstimateTemplates,
  noTemplates,
  templateOf as frameTemplate,
  type FactorMetadata,
  outputNumber,
  sharedNumber,
  templateCo2e,
} from '../core/estimate';
import { dd } from '../core/double-double';
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
import { decidedActivity, decidedMoney, decidedShare, type DoubleDouble } from './fast-spend';

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
  const resolved = resolveSpend(request, datasets);
  if (options?.significantDigits === undefined) {
    const fast = fastSpend(resolved, datasets);
    if (fast !== undefined) return fast;
  }
  return spendResult(partsOf(resolved, datasets, options, false), options);
}

/**
 * The result of {@link calculateSpend} from the exact parts (the path every request could take; calculateSpend
 * takes it where display rounding is asked or the double-double path declines).
 *
 * @internal
 * @example
 * ```ts
 * spendResult(spendParts(request, defaultDatasets)); // deep-equal to calculateSpend(request, defaultDatasets)
 * ```
 */
export function spendResult(parts: SpendParts, options?: CalculationOptions): SpendEstimate {
  const { estimate, margins, exchange, prices, money, selected, factors } = parts;
  const number = (value: Decimal) => outputNumber(value, options);
  return {
    estimate,
    calculation_details: spendDetails(
      number(margins.values.tax_margin),
      number(margins.values.trade_margin),
      number(margins.values.transport_margin),
      margins,
      sharedNumber(prices.applied, options),
      prices.years,
      sharedNumber(exchange.rate, options),
      exchange.rateYear,
      number(mul(money, exchange.rate)),
      factors,
      selected.shares,
    ),
    notices: copiedNotices(selected.notices, exchange.notices, margins.notices, prices.notices),
  };
}

/** The calculation details of a result, in SPEC.md's order; every array and object its own copy. */
function spendDetails(
  taxMargin: number,
  tradeMargin: number,
  transportMargin: number,
  margins: Pick<AppliedMargins, 'origins' | 'datasets'>,
  inflationApplied: number,
  inflationYears: readonly number[],
  exchangeRate: number,
  exchangeRateYear: number | null,
  moneyInFactorCurrency: number,
  factors: SpendDatasets['spendFactors'],
  shares: readonly ProductShare[],
): SpendCalculationDetails {
  const details: SpendCalculationDetails = {
    tax_margin: taxMargin,
    trade_margin: tradeMargin,
    transport_margin: transportMargin,
    inflation_applied: inflationApplied,
    margin_sources: { ...margins.origins },
  } as SpendCalculationDetails;
  if (margins.datasets.length > 0) details.margin_datasets = [...margins.datasets];
  details.inflation_years = [...inflationYears];
  details.exchange_rate = exchangeRate;
  details.exchange_rate_year = exchangeRateYear;
  details.money_in_factor_currency = moneyInFactorCurrency;
  details.factor_currency = factors.currency;
  details.factor_year = factors.factorYear;
  details.price_basis = factors.priceBasis;
  details.products = shares.map((share) => ({ ...share }));
  return details;
}

/** Copies of the notices of a result's parts, in order (the parts are cached and shared between calls). */
function copiedNotices(...parts: ReadonlyArray<readonly Notice[]>): Notice[] {
  const copies: Notice[] = [];
  for (const notices of parts) for (const notice of notices) copies.push({ ...notice });
  return copies;
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
  return partsOf(resolveSpend(request, datasets), datasets, options, true);
}

/**
 * {@link spendParts} on the exact decimal path alone, never the double-double one: what the fast paths are tested
 * against.
 *
 * @internal
 * @example
 * ```ts
 * spendResult(exactSpendParts(request, defaultDatasets)); // deep-equal to calculateSpend(request, defaultDatasets)
 * ```
 */
export function exactSpendParts(
  request: SpendRequest,
  datasets: SpendDatasets,
  options?: CalculationOptions,
): SpendParts {
  return partsOf(resolveSpend(request, datasets), datasets, options, false);
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

/** A request with everything that does not depend on its money and margins looked up (cached). */
export interface ResolvedSpend {
  input: ParsedSpendRequest;
  selection: Selection;
  rate: RateEntry;
  price: PriceEntry;
}

/** The estimate's parts but its activity: the same for every estimate of a selection with that audit trail. */
type EstimateFrame = Omit<EstimateParts, 'activityValue'>;

/** A factor selection and what derives from it alone, cached per factor and classification datasets. */
export interface Selection {
  readonly selected: SelectedFactor;
  readonly metadata: FactorMetadata;
  readonly audited: EstimateFrame;
  readonly unaudited: EstimateFrame;
  /** The product whose sector inflation rates may apply: the selection's only one. */
  readonly product: string | undefined;
  /** The region whose price index applies: the factors' basis region (CEDA: `US`), else the request's. */
  readonly priceRegion: string;
  /** The price changes at country rates of the inflation dataset `inflation` (shared by every selection). */
  inflation: SpendDatasets['inflation'] | undefined;
  countryPrices: CountryPrices | undefined;
  /** The estimate templates, made on first use (with the audit trail, without). */
  readonly templates: EstimateTemplates;
  /** The margins of a request that supplies none, under their margins dataset. */
  unsupplied: UnsuppliedMargins | undefined;
}

/** An exchange rate with its number and double-double (undefined where it has none: the exact path then). */
export interface RateEntry {
  readonly exchange: ExchangeRate;
  readonly number: number | undefined;
  readonly pair: DoubleDouble | undefined;
}

/** A price change with the numbers the fast path needs (undefined where it has none: the exact path then). */
export interface PriceEntry {
  readonly prices: PriceChange;
  readonly applied: number | undefined;
  readonly deflator: DoubleDouble | undefined;
}

/** A selection's margins when a request supplies none, with their numbers and the basic share's double-double. */
export interface UnsuppliedMargins {
  readonly margins: SpendDatasets['margins'];
  readonly applied: AppliedMargins;
  readonly tax: number;
  readonly trade: number;
  readonly transport: number;
  readonly share: DoubleDouble | undefined;
}

/**
 * A request validated, with everything that does not depend on its money and margins looked up (cached): its
 * factor selection, exchange rate and price change.
 *
 * @internal
 * @example
 * ```ts
 * const { input, selection, rate, price } = resolveSpend(request, defaultDatasets);
 * ```
 * @throws {@link EmissionsError} as {@link calculateSpend}, for a request it cannot resolve.
 */
export function resolveSpend(request: SpendRequest, datasets: SpendDatasets): ResolvedSpend {
  requireParts(datasets, SPEND_PARTS, 'calculateSpend');
  const input = parseRequest(SpendRequest, request);
  const selection = selections.get(
    [datasets.spendFactors, datasets.classifications],
    selectionKey(input),
    () => keptFailure(() => newSelection(input, datasets)),
  );
  if (selection instanceof KeptFailure) return selection.thrown();
  const rate = rateEntry(input.money_unit, input.spend_year, datasets);
  return { input, selection, rate, price: priceEntry(selection, input.spend_year, datasets) };
}

/**
 * A part of a request that failed to resolve (a code without a factor in the region, a currency without rates),
 * kept under the part's key as a resolved part is: a ledger's rows of that key (a country the factors lack can be
 * half a ledger) then fail without resolving it again (bench/cli.md, "failing rows once").
 */
class KeptFailure {
  constructor(private readonly error: EmissionsError) {}

  /** Throws the kept error again ({@link errorAgain}: a new object, the same code, message and details). */
  thrown(): never {
    throw errorAgain(this.error);
  }
}

/**
 * `resolve`'s value, or its failure kept. Not `invalid_request`: such a message may quote the request's own spelling
 * of a part its key folds (a classification type in another case).
 */
function keptFailure<V>(resolve: () => V): V | KeptFailure {
  try {
    return resolve();
  } catch (error) {
    if (error instanceof EmissionsError && error.error_code !== 'invalid_request')
      return new KeptFailure(error);
    throw error;
  }
}

function newSelection(input: ParsedSpendRequest, datasets: SpendDatasets): Selection {
  const selected = selectFactor(input, datasets);
  const metadata = spendMetadata(input, selected, datasets);
  const factors = datasets.spendFactors;
  const frame = (auditTrail: AuditTrail): EstimateFrame => ({
    activityUnit: factors.currency,
    factor: selected.factor,
    metadata,
    method: factors.gwp,
    origin: selected.rows.length === 1 ? 'source' : 'co2e-engine',
    auditTrail,
  });
  return {
    selected,
    metadata,
    audited: frame('enabled'),
    unaudited: frame('disabled'),
    priceRegion: factors.basisRegion ?? input.spend_region,
    product: selected.rows.length === 1 ? selected.rows[0]?.product : undefined,
    inflation: undefined,
    countryPrices: undefined,
    templates: noTemplates(),
    unsupplied: undefined,
  };
}

/** Exchange rates kept for one rates dataset: by factor currency, spend currency and year. */
interface RateTable {
  byTarget: Map<string, Map<string, Map<number, RateEntry | KeptFailure>>>;
  entries: number;
}

/**
 * Rates kept per rates dataset before its table starts afresh. Validation lets through every three-letter code for
 * each of 301 years, and a kept `unsupported_currency` failure holds its error and the list of valid currencies, so
 * a client sending them all would otherwise grow the table by millions of entries. Real ledgers stay far below (a
 * hundred currencies over thirty years is 3,000), and a rate takes microseconds to work out again.
 *
 * @internal
 */
export const MAX_KEPT_RATES = 8_192;

/**
 * Exchange rates per rates dataset (valid currencies and years only; a currency without rates is kept as its
 * failure), at most {@link MAX_KEPT_RATES}. Nested maps keep a hit free of allocations, which the LRU memo's key
 * arrays are not.
 */
const rateTables = new WeakMap<object, RateTable>();

function rateEntry(currency: string, year: number, datasets: SpendDatasets): RateEntry {
  const { fx } = datasets;
  const to = datasets.spendFactors.currency;
  let table = rateTables.get(fx);
  if (table === undefined) rateTables.set(fx, (table = { byTarget: new Map(), entries: 0 }));
  let byYear = table.byTarget.get(to)?.get(currency);
  let entry = byYear?.get(year);
  if (entry === undefined) {
    entry = keptFailure((): RateEntry => {
      const exchange = exchangeRate(currency, to, year, fx);
      return { exchange, number: writableNumber(exchange.rate), pair: doubleDouble(exchange.rate) };
    });
    if (table.entries >= MAX_KEPT_RATES) {
      table.byTarget.clear();
      table.entries = 0;
      byYear = undefined;
    }
    if (byYear === undefined) {
      let byCurrency = table.byTarget.get(to);
      if (byCurrency === undefined)
        table.byTarget.set(to, (byCurrency = new Map<string, Map<number, RateEntry | KeptFailure>>()));
      byCurrency.set(currency, (byYear = new Map<number, RateEntry | KeptFailure>()));
    }
    byYear.set(year, entry);
    table.entries++;
  }
  return entry instanceof KeptFailure ? entry.thrown() : entry;
}

/** Price changes at country rates, per region and spend year. */
type CountryPrices = Map<string, Map<number, PriceEntry>>;

/** Country-rate price changes per inflation and factors datasets (few: regions × years). */
const countryPriceTables = new WeakMap<object, WeakMap<object, CountryPrices>>();

/**
 * The price change of a selection's spend year ({@link resolveSpend}'s `price` for that year). The product matters
 * only where the dataset has a sector rate for it in the span; else the country's rates make the same price change
 * for every product, so one entry per region and year serves every selection.
 *
 * @internal
 * @example
 * ```ts
 * priceEntry(resolveSpend(request, defaultDatasets).selection, 2021, defaultDatasets).prices.applied;
 * ```
 */
export function priceEntry(selection: Selection, year: number, datasets: SpendDatasets): PriceEntry {
  const { inflation } = datasets;
  const factors = datasets.spendFactors;
  const { priceRegion, product } = selection;
  if (product !== undefined && hasSectorRate(inflation, priceRegion, product, year, factors.factorYear)) {
    return priceChanges.get(
      [inflation],
      [factors.factorYear, priceRegion, year, product, factors.basisRegion !== undefined],
      () => newPriceEntry(priceRegion, product, year, datasets),
    );
  }
  let table = selection.inflation === inflation ? selection.countryPrices : undefined;
  if (table === undefined) {
    let byFactors = countryPriceTables.get(inflation);
    if (byFactors === undefined) countryPriceTables.set(inflation, (byFactors = new WeakMap()));
    table = byFactors.get(factors);
    if (table === undefined) byFactors.set(factors, (table = new Map<string, Map<number, PriceEntry>>()));
    selection.inflation = inflation;
    selection.countryPrices = table;
  }
  let byYear = table.get(priceRegion);
  if (byYear === undefined) table.set(priceRegion, (byYear = new Map<number, PriceEntry>()));
  let entry = byYear.get(year);
  if (entry === undefined) {
    entry = newPriceEntry(priceRegion, undefined, year, datasets);
    byYear.set(year, entry);
  }
  return entry;
}

/** A price change and its numbers. Factors priced in one country's money everywhere (CEDA) take its price index. */
function newPriceEntry(
  region: string,
  product: string | undefined,
  year: number,
  datasets: SpendDatasets,
): PriceEntry {
  const factors = datasets.spendFactors;
  const prices = priceChange(
    region,
    product,
    year,
    factors.factorYear,
    datasets.inflation,
    factors.basisRegion === undefined ? undefined : factors.info.source,
  );
  return { prices, applied: writableNumber(prices.applied), deflator: doubleDouble(prices.deflator) };
}

/** The number a shared decimal is shown as, or undefined where it has none (the exact path then reports it). */
function writableNumber(value: Decimal): number | undefined {
  try {
    return sharedNumber(value, undefined);
  } catch {
    return undefined;
  }
}

function unsuppliedMargins(
  selection: Selection,
  input: SpendRowInput,
  datasets: SpendDatasets,
): UnsuppliedMargins {
  const cached = selection.unsupplied;
  if (cached?.margins === datasets.margins) return cached;
  const applied = applyMargins(input, selection.selected, datasets);
  const { values } = applied;
  const made: UnsuppliedMargins = {
    margins: datasets.margins,
    applied,
    tax: outputNumber(values.tax_margin, undefined),
    trade: outputNumber(values.trade_margin, undefined),
    transport: outputNumber(values.transport_margin, undefined),
    share: doubleDouble(applied.basicShare),
  };
  selection.unsupplied = made;
  return made;
}

/** Every margin supplied: each from the request. */
const SUPPLIED = { tax_margin: 'supplied', trade_margin: 'supplied', transport_margin: 'supplied' } as const;
const SUPPLIED_MARGINS: Pick<AppliedMargins, 'origins' | 'datasets'> = { origins: SUPPLIED, datasets: [] };
const NO_NOTICES: readonly Notice[] = [];

/**
 * The activity (`money × basic share × rate × deflator`, the double of the exact path's activity) in double-double
 * arithmetic (fast-spend.ts), for a request that supplies all three margins (factors at basic price) or none;
 * undefined where that declines (the exact path then).
 */
function fastActivity(
  {
    input,
    selection,
    rate,
    price,
  }: Pick<ResolvedSpend, 'selection' | 'rate' | 'price'> & { input: SpendRowInput },
  datasets: SpendDatasets,
): number | undefined {
  if (rate.pair === undefined || price.deflator === undefined) return undefined;
  const { tax_margin: tax, trade_margin: trade, transport_margin: transport } = input;
  let shareHi: number;
  let shareLo: number;
  if (tax === undefined && trade === undefined && transport === undefined) {
    const { share } = unsuppliedMargins(selection, input, datasets);
    if (share === undefined) return undefined;
    [shareHi, shareLo] = share;
  } else if (
    tax !== undefined &&
    trade !== undefined &&
    transport !== undefined &&
    datasets.spendFactors.priceBasis === 'basic' &&
    decidedShare(tax, trade, transport)
  ) {
    shareHi = dd.hi;
    shareLo = dd.lo;
  } else return undefined;
  return decidedActivity(input.money, shareHi, shareLo, rate.pair, price.deflator);
}

/** calculateSpend without display rounding from {@link fastActivity}; undefined where that declines. */
function fastSpend(resolved: ResolvedSpend, datasets: SpendDatasets): SpendEstimate | undefined {
  const { input, selection, rate, price } = resolved;
  if (rate.number === undefined || price.applied === undefined) return undefined;
  const activity = fastActivity(resolved, datasets);
  if (activity === undefined) return undefined;
  const moneyInFactorCurrency = decidedMoney(rate.pair as DoubleDouble);
  if (moneyInFactorCurrency === undefined) return undefined;
  const template = templateOf(selection, input.audit_trail);
  if (template === undefined) return undefined;
  const estimate = estimateOfTemplate(activity, template);
  const factors = datasets.spendFactors;
  const { selected } = selection;
  const { exchange } = rate;
  const { prices } = price;
  const { tax_margin: tax, trade_margin: trade, transport_margin: transport } = input;
  // fastActivity took every margin from the request or none: then the selection's shared unsupplied margins.
  const unsupplied = tax === undefined ? (selection.unsupplied as UnsuppliedMargins) : undefined;
  // A supplied margin is shown as its number (`+ 0`: -0, read as the decimal 0, is shown as 0).
  const calculationDetails = spendDetails(
    unsupplied === undefined ? (tax as number) + 0 : unsupplied.tax,
    unsupplied === undefined ? (trade as number) + 0 : unsupplied.trade,
    unsupplied === undefined ? (transport as number) + 0 : unsupplied.transport,
    unsupplied === undefined ? SUPPLIED_MARGINS : unsupplied.applied,
    price.applied,
    prices.years,
    rate.number,
    exchange.rateYear,
    moneyInFactorCurrency,
    factors,
    selected.shares,
  );
  return {
    estimate,
    calculation_details: calculationDetails,
    notices: copiedNotices(
      selected.notices,
      exchange.notices,
      unsupplied === undefined ? NO_NOTICES : unsupplied.applied.notices,
      prices.notices,
    ),
  };
}

/**
 * What {@link fastSpendRow} gives: a row's co2e and activity (the estimate's numbers; its other fields are the
 * template's) and the cached parts its other result columns are made of, each the same object for every row that
 * shares it (a key a caller may cache what it derives from them under). Read it, never change it; the object itself
 * is reused by the next call, so no object is made per row.
 */
export interface FastSpendRow {
  /** The estimate's `co2e`: {@link templateCo2e} of the activity. */
  co2e: number;
  /** The estimate's `activity_data.activity_value`. */
  activityValue: number;
  /** The factor selection's template for the row's audit trail: one per selection and audit trail. */
  template: EstimateTemplate;
  /** The factor selection's notices (first of the row's notices). */
  selectionNotices: readonly Notice[];
  /** The exchange rate, with its number (`exchange_rate`). */
  rate: RateEntry & { readonly number: number };
  /** The price change, with its number (`inflation_applied`). */
  price: PriceEntry & { readonly applied: number };
  /** The selection's default margins where the row supplies none; undefined where it supplies all three. */
  unsupplied: UnsuppliedMargins | undefined;
  /** The margins applied, as numbers (the supplied ones, or {@link FastSpendRow.unsupplied}'s). */
  tax: number;
  trade: number;
  transport: number;
}

const fastRow: FastSpendRow = {
  co2e: 0,
  activityValue: 0,
  template: undefined as unknown as EstimateTemplate,
  selectionNotices: NO_NOTICES,
  rate: undefined as unknown as FastSpendRow['rate'],
  price: undefined as unknown as FastSpendRow['price'],
  unsupplied: undefined,
  tax: 0,
  trade: 0,
  transport: 0,
};

/**
 * A request's estimate on the double-double path with the parts of its details, for a caller that writes each row's
 * result columns itself (the CLI's CSV rows): what {@link spendParts} gives for the same request, without the
 * margins in decimals, the notices copied or the details built. Undefined where that path declines (display rounding
 * is not offered; margins partly supplied, or supplied to factors at purchaser's price; a number without a double):
 * then {@link spendParts}, which also reports every error. The returned object is reused by the next call.
 *
 * @internal
 * @example
 * ```ts
 * const row = fastSpendRow(request, defaultDatasets);
 * row?.co2e; // spendParts(request, defaultDatasets).estimate.co2e
 * ```
 * @throws {@link EmissionsError} as {@link calculateSpend}, for a request it cannot answer.
 */
export function fastSpendRow(request: SpendRequest, datasets: SpendDatasets): FastSpendRow | undefined {
  const { input, selection, rate, price } = resolveSpend(request, datasets);
  return fastSpendRowOf(input, selection, rate, price, datasets);
}

/** What {@link fastSpendRowOf} reads of a request besides its cached parts. */
export type SpendRowInput = Pick<
  ParsedSpendRequest,
  'money' | 'tax_margin' | 'trade_margin' | 'transport_margin' | 'audit_trail'
>;

/**
 * {@link fastSpendRow} from parts a caller has resolved and kept ({@link resolveSpend}: the selection, rate and
 * price of an earlier request with the same activity, region, audit trail, currency and year, which
 * {@link priceEntry} gives for another year) and the request's own money and margins, valid as the request schema
 * checks them. Undefined where the double-double path declines. `template`, where given, is the one an earlier row
 * of the same selection and audit trail got (`row.template`), which the caller kept: not looked up again.
 *
 * @internal
 * @example
 * ```ts
 * const { input, selection, rate, price } = resolveSpend(request, defaultDatasets);
 * fastSpendRowOf({ ...input, money: 250 }, selection, rate, price, defaultDatasets)?.co2e;
 * ```
 */
export function fastSpendRowOf(
  input: SpendRowInput,
  selection: Selection,
  rate: RateEntry,
  price: PriceEntry,
  datasets: SpendDatasets,
  kept?: EstimateTemplate,
): FastSpendRow | undefined {
  if (rate.number === undefined || price.applied === undefined) return undefined;
  const activity = fastActivity({ input, selection, rate, price }, datasets);
  if (activity === undefined) return undefined;
  const template = kept ?? templateOf(selection, input.audit_trail);
  if (template === undefined) return undefined;
  const row = fastRow;
  row.co2e = templateCo2e(activity, template);
  row.activityValue = activity;
  row.template = template;
  row.selectionNotices = selection.selected.notices;
  row.rate = rate as FastSpendRow['rate'];
  row.price = price as FastSpendRow['price'];
  // fastActivity took every margin from the request or none: then the selection's shared unsupplied margins.
  if (input.tax_margin === undefined) {
    const unsupplied = selection.unsupplied as UnsuppliedMargins;
    row.unsupplied = unsupplied;
    row.tax = unsupplied.tax;
    row.trade = unsupplied.trade;
    row.transport = unsupplied.transport;
  } else {
    // A supplied margin is shown as its number (`+ 0`: -0, read as the decimal 0, is shown as 0).
    row.unsupplied = undefined;
    row.tax = input.tax_margin + 0;
    row.trade = (input.trade_margin as number) + 0;
    row.transport = (input.transport_margin as number) + 0;
  }
  return row;
}

/**
 * The selection's estimate template for an audit trail, made on first use; undefined for a factor beyond the doubles
 * (the exact path then reports it where it always has).
 */
function templateOf(selection: Selection, auditTrail: AuditTrail): EstimateTemplate | undefined {
  const frame = auditTrail === 'enabled' ? selection.audited : selection.unaudited;
  // Made already for all but a selection's first rows: found without entering the try.
  const cached = cachedTemplate(selection.templates, auditTrail, frame.method);
  if (cached !== undefined) return cached;
  try {
    return frameTemplate(selection.templates, frame);
  } catch {
    return undefined;
  }
}

/**
 * The parts of a result: the margins in decimals, the estimate from {@link fastActivity} where `fast` and no display
 * rounding is asked and it decides, else from the exact decimals (the multiplier and activity kept to 34 significant
 * digits).
 */
function partsOf(
  resolved: ResolvedSpend,
  datasets: SpendDatasets,
  options: CalculationOptions | undefined,
  fast: boolean,
): SpendParts {
  const { input, selection, rate, price } = resolved;
  const { selected } = selection;
  const { exchange } = rate;
  const { prices } = price;
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
  const activity =
    fast && options?.significantDigits === undefined ? fastActivity(resolved, datasets) : undefined;
  const template = activity === undefined ? undefined : templateOf(selection, input.audit_trail);
  let estimate: Estimate;
  if (template !== undefined) estimate = estimateOfTemplate(activity as number, template);
  else {
    const multiplier = roundSignificant(mul(exchange.rate, prices.deflator), PRECISION);
    const activityValue = roundSignificant(mul(mul(money, basicShare), multiplier), PRECISION);
    const frame = input.audit_trail === 'enabled' ? selection.audited : selection.unaudited;
    estimate = buildEstimate({ ...frame, activityValue }, options);
  }
  return { estimate, margins, exchange, prices, money, selected, factors: datasets.spendFactors };
}

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

/** Price changes per region, product (sector rates), spend year and factor year: one division by the level each. */
const priceChanges = createMemo<PriceEntry>();

/**
 * Significant digits kept by the multiplier and the activity value: those of IEEE 754 decimal128, far beyond the
 * 17 a JS number shows, so outputs are unaffected while per-call products stay short.
 */
const PRECISION = 34;

/** Factor selections per factor and classification datasets; they depend on nothing else. */
const selections = createMemo<Selection | KeptFailure>();

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
  // Loops rather than flatMap, which V8 makes an array per element for (bench/cli.md, "the first rows of each key").
  const identity: string[] = [];
  for (const info of infos) identity.push(info.id, info.version);
  const shared: SharedMetadata = {
    source: [...new Set(infos.map((info) => info.source))].join('; '),
    sourceDataset: [...new Set(infos.map((info) => info.source_dataset))].join('; '),
    year: datasets.spendFactors.factorYear,
    region: selected.region,
  };
  const single = selected.rows.length === 1 ? selected.rows[0] : undefined;
  if (single !== undefined) {
    return metadataOf(
      shared,
      single.name,
      factorId([...identity, single.activity_id, single.product, shared.region]),
      single.activity_id,
      [...single.data_quality_flags],
    );
  }
  const products = selected.rows.map((row) => row.product);
  const type =
    'classification_type' in input.activity ? input.activity.classification_type.toLowerCase() : 'activity';
  const weighted = selected.shares.every((share) => share.weight !== null);
  const mapping =
    datasets.classifications.mappingDataset?.(type, selected.code) ?? datasets.classifications.info;
  return metadataOf(
    shared,
    `${type} ${selected.code}: ${weighted ? 'output-weighted' : 'unweighted'} mean of ${products.length} ${datasets.classifications.productClassification} products (${products.join(', ')})`,
    factorId([...identity, mapping.id, mapping.version, type, selected.code, shared.region]),
    `${type}-${selected.code.toLowerCase().replaceAll('.', '_')}-mean`,
    [...distinctFlags(selected.rows)].sort(),
  );
}

/** What a selection's metadata takes from its datasets and region, whichever its factor. */
interface SharedMetadata {
  source: string;
  sourceDataset: string;
  year: number;
  region: string;
}

/**
 * A spend factor's metadata, its keys in the order the API sends them. One literal, not the shared part spread into
 * another: V8 makes a literal that adds keys after a spread on its slow path, about 1 µs a key (bench/cli.md, "the
 * first rows of each key").
 */
function metadataOf(
  shared: SharedMetadata,
  name: string,
  id: string,
  activityId: string,
  flags: string[],
): FactorMetadata {
  return {
    access_type: 'public',
    source: shared.source,
    source_dataset: shared.sourceDataset,
    year: shared.year,
    region: shared.region,
    source_lca_activity: 'unknown',
    name,
    id,
    activity_id: activityId,
    category: 'Procurement',
    data_quality_flags: flags,
  };
}

/** The data quality flags of the rows, each once. */
function distinctFlags(rows: SelectedFactor['rows']): Set<string> {
  const flags = new Set<string>();
  for (const row of rows) for (const flag of row.data_quality_flags) flags.add(flag);
  return flags;
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
