import { EmissionsError } from '../../core/errors';
import { withDatasetPreset } from '../../embedded/presets';
import type { SpendDatasets } from '../../datasets/types';
import { normaliseCode } from '../../spend/classification';
import {
  type AuditTrail,
  type EstimateTemplate,
  factorCo2e,
  outputNumber,
  sharedNumber,
} from '../../core/estimate';
import { dd } from '../../core/double-double';
import { decidedActivityOf, decidedShare } from '../../spend/fast-spend';
import {
  type FastSpendRow,
  fastSpendRowOf,
  priceEntry,
  type PriceEntry,
  type RateEntry,
  resolveSpend,
  type Selection,
  type SpendParts,
  spendNotices,
  spendParts,
  type SpendRowInput,
  type UnsuppliedMargins,
} from '../../spend/spend';
import { MAX_QUANTITY } from '../../core/validate';
import { numberText } from '../../core/number-text';
import { plainDecimal, plainDecimalText, resultTextCell } from '../formats/index';
import { SpendRequest } from '../../spend/spend.schema';
import { cellValue, pickFields, strictNumber } from './cells';
import type { FileFormat } from '../formats/records';
import type { ColumnSpec, CsvResult, RowAdapter, RowOutcome } from '../pipeline/row-adapter';
import { notice, type Notice } from '../../spend/notices';

/** Flat columns that make up the request's `activity` object. */
export const SPEND_ACTIVITY_COLUMNS = ['classification_type', 'classification_code', 'activity_id'] as const;
/** The other request columns, as the spend request schema names them. */
export const SPEND_REQUEST_COLUMNS: readonly string[] = Object.keys(SpendRequest.shape).filter(
  (key) => key !== 'activity',
);

/**
 * The result columns of a spend row: {@link estimateOutcome}'s, then the money steps an auditor follows (exchange
 * rate and its year, each margin and its source, inflation) and the notices, with the numbers calculateSpend's
 * details give. Built from the calculator's parts (spendParts), as this runs once per ledger row: the details no
 * column shows are never computed, and the notices are read, not copied, since the row is written before the next.
 */
function spendOutcome(parts: SpendParts): RowOutcome {
  const { estimate, margins, exchange, prices } = parts;
  const factor = estimate.emission_factor;
  return {
    co2e: estimate.co2e,
    co2e_unit: estimate.co2e_unit,
    activity_value: estimate.activity_data.activity_value,
    activity_unit: estimate.activity_data.activity_unit,
    factor_id: factor?.id ?? null,
    factor_name: factor?.name ?? null,
    factor_source: factor?.source ?? null,
    factor_region: factor?.region ?? null,
    factor_year: factor?.year ?? null,
    exchange_rate: sharedNumber(exchange.rate, undefined),
    exchange_rate_year: exchange.rateYear,
    tax_margin_applied: outputNumber(margins.values.tax_margin, undefined),
    tax_margin_source: margins.origins.tax_margin,
    trade_margin_applied: outputNumber(margins.values.trade_margin, undefined),
    trade_margin_source: margins.origins.trade_margin,
    transport_margin_applied: outputNumber(margins.values.transport_margin, undefined),
    transport_margin_source: margins.origins.transport_margin,
    inflation_applied: sharedNumber(prices.applied, undefined),
    notices: spendNotices(parts),
  };
}

/**
 * The spend columns for the header check: the activity (classification type and code, or an activity id), the
 * year, region, amount and currency; the margins are optional. Aliases are names ledgers and ERP exports use.
 */
export const SPEND_COLUMNS: ColumnSpec = {
  required: [
    [['classification_type', 'classification_code'], ['activity_id']],
    [['spend_year']],
    [['spend_region']],
    [['money']],
    [['money_unit']],
  ],
  known: [...SPEND_ACTIVITY_COLUMNS, ...SPEND_REQUEST_COLUMNS],
  objects: ['activity'],
  aliases: {
    amount: 'money',
    net_amount: 'money',
    spend: 'money',
    currency: 'money_unit',
    currency_code: 'money_unit',
    year: 'spend_year',
    fiscal_year: 'spend_year',
    country: 'spend_region',
    country_code: 'spend_region',
    region: 'spend_region',
    classification: 'classification_type',
    classification_system: 'classification_type',
  },
};

/** A credit note estimated under `--credits net`: said in the row, as its emissions are negative. */
const CREDIT_NOTE = notice(
  'credit_note',
  'info',
  'A negative amount (a credit note): estimated for the amount without its sign, then negated (--credits net).',
);

/** `-x`, but 0 for 0 (never `-0`, which would print as such). */
const negated = (value: number) => 0 - value;

/** Characters of a factor's name shown beside its code in the end report. */
const NAME_CHARS = 40;

/** The summary group of a row: its classification, and the name of the factor it got, shortened. */
function categoryOf(activity: Record<string, unknown>, factorName: string | null): string {
  const name =
    factorName === null || factorName === ''
      ? ''
      : ` · ${factorName.length > NAME_CHARS ? `${factorName.slice(0, NAME_CHARS - 1)}…` : factorName}`;
  if (typeof activity.activity_id === 'string') return `activity_id ${activity.activity_id}${name}`;
  const type = String(activity.classification_type).toLowerCase();
  return `${type} ${normaliseCode(type, String(activity.classification_code))}${name}`;
}

/**
 * Spend rows: the columns of SPEND_ACTIVITY_COLUMNS and SPEND_REQUEST_COLUMNS make the request (a JSON Lines row
 * may give `activity` as an object instead); other columns pass through. Summary: by classification code.
 */
export function spendRows(datasets: SpendDatasets): RowAdapter {
  const keys = new RowKeys();
  // Supplied margins are taken on the fast path for factors at basic prices only (see fastSpendRowOf).
  const basic = datasets.spendFactors.priceBasis === 'basic';
  return {
    name: 'spend',
    groupings: { category: 'by classification' },
    columns: SPEND_COLUMNS,
    compute(values, source, reading = {}) {
      const request = spendRequest(values, source, reading.decimalComma);
      const activity = request.activity as unknown as Record<string, unknown>;
      // A credit note: the calculator refuses a negative amount (as the hosted API does), so the CLI refuses it too
      // unless asked, and under --credits net estimates the amount without its sign and negates the result, exact
      // as emissions are proportional to the amount.
      const credit = typeof request.money === 'number' && request.money < 0;
      if (credit && reading.credits !== 'net') {
        throw new EmissionsError(
          'invalid_request',
          "'money' is negative (a credit note?); use --credits net to estimate it as negative emissions.",
          { path: 'money' },
        );
      }
      if (credit) request.money = negated(request.money);
      const outcome = spendOutcome(spendParts(request, datasets));
      return {
        outcome: credit
          ? {
              ...outcome,
              co2e: negated(outcome.co2e),
              activity_value: negated(outcome.activity_value),
              notices: [...outcome.notices, CREDIT_NOTE],
            }
          : outcome,
        groups: { category: categoryOf(activity, outcome.factor_name) },
      };
    },
    csvResult(values, source, reading = {}) {
      return (
        (source === 'csv' ? keptCsvResult(values, reading.decimalComma, basic, keys, datasets) : undefined) ??
        spendCsvResult(values, source, reading.decimalComma, datasets, keys)
      );
    },
    csvRecordResult(header) {
      const layout = recordLayout(header);
      if (layout === undefined) return undefined;
      return (text, spans, reading) =>
        keptRecordResult(layout, text, spans, reading.decimalComma, basic, keys, datasets);
    },
    failureHint: (values, source, error, reading = {}) =>
      cedaHint(datasets, () => spendRequest(values, source, reading.decimalComma), error),
  };
}

/** A spend row's request: the request columns, and `activity` from its columns or (JSON Lines) its object. */
function spendRequest(
  values: Record<string, unknown>,
  source: FileFormat,
  decimalComma?: boolean,
): SpendRequest {
  const request = pickFields(values, SPEND_REQUEST_COLUMNS, source, decimalComma);
  const flat = pickFields(values, SPEND_ACTIVITY_COLUMNS, source, decimalComma);
  const nested = source === 'jsonl' ? cellValue(values.activity, 'activity', source) : undefined;
  if (nested !== undefined && Object.keys(flat).length > 0) {
    throw new EmissionsError(
      'invalid_request',
      `Give either 'activity' or ${SPEND_ACTIVITY_COLUMNS.map((name) => `'${name}'`).join('/')}, not both.`,
      { path: 'activity' },
    );
  }
  if (source === 'csv') checkClassificationCells(flat);
  const activity = nested ?? (Object.keys(flat).length > 0 ? flat : undefined);
  if (activity !== undefined) request.activity = activity;
  return request as SpendRequest;
}

/**
 * A CSV row's classification cells, told in its columns: the request's schema would name its JSON field
 * (`'activity' is required`), which a CSV has no column for.
 *
 * @throws {@link EmissionsError} `invalid_request` when neither an activity id nor both classification cells are given.
 */
function checkClassificationCells(flat: Record<string, unknown>): void {
  if (flat.activity_id !== undefined) return;
  const type = flat.classification_type !== undefined;
  const code = flat.classification_code !== undefined;
  if (type && code) return;
  const message = type
    ? "'classification_code' is empty (it goes with 'classification_type')."
    : code
      ? "'classification_type' is empty (it goes with 'classification_code')."
      : "'classification_type' and 'classification_code' (or 'activity_id') are empty.";
  throw new EmissionsError('invalid_request', message, {
    path: type ? 'classification_code' : 'classification_type',
  });
}

/** The hint for rows that have no factor in other sets but one in CEDA. */
export const CEDA_HINT = '--datasets ceda';

/** The datasets with the CEDA preset over them, per datasets: built on the first row that needs them. */
const withCeda = new WeakMap<SpendDatasets, SpendDatasets>();

/**
 * `--datasets ceda` when a row failed for lack of a factor (`no_emission_factors_found`) and the same row with the
 * CEDA preset over the run's datasets is answered; else undefined (also when the run already uses CEDA).
 *
 * @example
 * ```ts
 * cedaHint(defaultDatasets, () => request, error); // '--datasets ceda' for a Japanese row EXIOBASE lacks
 * ```
 */
export function cedaHint(
  datasets: SpendDatasets,
  request: () => SpendRequest,
  error: unknown,
): string | undefined {
  if (!(error instanceof EmissionsError) || error.error_code !== 'no_emission_factors_found')
    return undefined;
  let ceda = withCeda.get(datasets);
  if (ceda === undefined) {
    ceda = withDatasetPreset(datasets, 'ceda');
    withCeda.set(datasets, ceda);
  }
  if (datasets.spendFactors.info.id === ceda.spendFactors.info.id) return undefined;
  try {
    spendParts(request(), ceda);
    return CEDA_HINT;
  } catch {
    return undefined;
  }
}

/**
 * What a factor selection's rows share in their CSV cells: the cells from `activity_unit` to `factor_year`, the
 * notices cell of a row whose other parts add none, and the summary group of the last request spelling seen.
 */
interface SelectionCells {
  /** The co2e unit's cell between the commas around it (`,kg,`). */
  readonly unit: string;
  /**
   * The activity unit's and factor's cells, with the commas around them: the row's longest cell, one flat string
   * made once per selection.
   */
  readonly factorCells: string;
  readonly notices: string;
  type: string;
  code: string;
  category: string;
}

/** The co2e unit's cell: a template's estimates are in kg (estimateOfTemplate's co2e_unit). */
const UNIT_CELL = `,${resultTextCell('kg')},`;

/** The cells each cached part of a row makes, per part (the parts are the calculator's, shared between rows). */
const selectionCells = new WeakMap<EstimateTemplate, SelectionCells>();
const rateCells = new WeakMap<RateEntry, string>();
/** The inflation cell with the comma before it and the empty energy cell's commas after it (`,0.1,,`). */
const priceCells = new WeakMap<PriceEntry, string>();
/** The three default margins' cells with the comma before them. */
const unsuppliedCells = new WeakMap<UnsuppliedMargins, string>();

/** The CSV cell of a result number, as the writer writes it (null: empty). */
const numberCell = (value: number | null | undefined): string =>
  value === null || value === undefined ? '' : plainDecimal(value);

/** The notices cell: their codes, `;`-separated, as the CSV writer writes the notices column. */
const noticesCell = (notices: readonly Notice[]): string =>
  notices.length === 0 ? '' : resultTextCell(notices.map((notice) => notice.code).join(';'));

/**
 * Notices' codes as {@link noticesCell} writes them (`a;b`), where they are only letters, digits and underscores (so
 * the cell is their text as it is, and so is any joining of such codes with `;`: {@link joinedCodes}); else
 * undefined. A row's notices cell is then joined from its parts' codes: made from a new array of notices, it cost a
 * row whose rate or price change adds notices about 1.5 µs (such parts are met in random order, so no one cell is
 * kept for them).
 */
function plainCodes(notices: readonly Notice[]): string | undefined {
  const codes = notices.map((notice) => notice.code).join(';');
  return PLAIN_CODES.test(codes) ? codes : undefined;
}

const PLAIN_CODES = /^[A-Za-z0-9_]+(?:;[A-Za-z0-9_]+)*$|^$/;

/** Two parts' {@link plainCodes} as one cell's. */
const joinedCodes = (first: string, second: string): string =>
  first === '' ? second : second === '' ? first : `${first};${second}`;

/**
 * Supplied margins' cells with the comma before and their source after (`,0.1,supplied`), per number: a ledger's
 * margins repeat (a few hundred values). Cleared when full.
 */
const marginTexts = new Map<number, string>();
const MAX_MARGIN_TEXTS = 4096;

function marginCell(value: number): string {
  let text = marginTexts.get(value);
  if (text === undefined) {
    if (marginTexts.size >= MAX_MARGIN_TEXTS) marginTexts.clear();
    text = `,${numberCell(value)},supplied`;
    marginTexts.set(value, text);
  }
  return text;
}

function selectionCellsOf(row: FastSpendRow, activity: Record<string, unknown>): SelectionCells {
  const { template } = row;
  let cells = selectionCells.get(template);
  const factor = template.emissionFactor;
  if (cells === undefined) {
    cells = {
      unit: UNIT_CELL,
      // Joined, not a template literal: a flat string, which each row's line copies without flattening it again.
      factorCells: [
        '',
        resultTextCell(template.activityUnit),
        resultTextCell(factor?.id ?? null),
        resultTextCell(factor?.name ?? null),
        resultTextCell(factor?.source ?? null),
        resultTextCell(factor?.region ?? null),
        numberCell(factor?.year),
        '',
      ].join(','),
      notices: noticesCell(row.selectionNotices),
      type: '',
      code: '',
      category: '',
    };
    selectionCells.set(template, cells);
  }
  // The group is the request's spelling of its classification (normalised): one selection may be spelt several ways.
  const { classification_type: type, classification_code: code } = activity;
  if (typeof type !== 'string' || typeof code !== 'string' || type !== cells.type || code !== cells.code) {
    cells.category = categoryOf(activity, factor?.name ?? null);
    // Remembered for a classified activity only (an activity id's group is made each time).
    const classified = typeof type === 'string' && typeof code === 'string';
    cells.type = classified ? type : '';
    cells.code = classified ? code : '';
  }
  return cells;
}

/** Supplied margins' cells (each with the comma before it) into parts 5–7 of the row's {@link result}. */
function marginsCells(tax: number, trade: number, transport: number): void {
  const parts = result.cells;
  parts[5] = marginCell(tax);
  parts[6] = marginCell(trade);
  parts[7] = marginCell(transport);
}

/** The default margins' three cells, as one piece ({@link unsuppliedText}), into parts 5–7 of the row's result. */
function unsuppliedMarginsCells(cells: string): void {
  const parts = result.cells;
  parts[5] = cells;
  parts[6] = '';
  parts[7] = '';
}

/** The three default margins' cells with the comma before them, per selection's default margins. */
function unsuppliedText(unsupplied: UnsuppliedMargins): string {
  let cells = unsuppliedCells.get(unsupplied);
  if (cells === undefined) {
    const { origins } = unsupplied.applied;
    cells = `,${[
      numberCell(unsupplied.tax),
      resultTextCell(origins.tax_margin),
      numberCell(unsupplied.trade),
      resultTextCell(origins.trade_margin),
      numberCell(unsupplied.transport),
      resultTextCell(origins.transport_margin),
    ].join(',')}`;
    unsuppliedCells.set(unsupplied, cells);
  }
  return cells;
}

/** A factor selection found for a CSV row's cells, as they were written (so `UK` and `GB` are two entries). */
interface KeyedSelection {
  readonly type: string;
  /** The audit trail cell ('' when absent) and what it means. */
  readonly audit: string;
  readonly auditTrail: AuditTrail;
  readonly selection: Selection;
  /** Its price change per spend year cell ({@link yearKey}). */
  readonly prices: YearTable<KeyedPrice>;
  /**
   * What its rows write, made on the first one the fast path answers: kept here, where a row's lookup has just
   * been, rather than found again per row under the template (one object less to reach for each row).
   */
  cells: SelectionCells | undefined;
  /** The cells' unit, factor and notices cells, copied here: a row reads them from the entry it has just found. */
  unit: string;
  factorCells: string;
  notices: string;
  /** Its selection's own notices (`selection.selected.notices`), and their {@link plainCodes}. */
  readonly selectionNotices: readonly Notice[];
  readonly codes: string | undefined;
  /** Its rows' summary group (the cells' type and code are this entry's, so the group is the same for all). */
  category: string;
  /**
   * The notices cell of its rows whose only notices beside the selection's are its default margins' (a ledger's
   * commonest notices), and those margins' notices.
   */
  marginNotices: readonly Notice[] | undefined;
  marginNoticesCell: string;
  /** The estimate template its first row answered on the fast path got (the same for all: see fastSpendRowOf). */
  template: EstimateTemplate | undefined;
  /** That template's factor numbers ({@link factorCo2e}), set with {@link KeyedSelection.cells}. */
  factor: number;
  factorHigh: number;
  factorLow: number;
  /**
   * The selection's default margins, their basic share as a double-double and their cells, from its first row
   * without margins answered on the fast path (undefined and NaN until then).
   */
  unsupplied: UnsuppliedMargins | undefined;
  shareHi: number;
  shareLo: number;
  unsuppliedCell: string;
  /** The default margins' notices' {@link plainCodes} (undefined until they are kept, or where not plain). */
  unsuppliedCodes: string | undefined;
}

/** An exchange rate found for a CSV row's currency and year cells, with the year they spell. */
interface KeyedRate {
  readonly year: number;
  readonly rate: RateEntry;
  /** The rate's cells ({@link rateText}). */
  readonly text: string;
  /** Its double-double (NaN where it has none, or no number: the fast path declines such rows). */
  readonly hi: number;
  readonly lo: number;
  /** Whether it adds no notices. */
  readonly quiet: boolean;
  /** Its notices' {@link plainCodes}. */
  readonly codes: string | undefined;
}

/** A {@link KeyedRate}: its numbers copied out of the rate, so a row reads them where it found the entry. */
function keyedRate(year: number, rate: RateEntry): KeyedRate {
  const usable = rate.number !== undefined && rate.pair !== undefined;
  return {
    year,
    rate,
    text: rateText(rate),
    hi: usable ? rate.pair[0] : Number.NaN,
    lo: usable ? rate.pair[1] : Number.NaN,
    quiet: rate.exchange.notices.length === 0,
    codes: plainCodes(rate.exchange.notices),
  };
}

/** A selection's price change for a spend year cell, with what its rows write. */
interface KeyedPrice {
  readonly price: PriceEntry;
  /** The inflation cell ({@link priceText}). */
  readonly text: string;
  /** The deflator's double-double (NaN where it has none, or no number: the fast path declines such rows). */
  readonly hi: number;
  readonly lo: number;
  /** Whether it adds no notices. */
  readonly quiet: boolean;
  /** Its notices' {@link plainCodes}. */
  readonly codes: string | undefined;
}

/** A {@link KeyedPrice}: its numbers copied out of the price change, as {@link keyedRate} does a rate's. */
function keyedPrice(price: PriceEntry): KeyedPrice {
  const usable = price.applied !== undefined && price.deflator !== undefined;
  return {
    price,
    text: priceText(price),
    hi: usable ? price.deflator[0] : Number.NaN,
    lo: usable ? price.deflator[1] : Number.NaN,
    quiet: price.prices.notices.length === 0,
    codes: plainCodes(price.prices.notices),
  };
}

/** Entries a {@link RowKeys} holds before it is cleared: far more than a ledger's selections, rates or prices. */
const MAX_ROW_KEYS = 262_144;

/**
 * The calculator's parts a run's CSV rows resolved, by the cells they were resolved from: a row whose activity,
 * region and audit trail cells, and currency and year cells, are those of rows resolved before is answered from them
 * without validating and resolving the request again. Only rows that resolved are kept, so their cells are valid;
 * the row's own money and margins are read and checked per row. Maps of maps, one level per cell (type and audit
 * trail checked in the entry), so no key is built per row and no cell can stand for another.
 */
class RowKeys {
  /** Selections by code, then region. */
  private readonly selections = new Map<string, Map<string, KeyedSelection>>();
  /** Rates by currency, then year. */
  private readonly rates = new Map<string, YearTable<KeyedRate>>();
  /**
   * Price changes by the region and product they are looked up with ({@link priceEntry}: a selection's price region,
   * and its one product, whose sector rates apply in the years that have them), then spend year cell: one table for
   * all the selections of a region (or product), so a row's price change is found among a few hundred entries
   * rather than one per selection and year.
   */
  private readonly priceTables = new Map<string, YearTable<KeyedPrice>>();
  /** The entry of each price change, shared by the selections and years that have it. */
  private readonly prices = new Map<PriceEntry, KeyedPrice>();
  private entries = 0;
  /** The money and margins of the row being answered (reused: one per run). */
  readonly input: { -readonly [K in keyof SpendRowInput]: SpendRowInput[K] } = {
    money: 0,
    tax_margin: undefined,
    trade_margin: undefined,
    transport_margin: undefined,
    audit_trail: 'enabled',
  };

  /**
   * One string object per type, audit trail and region cell, which the entries and the region maps hold, and per
   * summary group: a row's cells are compared with a few strings in one place rather than each entry's own (a likely
   * cache miss per row), and the run summary finds a row's group by the very string it holds (the selections of one
   * code in many regions share it), without comparing the text.
   */
  private readonly texts = new Map<string, string>();

  canonical(text: string): string {
    let kept = this.texts.get(text);
    if (kept === undefined) this.texts.set(text, (kept = text));
    return kept;
  }

  /** Starts afresh once full (a ledger of more distinct cells than {@link MAX_ROW_KEYS}: rare, and still right). */
  private bound(): void {
    if (this.entries < MAX_ROW_KEYS) return;
    this.selections.clear();
    this.rates.clear();
    this.texts.clear();
    this.priceTables.clear();
    this.prices.clear();
    this.entries = 0;
  }

  /** The selection kept for a row's activity, region and audit trail cells. */
  selection(cells: RowCells): KeyedSelection | undefined {
    const keyed = this.selections.get(cells.code)?.get(cells.region);
    return keyed !== undefined && keyed.type === cells.type && keyed.audit === cells.audit
      ? keyed
      : undefined;
  }

  /** The rate kept for a row's currency and year cells. */
  rate(cells: RowCells): KeyedRate | undefined {
    return this.rates.get(cells.currency)?.get(cells.yearKey);
  }

  /**
   * Keeps the parts of a row that resolved, under its cells, into {@link rowKept}: the row's cells are then made on
   * the entries kept, as for the rows after it.
   */
  keep(cells: RowCells, resolved: ReturnType<typeof resolveSpend>): KeyedSelection {
    const { input, selection, rate, price } = resolved;
    this.bound();
    let keyed = this.selection(cells);
    if (keyed === undefined || keyed.selection !== selection) {
      let byRegion = this.selections.get(cells.code);
      if (byRegion === undefined)
        this.selections.set(cells.code, (byRegion = new Map<string, KeyedSelection>()));
      keyed = {
        type: this.canonical(cells.type),
        audit: this.canonical(cells.audit),
        auditTrail: input.audit_trail,
        selection,
        prices: this.priceTable(selection),
        cells: undefined,
        unit: '',
        factorCells: '',
        notices: '',
        selectionNotices: selection.selected.notices,
        codes: plainCodes(selection.selected.notices),
        category: '',
        marginNotices: undefined,
        marginNoticesCell: '',
        template: undefined,
        factor: Number.NaN,
        factorHigh: Number.NaN,
        factorLow: Number.NaN,
        unsupplied: undefined,
        shareHi: Number.NaN,
        shareLo: Number.NaN,
        unsuppliedCell: '',
        unsuppliedCodes: undefined,
      };
      byRegion.set(this.canonical(cells.region), keyed);
      this.entries += 1;
    }
    const keptPrice = this.keepPrice(keyed, cells.yearKey, price);
    let byYear = this.rates.get(cells.currency);
    if (byYear === undefined) this.rates.set(cells.currency, (byYear = new YearTable<KeyedRate>()));
    let keptRate = byYear.get(cells.yearKey);
    if (keptRate === undefined) {
      byYear.set(cells.yearKey, (keptRate = keyedRate(input.spend_year, rate)));
      this.entries += 1;
    }
    // A rate kept for the same cells is this one: a currency and year cell spell one rate.
    rowKept.selection = keyed;
    rowKept.rate = keptRate;
    rowKept.price = keptPrice;
    return keyed;
  }

  /** The price changes of a selection's region and product, by spend year cell. */
  private priceTable(selection: Selection): YearTable<KeyedPrice> {
    const key = `${selection.priceRegion}\u0000${selection.product ?? ''}`;
    let table = this.priceTables.get(key);
    if (table === undefined) this.priceTables.set(key, (table = new YearTable<KeyedPrice>()));
    return table;
  }

  /** Keeps a selection's price change for a year cell; gives the entry kept. */
  keepPrice(keyed: KeyedSelection, year: YearKey, price: PriceEntry): KeyedPrice {
    this.bound();
    let kept = keyed.prices.get(year);
    if (kept === undefined) {
      kept = this.prices.get(price);
      if (kept === undefined) {
        kept = keyedPrice(price);
        this.prices.set(price, kept);
      }
      keyed.prices.set(year, kept);
      this.entries += 1;
    }
    return kept;
  }
}

/** The cells of a CSV row that key its parts. */
interface RowCells {
  type: string;
  code: string;
  region: string;
  audit: string;
  currency: string;
  /** The spend year cell as a key ({@link yearKey}). */
  yearKey: YearKey;
}

/** A spend year cell as a map key: see {@link yearKey}. */
type YearKey = string | number;

/** The first year a {@link YearTable} holds in its array, and how many years from it. */
const FIRST_TABLE_YEAR = 2000;
const TABLE_YEARS = 48;

/**
 * Entries by spend year cell ({@link yearKey}): the years 2000–2047 in an array, any other cell in a map. A row's
 * lookup then reads one slot of an array its entry points to, where a map would reach its table and then the entry
 * (each a likely cache miss over a ledger's thousands of selections).
 *
 * @example
 * ```ts
 * const table = new YearTable<string>();
 * table.set(2019, 'a');
 * table.set('2019.0', 'b');
 * table.get(2019); // 'a'
 * ```
 */
export class YearTable<T> {
  private readonly years: Array<T | undefined> = new Array<T | undefined>(TABLE_YEARS).fill(undefined);
  private others: Map<YearKey, T> | undefined;

  get(key: YearKey): T | undefined {
    if (typeof key === 'number') {
      const slot = key - FIRST_TABLE_YEAR;
      if (slot >= 0 && slot < TABLE_YEARS) return this.years[slot];
    }
    return this.others?.get(key);
  }

  set(key: YearKey, value: T): void {
    if (typeof key === 'number') {
      const slot = key - FIRST_TABLE_YEAR;
      if (slot >= 0 && slot < TABLE_YEARS) {
        this.years[slot] = value;
        return;
      }
    }
    (this.others ??= new Map()).set(key, value);
  }
}

/**
 * A spend year cell as a map key: four ASCII digits as their number, any other cell as written. A map finds a small
 * integer by its value at once, where a digit string (a fresh one per row) has its hash worked out as an array index
 * on every lookup. Only four-digit cells become numbers, and each one a different number, so no two cells share a key.
 *
 * @example
 * ```ts
 * yearKey('2019'); // 2019
 * yearKey('0219'); // 219 (no other cell gives 219: '219' stays a string)
 * yearKey(' 2019'); // ' 2019'
 * ```
 */
export function yearKey(cell: string): YearKey {
  if (cell.length !== 4) return cell;
  const a = cell.charCodeAt(0) - 48;
  const b = cell.charCodeAt(1) - 48;
  const c = cell.charCodeAt(2) - 48;
  const d = cell.charCodeAt(3) - 48;
  // `>>> 0` turns a character below '0' (a negative digit) into a number above 9 as well.
  if (a >>> 0 > 9 || b >>> 0 > 9 || c >>> 0 > 9 || d >>> 0 > 9) return cell;
  return a * 1000 + b * 100 + c * 10 + d;
}

/** The activity of the row last given by {@link fastRowOf}, as its request spells it. */
let rowActivity: Record<string, unknown> = {};
/** The activity of a row answered from its key cells (reused). */
const keyedActivity = { classification_type: '', classification_code: '' };
/**
 * The kept parts the row last given by {@link fastRowOf} was answered from; all undefined where it was resolved
 * from its request.
 */
const rowKept: {
  selection: KeyedSelection | undefined;
  rate: KeyedRate | undefined;
  price: KeyedPrice | undefined;
} = { selection: undefined, rate: undefined, price: undefined };

/** The reused cells of the row being keyed. */
const rowCells: RowCells = { type: '', code: '', region: '', audit: '', currency: '', yearKey: '' };

/**
 * A CSV row's key cells, when they are text that may key its parts (a classified activity, no activity id); else
 * undefined (the row is then resolved from its request every time).
 */
function keyCells(values: Record<string, unknown>): RowCells | undefined {
  const { classification_type: type, classification_code: code, spend_region: region } = values;
  const { money_unit: currency, spend_year: year, audit_trail: audit, activity_id: activityId } = values;
  if (
    typeof type !== 'string' ||
    typeof code !== 'string' ||
    typeof region !== 'string' ||
    typeof currency !== 'string' ||
    typeof year !== 'string' ||
    (audit !== undefined && typeof audit !== 'string') ||
    (activityId !== undefined && activityId !== '')
  )
    return undefined;
  return rowCellsOf(type, code, region, currency, yearKey(year), audit ?? '');
}

/** {@link rowCells} with a row's key cells. */
function rowCellsOf(
  type: string,
  code: string,
  region: string,
  currency: string,
  year: YearKey,
  audit: string,
): RowCells {
  rowCells.type = type;
  rowCells.code = code;
  rowCells.region = region;
  rowCells.audit = audit;
  rowCells.currency = currency;
  rowCells.yearKey = year;
  return rowCells;
}

/** The column of each cell a row answered from its record's text reads (-1: not in the header). */
interface RecordLayout {
  readonly type: number;
  readonly code: number;
  readonly region: number;
  readonly currency: number;
  readonly year: number;
  readonly audit: number;
  readonly activityId: number;
  readonly money: number;
  readonly tax: number;
  readonly trade: number;
  readonly transport: number;
}

/** The columns of a header (the names the adapter reads) a record's row reads; undefined where a key cell's is missing. */
function recordLayout(header: readonly string[]): RecordLayout | undefined {
  const at = (name: string) => header.indexOf(name);
  const layout: RecordLayout = {
    type: at('classification_type'),
    code: at('classification_code'),
    region: at('spend_region'),
    currency: at('money_unit'),
    year: at('spend_year'),
    audit: at('audit_trail'),
    activityId: at('activity_id'),
    money: at('money'),
    tax: at('tax_margin'),
    trade: at('trade_margin'),
    transport: at('transport_margin'),
  };
  const { type, code, region, currency, year, money } = layout;
  return type < 0 || code < 0 || region < 0 || currency < 0 || year < 0 || money < 0 ? undefined : layout;
}

/**
 * The text of a record's cell in `column` (see recordFields), where it is not quoted; else undefined (a quoted key
 * or amount is read from the row's values). A column not in the header (-1) reads as `absent`.
 */
function plainCell(text: string, spans: Int32Array, column: number, absent?: string): string | undefined {
  if (column < 0) return absent;
  const start = spans[2 * column] as number;
  const end = spans[2 * column + 1] as number;
  if (end > start && text.charCodeAt(start) === 34 /* " */) return undefined;
  return text.slice(start, end);
}

/** A record's year cell as a key ({@link yearKey}): four digits read where they lie, any other cell as written. */
function yearKeyAt(text: string, spans: Int32Array, column: number): YearKey | undefined {
  const start = spans[2 * column] as number;
  if ((spans[2 * column + 1] as number) - start !== 4) return plainCell(text, spans, column);
  let year = 0;
  for (let index = start; index < start + 4; index++) {
    const digit = text.charCodeAt(index) - 48;
    if (digit >>> 0 > 9) return plainCell(text, spans, column);
    year = year * 10 + digit;
  }
  return year;
}

/** 10^k for the places of an amount {@link amountAt} reads: exact doubles. */
const TENS = Array.from({ length: 16 }, (_, places) => 10 ** places);

/**
 * A record's money or margin cell: its number where it is at most 15 digits with at most one point among or around
 * them (`1000`, `51929.99`, `0.140`, `5.`, `.5`), read where it lies (m / 10^k of two exact doubles is the one rounding
 * `Number` makes of the decimal, as strictNumber reads it); else its text (empty, a sign, an exponent, more digits, no
 * number), which readAmounts reads strictly; undefined for a quoted cell. With decimal commas always its text (a point
 * is then refused).
 */
function amountAt(
  text: string,
  spans: Int32Array,
  column: number,
  decimalComma: boolean | undefined,
): number | string | undefined {
  if (column < 0) return undefined;
  const start = spans[2 * column] as number;
  const end = spans[2 * column + 1] as number;
  if (decimalComma === true || end === start) return plainCell(text, spans, column);
  let coefficient = 0;
  let digits = 0;
  let point = -1;
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code === 46 /* . */ && point < 0) {
      point = index;
      continue;
    }
    const digit = code - 48;
    if (digit >>> 0 > 9 || digits === 15) return plainCell(text, spans, column);
    coefficient = coefficient * 10 + digit;
    digits += 1;
  }
  if (digits === 0) return plainCell(text, spans, column);
  const places = point < 0 ? 0 : end - point - 1;
  return places === 0 ? coefficient : coefficient / (TENS[places] as number);
}

/**
 * {@link keptCsvResult} for a record the output copies whole, from its text and its cells' bounds: the same cells
 * read where they lie in the text, without the row's values object. Undefined where a cell it reads is quoted, and
 * wherever keptCsvResult declines.
 */
function keptRecordResult(
  layout: RecordLayout,
  text: string,
  spans: Int32Array,
  decimalComma: boolean | undefined,
  basic: boolean,
  keys: RowKeys,
  datasets: SpendDatasets,
): CsvResult | undefined {
  const { activityId } = layout;
  if (activityId >= 0 && spans[2 * activityId] !== spans[2 * activityId + 1]) return undefined;
  const type = plainCell(text, spans, layout.type);
  const code = plainCell(text, spans, layout.code);
  const region = plainCell(text, spans, layout.region);
  const currency = plainCell(text, spans, layout.currency);
  const year = yearKeyAt(text, spans, layout.year);
  const audit = plainCell(text, spans, layout.audit, '');
  const money = amountAt(text, spans, layout.money, decimalComma);
  const tax = amountAt(text, spans, layout.tax, decimalComma);
  const trade = amountAt(text, spans, layout.trade, decimalComma);
  const transport = amountAt(text, spans, layout.transport, decimalComma);
  if (
    type === undefined ||
    code === undefined ||
    region === undefined ||
    currency === undefined ||
    year === undefined ||
    audit === undefined ||
    money === undefined ||
    (tax === undefined && layout.tax >= 0) ||
    (trade === undefined && layout.trade >= 0) ||
    (transport === undefined && layout.transport >= 0)
  )
    return undefined;
  const cells = rowCellsOf(type, code, region, currency, year, audit);
  return keptRowResult(cells, money, tax, trade, transport, decimalComma, basic, keys, datasets);
}

/**
 * A margin cell's number, as the request reads it (a number read from a record's text already: see amountAt);
 * undefined when empty; NaN when not one the fast path takes.
 */
function marginOf(cell: unknown, field: string, decimalComma: boolean | undefined): number | undefined {
  if (cell === undefined || cell === '') return undefined;
  const value = typeof cell === 'number' ? cell : strictNumber(cell as string, field, decimalComma);
  // Within 0..1 the request schema accepts every margin (a negative tax margin, a subsidy, takes the request path).
  return value >= 0 && value <= 1 ? value : Number.NaN;
}

/**
 * The money and margins of a CSV row whose key cells found their parts, into `keys.input`; false where the row is to
 * be read as a request (a credit note, a margin outside 0..1, margins given in part, a cell that is no number). A
 * cell is its text, or its number where it was read from a record's text already (amountAt).
 */
function readAmounts(
  moneyCell: unknown,
  taxCell: unknown,
  tradeCell: unknown,
  transportCell: unknown,
  decimalComma: boolean | undefined,
  input: RowKeys['input'],
): boolean {
  if (typeof moneyCell !== 'number' && (typeof moneyCell !== 'string' || moneyCell === '')) return false;
  let money: number;
  let tax: number | undefined;
  let trade: number | undefined;
  let transport: number | undefined;
  try {
    money = typeof moneyCell === 'number' ? moneyCell : strictNumber(moneyCell, 'money', decimalComma);
    tax = marginOf(taxCell, 'tax_margin', decimalComma);
    trade = marginOf(tradeCell, 'trade_margin', decimalComma);
    transport = marginOf(transportCell, 'transport_margin', decimalComma);
  } catch {
    // Left to the request, which says which cell is wrong as the generic path does.
    return false;
  }
  if (!(money >= 0 && money <= MAX_QUANTITY) || Object.is(money, -0)) return false;
  const none = tax === undefined && trade === undefined && transport === undefined;
  // NaN fails both comparisons: a margin outside 0..1.
  const all = (tax as number) >= 0 && (trade as number) >= 0 && (transport as number) >= 0;
  if (!none && !all) return false;
  input.money = money;
  input.tax_margin = tax;
  input.trade_margin = trade;
  input.transport_margin = transport;
  return true;
}

/** Whether {@link fastRowOf} is resolving a request: what it throws then, {@link RowAdapter.compute} would throw too. */
let resolving = false;

/**
 * The calculator's fast row for CSV values: from the parts kept under the row's cells where they are all found
 * (the row's money and margins read and checked here), else from its request, validated and resolved (its parts
 * then kept). Undefined where either declines; throws what reading or resolving the request throws.
 */
function fastRowOf(
  values: Record<string, unknown>,
  source: FileFormat,
  decimalComma: boolean | undefined,
  datasets: SpendDatasets,
  keys: RowKeys,
): FastSpendRow | undefined {
  const cells = source === 'csv' ? keyCells(values) : undefined;
  if (cells !== undefined) {
    const keyed = keys.selection(cells);
    const rate = keyed === undefined ? undefined : keys.rate(cells);
    if (keyed !== undefined && rate !== undefined) {
      const { input } = keys;
      const { money, tax_margin: tax, trade_margin: trade, transport_margin: transport } = values;
      if (!readAmounts(money, tax, trade, transport, decimalComma, input)) return undefined;
      input.audit_trail = keyed.auditTrail;
      keyedActivity.classification_type = cells.type;
      keyedActivity.classification_code = cells.code;
      rowActivity = keyedActivity;
      const kept = keptPrice(keys, keyed, cells.yearKey, rate.year, datasets);
      if (kept === undefined) return undefined;
      rowKept.selection = keyed;
      rowKept.rate = rate;
      rowKept.price = kept;
      const row = fastSpendRowOf(input, keyed.selection, rate.rate, kept.price, datasets, keyed.template);
      if (row !== undefined) keyed.template = row.template;
      return row;
    }
  }
  rowKept.selection = undefined;
  rowKept.rate = undefined;
  rowKept.price = undefined;
  const request = spendRequest(values, source, decimalComma);
  if (typeof request.money === 'number' && request.money < 0) return undefined;
  resolving = true;
  const resolved = resolveSpend(request, datasets);
  resolving = false;
  rowActivity = request.activity;
  if (cells === undefined)
    return fastSpendRowOf(resolved.input, resolved.selection, resolved.rate, resolved.price, datasets);
  const keyed = keys.keep(cells, resolved);
  const row = fastSpendRowOf(resolved.input, resolved.selection, resolved.rate, resolved.price, datasets);
  if (row !== undefined) keyed.template = row.template;
  return row;
}

/** The exchange rate's cells (`rate,year`), per rate. */
function rateText(rate: RateEntry): string {
  let text = rateCells.get(rate);
  if (text === undefined) {
    text = `${numberCell(rate.number)},${numberCell(rate.exchange.rateYear)}`;
    rateCells.set(rate, text);
  }
  return text;
}

/** The inflation cell and the empty energy cell (`,0.1,,`), per price change. */
function priceText(price: PriceEntry): string {
  let text = priceCells.get(price);
  if (text === undefined) {
    text = `,${numberCell(price.applied)},,`;
    priceCells.set(price, text);
  }
  return text;
}

/** The notices cell of a row: its selection's notices, then its rate's, margins' and price change's. */
const noticesOf = (
  selection: readonly Notice[],
  rate: readonly Notice[],
  margins: readonly Notice[],
  price: readonly Notice[],
): string => noticesCell([...selection, ...rate, ...margins, ...price]);

/** The notices cell of a row whose rate, margins or price change add notices to its selection's. */
const rowNoticesCell = (row: FastSpendRow, marginNotices: readonly Notice[]): string =>
  noticesOf(row.selectionNotices, row.rate.exchange.notices, marginNotices, row.price.prices.notices);

/**
 * A spend row's result cells as the CSV writer writes {@link spendOutcome}'s columns, from the calculator's fast row
 * ({@link fastRowOf}): the cells of each cached part (selection, exchange rate, margins, price change) made once per
 * part, only the row's two numbers written per row. Undefined where the calculator's fast path declines, for a credit
 * note, and for any row that fails (then {@link RowAdapter.compute} reports it).
 */
function spendCsvResult(
  values: Record<string, unknown>,
  source: FileFormat,
  decimalComma: boolean | undefined,
  datasets: SpendDatasets,
  keys: RowKeys,
): CsvResult | undefined {
  let row: FastSpendRow | undefined;
  resolving = false;
  try {
    row = fastRowOf(values, source, decimalComma, datasets, keys);
  } catch (error) {
    // A request that does not resolve fails here as compute would fail it, since compute resolves the same request
    // first: thrown, rather than resolved a second time by compute (a ledger's failing rows can be half of it).
    if (resolving) throw error;
    return undefined;
  }
  if (row === undefined) return undefined;
  const { rate, price } = row;
  const keyed = rowKept.selection;
  let selection: SelectionCells;
  let category: string;
  let rateCell: string;
  let priceCell: string;
  if (keyed === undefined) {
    selection = selectionCellsOf(row, rowActivity);
    category = selection.category;
    rateCell = rateText(rate);
    priceCell = priceText(price);
  } else {
    // Answered from kept parts: their cells are on them (made on the first such row).
    let cells = keyed.cells;
    if (cells === undefined) {
      cells = keyed.cells = selectionCellsOf(row, rowActivity);
      keyed.unit = cells.unit;
      keyed.factorCells = cells.factorCells;
      keyed.notices = cells.notices;
      keyed.category = keys.canonical(cells.category);
      keyed.factor = row.template.factor;
      keyed.factorHigh = row.template.factorHigh;
      keyed.factorLow = row.template.factorLow;
    }
    const { unsupplied } = row;
    if (keyed.unsupplied === undefined && unsupplied?.share !== undefined) {
      // Kept for keptCsvResult, which answers the selection's later rows without margins from these.
      keyed.unsupplied = unsupplied;
      keyed.shareHi = unsupplied.share[0];
      keyed.shareLo = unsupplied.share[1];
      keyed.unsuppliedCell = unsuppliedText(unsupplied);
      keyed.marginNotices = unsupplied.applied.notices;
      keyed.unsuppliedCodes = plainCodes(unsupplied.applied.notices);
      keyed.marginNoticesCell = noticesOf(
        row.selectionNotices,
        NO_NOTICES,
        unsupplied.applied.notices,
        NO_NOTICES,
      );
    }
    selection = cells;
    category = keyed.category;
    rateCell = (rowKept.rate as KeyedRate).text;
    priceCell = (rowKept.price as KeyedPrice).text;
  }
  const marginNotices = row.unsupplied === undefined ? NO_NOTICES : row.unsupplied.applied.notices;
  let notices = selection.notices;
  const partsAdd = rate.exchange.notices.length !== 0 || price.prices.notices.length !== 0;
  if (!partsAdd && marginNotices.length !== 0) {
    if (keyed === undefined) notices = rowNoticesCell(row, marginNotices);
    else {
      if (keyed.marginNotices !== marginNotices) {
        keyed.marginNoticesCell = rowNoticesCell(row, marginNotices);
        keyed.marginNotices = marginNotices;
      }
      notices = keyed.marginNoticesCell;
    }
  } else if (partsAdd) notices = rowNoticesCell(row, marginNotices);
  const { unsupplied } = row;
  if (unsupplied === undefined) marginsCells(row.tax, row.trade, row.transport);
  else unsuppliedMarginsCells(unsuppliedText(unsupplied));
  return rowResult(row.co2e, row.activityValue, selection, rateCell, priceCell, notices, category);
}

/**
 * The reused {@link result} with a row's cells, all but the margins' (parts 5–7, which the caller has written): only
 * co2e, activity and uncached notices are made per row (see CsvResult.cells).
 */
function rowResult(
  co2e: number,
  activity: number,
  selection: Pick<SelectionCells, 'unit' | 'factorCells'>,
  rateCell: string,
  priceCell: string,
  notices: string,
  category: string,
): CsvResult {
  const co2eText = numberText(co2e);
  const parts = result.cells;
  parts[0] = plainDecimalText(co2eText);
  parts[1] = selection.unit;
  parts[2] = numberCell(activity);
  parts[3] = selection.factorCells;
  parts[4] = rateCell;
  parts[8] = priceCell;
  parts[9] = notices;
  result.co2e = co2e;
  result.co2eText = co2eText;
  result.groups.category = category;
  return result;
}

/**
 * {@link spendCsvResult} for a CSV row whose selection, rate and price change are kept with their numbers and cells
 * (made by an earlier row of the same selection answered on the fast path): the activity and co2e from the numbers
 * on the kept entries, so a row reaches three of them and no calculator object. The same arithmetic as
 * {@link fastSpendRowOf}'s on the same numbers; undefined wherever this or that path would decline, and then
 * {@link spendCsvResult} answers the row (or declines it) as before.
 */
function keptCsvResult(
  values: Record<string, unknown>,
  decimalComma: boolean | undefined,
  basic: boolean,
  keys: RowKeys,
  datasets: SpendDatasets,
): CsvResult | undefined {
  const cells = keyCells(values);
  if (cells === undefined) return undefined;
  const { money, tax_margin: tax, trade_margin: trade, transport_margin: transport } = values;
  return keptRowResult(cells, money, tax, trade, transport, decimalComma, basic, keys, datasets);
}

/** {@link keptCsvResult} of a row's key cells and its money and margin cells. */
function keptRowResult(
  cells: RowCells,
  moneyCell: unknown,
  taxCell: unknown,
  tradeCell: unknown,
  transportCell: unknown,
  decimalComma: boolean | undefined,
  basic: boolean,
  keys: RowKeys,
  datasets: SpendDatasets,
): CsvResult | undefined {
  const kept = keys.selection(cells);
  if (kept?.cells === undefined) return undefined;
  const rate = keys.rate(cells);
  if (rate === undefined || Number.isNaN(rate.hi)) return undefined;
  const price = keptPrice(keys, kept, cells.yearKey, rate.year, datasets);
  if (price === undefined || Number.isNaN(price.hi)) return undefined;
  const { input } = keys;
  if (!readAmounts(moneyCell, taxCell, tradeCell, transportCell, decimalComma, input)) return undefined;
  const { tax_margin: tax, trade_margin: trade, transport_margin: transport } = input;
  // readAmounts gives all three margins or none.
  const supplied = tax !== undefined;
  let shareHi = kept.shareHi;
  let shareLo = kept.shareLo;
  if (supplied) {
    if (!basic || !decidedShare(tax, trade as number, transport as number)) return undefined;
    shareHi = dd.hi;
    shareLo = dd.lo;
  } else if (kept.unsupplied === undefined) return undefined;
  const activity = decidedActivityOf(input.money, shareHi, shareLo, rate.hi, rate.lo, price.hi, price.lo);
  if (activity === undefined) return undefined;
  const co2e = factorCo2e(activity, kept.factor, kept.factorHigh, kept.factorLow);
  let notices = supplied ? kept.notices : kept.marginNoticesCell;
  if (!rate.quiet || !price.quiet) {
    const marginCodes = supplied ? '' : kept.unsuppliedCodes;
    const { codes } = kept;
    if (
      codes !== undefined &&
      rate.codes !== undefined &&
      marginCodes !== undefined &&
      price.codes !== undefined
    )
      notices = joinedCodes(joinedCodes(joinedCodes(codes, rate.codes), marginCodes), price.codes);
    else {
      const marginNotices = supplied ? NO_NOTICES : (kept.unsupplied as UnsuppliedMargins).applied.notices;
      notices = noticesOf(
        kept.selectionNotices,
        rate.rate.exchange.notices,
        marginNotices,
        price.price.prices.notices,
      );
    }
  }
  // A supplied margin is shown as its number (`+ 0`: -0 is shown as 0), as fastSpendRowOf gives it.
  if (supplied) marginsCells(tax + 0, (trade as number) + 0, (transport as number) + 0);
  else unsuppliedMarginsCells(kept.unsuppliedCell);
  return rowResult(co2e, activity, kept, rate.text, price.text, notices, kept.category);
}

/**
 * A kept selection's price change for a spend year cell: kept already, else found (the engine keeps price changes per
 * region, product and year, so a selection's first row of a year costs a lookup, not a row on the slow path) and
 * kept. Undefined where the price change cannot be made; {@link spendCsvResult} then answers or reports the row.
 */
function keptPrice(
  keys: RowKeys,
  keyed: KeyedSelection,
  year: YearKey,
  spendYear: number,
  datasets: SpendDatasets,
): KeyedPrice | undefined {
  const kept = keyed.prices.get(year);
  if (kept !== undefined) return kept;
  let price: PriceEntry;
  try {
    price = priceEntry(keyed.selection, spendYear, datasets);
  } catch {
    return undefined;
  }
  return keys.keepPrice(keyed, year, price);
}

/** The result {@link spendCsvResult} gives, reused: the pipeline reads it before asking for the next row's. */
const result = {
  // co2e, unit, activity, factor, rate, three margins, inflation, notices, and the empty error cells' commas.
  cells: ['', '', '', '', '', '', '', '', '', '', ',,,'],
  co2e: 0,
  co2eText: '',
  groups: { category: '' },
} satisfies CsvResult;

const NO_NOTICES: readonly Notice[] = [];
