import {
  type Decimal,
  add,
  compare,
  decimal,
  div,
  isNegative,
  isPositive,
  mul,
  sub,
  toNumber,
  toPlainString,
  ZERO,
} from '../core/decimal';
import { factorId } from '../core/factor-id';
import { DatasetError, type FilePosition } from '../datasets/errors';
import type { ClassificationsTable, DatasetInfo, MarginsTable } from '../datasets/tables';
import { type CpaCode, finestCodes, parseCpaCode } from './cpa';
import { type DecimalCell, decimalCell } from './cells';
import { readCsv } from './csv';
import { Locations, Problems } from './problems';
import { splitLines, withoutBom } from './text';
import { checkedTable, requireOptions } from './validate';

/** The margins file formats `datasets build --margins` tells apart by their header. */
export type MarginsFormat = 'csv' | 'naio-tsv' | 'naio-sdmx-csv';

/**
 * The format of a margins file, from its first line: a plain margins CSV (`region,…`), Eurostat's TSV
 * (`freq,unit,…,geo\TIME_PERIOD` then one column per period) or Eurostat's SDMX-CSV (`DATAFLOW,LAST UPDATE,…` as
 * the data browser writes it, or `STRUCTURE,STRUCTURE_ID,…` of SDMX-CSV 2.0); undefined when it is none of them.
 *
 * @example
 * ```ts
 * detectMarginsFormat('freq,unit,stk_flow,ind_impv,prd_amo,geo\\TIME_PERIOD\t2019 \n'); // 'naio-tsv'
 * ```
 */
export function detectMarginsFormat(text: string): MarginsFormat | undefined {
  const first = (splitLines(withoutBom(text).slice(0, 4096))[0] ?? '').trim();
  const cell = first.split(/[\t,]/)[0]?.replace(/^"|"$/g, '') ?? '';
  if (/\\(TIME_PERIOD|time)$/i.test(first.split('\t')[0] ?? '')) return 'naio-tsv';
  if (/^(DATAFLOW|STRUCTURE)$/i.test(cell)) return 'naio-sdmx-csv';
  if (first.split(',').some((name) => name.trim().replace(/^"|"$/g, '') === 'region')) return 'csv';
  return undefined;
}

/** Options of {@link parseNaioMargins}. */
export interface ParseNaioMarginsOptions {
  /** Name of the file, for error messages (default `naio_10_cp15.tsv`). */
  file?: string;
  /** The year (`TIME_PERIOD`) to read; a file holds many. */
  year: number;
  /**
   * Eurostat gives trade and transport margins combined (`OTTM`). The fraction of them that is trade margin, from
   * 0 to 1: trade = share × OTTM / TS_PP, transport = (1 − share) × OTTM / TS_PP. Only the split between the two
   * depends on it; their sum, and so the basic price, does not. There is no default: say what you assume (1 puts
   * everything in trade).
   */
  tradeShare: number;
  /**
   * The regions to read, as Eurostat writes them (`EL`, `UK`) or as the engine does (`GR`, `GB`); each must be in
   * the file. Default: every country in the file (aggregates such as `EU27_2020` are left out and listed).
   */
  regions?: readonly string[];
  /** The `unit` rows to read (default `MIO_EUR`); a file may hold `MIO_NAC` too. Margins are ratios of one unit. */
  unit?: string;
  /**
   * The concordance: `mappings.nace2` of a classifications table (NACE Rev. 2 division → EXIOBASE products), e.g.
   * `defaultTables.classifications` of `co2e-engine/datasets`.
   */
  classifications: Pick<ClassificationsTable, 'mappings'>;
  /**
   * Each product row must satisfy TS_PP = TS_BP + D21X31 + OTTM within the rounding of its four published cells
   * (half a unit of each cell's last decimal) or, when larger, `tolerance` × |TS_PP| (default 0).
   */
  tolerance?: number;
  /** A row that breaks the check: `error` (default) refuses the file; `omit` leaves the row out and lists it. */
  inconsistent?: 'error' | 'omit';
  /** Version of the data (e.g. the file's last update); default `content-` and a digest of the cells read. */
  version?: string;
  /** Overrides of the generated dataset description. */
  dataset?: Partial<DatasetInfo>;
}

/** A product of the file that gave no margins, and why. */
export interface NaioLeftOut {
  region: string;
  /** The CPA code (`CPA_C10-12`). */
  code: string;
  line: number;
  reason:
    | 'aggregate' // finer codes of the same table cover it
    | 'not_published' // one of TS_BP, D21X31, OTTM, TS_PP is missing (`:`) for the year
    | 'no_product' // the concordance has no EXIOBASE product for its divisions
    | 'no_purchases' // TS_PP is 0 or less: nothing is bought at purchasers' prices to take fractions of
    | 'inconsistent'; // TS_PP ≠ TS_BP + D21X31 + OTTM (with inconsistent: 'omit')
}

/** Result of {@link parseNaioMargins}. */
export interface NaioMargins {
  margins: MarginsTable;
  /** Regions with margins (the engine's codes), sorted. */
  regions: string[];
  /** Geo codes of the file that are not countries (`EU27_2020`, `EA20`), left out. */
  aggregateGeos: string[];
  /** Products without margins from this file, and why. */
  leftOut: NaioLeftOut[];
  /**
   * (region, EXIOBASE product) whose OTTM is negative: the margin products (trade and transport services), whose
   * supply the table moves into other products' margins. Bought directly they carry no trade or transport margin,
   * so both are 0 (tax still D21X31 / TS_PP).
   */
  marginProducts: Array<{ region: string; product: string }>;
  /**
   * (region, EXIOBASE product) whose margins would leave no basic price (tax + trade + transport ≥ 1, as when the
   * taxes on a margin product exceed what is bought of it directly): left out, so requests get no default for them.
   */
  noBasicPrice: Array<{ region: string; product: string }>;
}

/** Eurostat geo codes that differ from ISO 3166-1 alpha-2, the engine's region codes. */
const EUROSTAT_GEO: Readonly<Record<string, string>> = { EL: 'GR', UK: 'GB' };
const regionOf = (geo: string) => EUROSTAT_GEO[geo] ?? geo;

/** The transformation rows read (`ind_impv`). */
const ITEMS = ['TS_BP', 'D21X31', 'OTTM', 'TS_PP'] as const;
type Item = (typeof ITEMS)[number];
const DIMENSIONS = ['unit', 'stk_flow', 'ind_impv', 'prd_amo', 'geo'] as const;

/** Observation status and confidentiality flags, current (2025) and earlier. */
const FLAG = /^[bcdefimnprsuzCNP]+$/;

/** A value cell not published for the year (`:`, `: c`, or empty). */
interface NotPublished {
  value: undefined;
  text: string;
  position: FilePosition;
}
/** A value cell: a number read exactly, or not published. */
type Cell = DecimalCell | NotPublished;

/** A country's cells of one product, by item, with the line that first named it. */
interface ProductCells {
  cpa: CpaCode;
  line: number;
  items: Partial<Record<Item, Cell>>;
}

interface Observation {
  dims: Record<(typeof DIMENSIONS)[number] | 'freq', string>;
  /** Position of the prd_amo code, for problems about it. */
  codeAt: FilePosition;
  cell: Cell;
}

/** The options checked, with their defaults. */
interface NaioSettings {
  file: string;
  year: number;
  unit: string;
  tradeShare: number;
  tolerance: number;
  nace2: Readonly<Record<string, readonly string[]>>;
  options: ParseNaioMarginsOptions;
}

/** The selected cells: by geo, by CPA code; and every geo of the selected rows. */
interface SelectedCells {
  byGeo: Map<string, Map<string, ProductCells>>;
  geos: Set<string>;
}

/** What the aggregation builds, region after region. */
interface MarginsBuild {
  margins: MarginsTable['margins'];
  locations: Locations;
  leftOut: NaioLeftOut[];
  marginProducts: NaioMargins['marginProducts'];
  noBasicPrice: NaioMargins['noBasicPrice'];
  /** The cells read, for a content version. */
  identity: string[];
}

/** Sums of the four items over the CPA products that reach one EXIOBASE product, and the first line. */
interface ProductSums {
  totals: Record<Item, Decimal>;
  line: number;
}

/**
 * Default margins from Eurostat's supply table at basic prices including the transformation into purchasers'
 * prices, `naio_10_cp15`, as downloaded: the TSV (`freq,unit,stk_flow,ind_impv,prd_amo,geo\TIME_PERIOD`, one
 * column per year, values such as `12.3 p` or `:`) or SDMX-CSV
 * (`DATAFLOW,LAST UPDATE,freq,…,TIME_PERIOD,OBS_VALUE,OBS_FLAG`). For each country and CPA product (rows `stk_flow` TOTAL, the chosen `unit` and year), as fractions of
 * purchaser's price: tax = D21X31 / TS_PP and trade + transport = OTTM / TS_PP, split by `tradeShare`.
 *
 * CPA products reach EXIOBASE products through their NACE Rev. 2 divisions and `classifications.mappings.nace2`;
 * an EXIOBASE product reached from several CPA products gets the ratio of their sums (Σ D21X31 / Σ TS_PP, …).
 * Aggregate codes beside their parts are left out (see `finestCodes`), as are countries' products not published
 * for the year; both are listed in `leftOut`.
 *
 * @example
 * ```ts
 * import { parseNaioMargins } from 'co2e-engine/loaders';
 * import { defaultTables } from 'co2e-engine/datasets';
 * const { margins, leftOut } = parseNaioMargins(tsvText, {
 *   file: 'naio_10_cp15.tsv', year: 2019, tradeShare: 0.8, classifications: defaultTables.classifications,
 * });
 * ```
 * @throws {@link DatasetError} naming the file, line and column: a header that is neither format, a missing dimension
 *   column, no column or rows for the year or unit, a value that is not a number or carries an unknown flag, a code
 *   that is not CPA 2.1, overlapping codes, a region not in the file or not a country, a row breaking
 *   TS_PP = TS_BP + D21X31 + OTTM (unless omitted), a repeated cell, a bad `tradeShare`.
 */
export function parseNaioMargins(text: string, options: ParseNaioMarginsOptions): NaioMargins {
  const settings = naioSettings(options);
  const problems = new Problems(settings.file);
  const observations = readObservations(text, settings, problems);
  const selected = selectCells(observations, settings, problems);
  const aggregateGeos = [...selected.geos].filter((geo) => !/^[A-Z]{2}$/.test(geo)).sort();
  const build: MarginsBuild = {
    margins: [],
    locations: new Locations(),
    leftOut: [],
    marginProducts: [],
    noBasicPrice: [],
    identity: [String(settings.year), settings.unit, String(settings.tradeShare)],
  };
  for (const geo of chosenGeos(selected.geos, settings)) {
    const byCode = selected.byGeo.get(geo) ?? new Map<string, ProductCells>();
    const sums = aggregateProducts(
      geo,
      finestProducts(geo, byCode, settings, build),
      settings,
      build,
      problems,
    );
    marginRows(regionOf(geo), sums, settings, build);
  }
  problems.throwIfAny();
  const margins = checkedTable(
    'margins',
    { dataset: naioDataset(settings, build.identity), margins: build.margins },
    problems,
    (path) => build.locations.find(path) ?? { line: 1 },
  );
  return {
    margins,
    regions: [...new Set(build.margins.map((each) => each.region))].sort(),
    aggregateGeos,
    leftOut: build.leftOut,
    marginProducts: build.marginProducts,
    noBasicPrice: build.noBasicPrice,
  };
}

/** The options, checked, with their defaults. */
function naioSettings(options: ParseNaioMarginsOptions): NaioSettings {
  const file =
    requireOptions(options, 'naio_10_cp15.tsv', '{ year, tradeShare, classifications }').file ??
    'naio_10_cp15.tsv';
  const { tradeShare, year } = options;
  if (!Number.isFinite(tradeShare) || tradeShare < 0 || tradeShare > 1)
    throw new DatasetError(file, '', `tradeShare must be a fraction from 0 to 1, got ${String(tradeShare)}`);
  if (!Number.isInteger(year))
    throw new DatasetError(file, '', `year must be a four-digit year, got ${String(year)}`);
  const tolerance = options.tolerance ?? 0;
  if (!Number.isFinite(tolerance) || tolerance < 0)
    throw new DatasetError(file, '', `tolerance must be 0 or more, got ${String(tolerance)}`);
  const nace2 = options.classifications.mappings.nace2;
  if (nace2 === undefined)
    throw new DatasetError(
      file,
      '',
      'the classifications table has no nace2 mappings to reach EXIOBASE products',
    );
  return { file, year, unit: options.unit ?? 'MIO_EUR', tradeShare, tolerance, nace2, options };
}

/** Read: the file's observations for the year, from either format. */
function readObservations(text: string, settings: NaioSettings, problems: Problems): Observation[] {
  const { file, year } = settings;
  const format = detectMarginsFormat(text);
  if (format !== 'naio-tsv' && format !== 'naio-sdmx-csv')
    throw new DatasetError(
      file,
      'line 1',
      'expected Eurostat naio_10_cp15 as TSV (first cell "freq,unit,stk_flow,ind_impv,prd_amo,geo\\TIME_PERIOD") or SDMX-CSV (first column DATAFLOW or STRUCTURE)',
      { line: 1 },
    );
  const observations =
    format === 'naio-tsv'
      ? tsvObservations(text, file, year, problems)
      : sdmxObservations(text, file, year, problems);
  problems.throwIfAny();
  return observations;
}

/**
 * Select: the rows of the unit and the total supply (a file without them is refused rather than another unit
 * read), by geo and CPA code, each item once.
 */
function selectCells(
  observations: readonly Observation[],
  settings: NaioSettings,
  problems: Problems,
): SelectedCells {
  const { file, unit, year } = settings;
  const units = new Set(observations.map((each) => each.dims.unit));
  const rows = observations.filter(
    (each) => each.dims.unit === unit && each.dims.stk_flow === 'TOTAL' && (each.dims.freq ?? 'A') === 'A',
  );
  if (rows.length === 0)
    throw new DatasetError(
      file,
      '',
      `no rows with unit ${unit}, stk_flow TOTAL for ${year}${units.size > 0 ? `; units in the file: ${[...units].sort().join(', ')}` : ''}`,
    );
  const selected: SelectedCells = { byGeo: new Map(), geos: new Set() };
  for (const { dims, codeAt, cell } of rows) {
    const { geo, prd_amo: code, ind_impv: item } = dims;
    selected.geos.add(geo);
    if (!isItem(item)) continue;
    const cpa = parseCpaCode(code);
    if (cpa === 'total') continue;
    if ('problem' in cpa) {
      problems.add(codeAt, `unknown product: ${cpa.problem}`);
      continue;
    }
    const byCode = selected.byGeo.get(geo) ?? new Map<string, ProductCells>();
    selected.byGeo.set(geo, byCode);
    const entry = byCode.get(code) ?? { cpa, line: cell.position.line, items: {} };
    byCode.set(code, entry);
    const before = entry.items[item];
    if (before !== undefined)
      problems.add(
        cell.position,
        `${item} for ${geo} ${code} ${year} given twice (first on line ${before.position.line})`,
      );
    entry.items[item] = cell;
  }
  problems.throwIfAny();
  return selected;
}

const isItem = (item: string): item is Item => (ITEMS as readonly string[]).includes(item);

/** Select: the countries asked for (Eurostat's or the engine's codes), each in the file; default every country. */
function chosenGeos(geos: ReadonlySet<string>, settings: NaioSettings): string[] {
  const { file, unit, year } = settings;
  const countries = [...geos].filter((geo) => /^[A-Z]{2}$/.test(geo)).sort();
  if (settings.options.regions === undefined) return countries;
  const wanted = new Map(settings.options.regions.map((region) => [regionOf(region), region]));
  const inFile = new Set(countries.map(regionOf));
  for (const [region, asked] of wanted) {
    if (!inFile.has(region))
      throw new DatasetError(
        file,
        '',
        /^[A-Z]{2}$/.test(region)
          ? `region ${asked} is not in the file for ${year} (${unit}); it has ${countries.join(', ') || 'no country'}`
          : `region ${asked} is not a country; margins are read per country (${countries.join(', ') || 'none in the file'})`,
      );
  }
  return countries.filter((geo) => wanted.has(regionOf(geo)));
}

/** Check: a country's finest CPA products (aggregates beside their parts left out and listed; overlaps refused). */
function finestProducts(
  geo: string,
  byCode: ReadonlyMap<string, ProductCells>,
  settings: NaioSettings,
  build: MarginsBuild,
): ProductCells[] {
  const finest = finestCodes([...byCode.values()].map((entry) => entry.cpa));
  const lineOf = (code: string) => byCode.get(code)?.line ?? 1;
  if ('overlap' in finest) {
    const [outer, inner] = finest.overlap;
    throw new DatasetError(
      settings.file,
      `line ${lineOf(outer.code)}`,
      `${geo}: ${outer.code} and ${inner.code} overlap${finest.uncovered.length > 0 ? `, and the finer codes do not cover divisions ${finest.uncovered.join(', ')} of ${outer.code}` : ''}; the purchases would be counted twice or not at all`,
      { line: lineOf(outer.code) },
    );
  }
  const region = regionOf(geo);
  for (const aggregate of finest.aggregates)
    build.leftOut.push({ region, code: aggregate.code, line: lineOf(aggregate.code), reason: 'aggregate' });
  const kept = new Set(finest.kept);
  return [...byCode.values()].filter((entry) => kept.has(entry.cpa));
}

/**
 * Check and aggregate: each product's four cells published and consistent (TS_PP = TS_BP + D21X31 + OTTM within
 * rounding or `tolerance`), something bought, an EXIOBASE product reached; then summed per EXIOBASE product.
 */
function aggregateProducts(
  geo: string,
  products: readonly ProductCells[],
  settings: NaioSettings,
  build: MarginsBuild,
  problems: Problems,
): Map<string, ProductSums> {
  const region = regionOf(geo);
  const sums = new Map<string, ProductSums>();
  for (const entry of products) {
    const leaveOut = (reason: NaioLeftOut['reason']) =>
      build.leftOut.push({ region, code: entry.cpa.code, line: entry.line, reason });
    const cells = publishedItems(entry.items);
    if (cells === undefined) {
      leaveOut('not_published');
      continue;
    }
    const inconsistency = checkConsistent(cells, settings);
    if (inconsistency !== undefined && settings.options.inconsistent === 'omit') leaveOut('inconsistent');
    else if (inconsistency !== undefined)
      problems.add(
        cells.TS_PP.position,
        `${geo} ${entry.cpa.code}: ${inconsistency}; pass inconsistent: 'omit' to leave such rows out`,
      );
    if (inconsistency !== undefined) continue;
    if (!isPositive(cells.TS_PP.value)) {
      leaveOut('no_purchases');
      continue;
    }
    const exiobase = [...new Set(entry.cpa.divisions.flatMap((division) => settings.nace2[division] ?? []))];
    if (exiobase.length === 0) {
      leaveOut('no_product');
      continue;
    }
    build.identity.push(geo, entry.cpa.code, ...ITEMS.map((item) => cells[item].text));
    for (const product of exiobase) {
      const sum = sums.get(product) ?? {
        totals: { TS_BP: ZERO, D21X31: ZERO, OTTM: ZERO, TS_PP: ZERO },
        line: entry.line,
      };
      for (const item of ITEMS) sum.totals[item] = add(sum.totals[item], cells[item].value);
      sums.set(product, sum);
    }
  }
  return sums;
}

/** The four cells of a product when all are published, else undefined. */
function publishedItems(items: Partial<Record<Item, Cell>>): Record<Item, DecimalCell> | undefined {
  const { TS_BP, D21X31, OTTM, TS_PP } = items;
  if (!isPublished(TS_BP) || !isPublished(D21X31) || !isPublished(OTTM) || !isPublished(TS_PP))
    return undefined;
  return { TS_BP, D21X31, OTTM, TS_PP };
}

const isPublished = (cell: Cell | undefined): cell is DecimalCell => cell?.value !== undefined;

/**
 * Why TS_PP ≠ TS_BP + D21X31 + OTTM beyond the rounding of the four cells (half a unit of each one's last decimal)
 * or, when larger, `tolerance` × |TS_PP|; undefined when it holds.
 */
function checkConsistent(cells: Record<Item, DecimalCell>, settings: NaioSettings): string | undefined {
  const { TS_BP: basic, D21X31: tax, OTTM: margin, TS_PP: purchaser } = cells;
  const difference = sub(purchaser.value, add(add(basic.value, tax.value), margin.value));
  const rounding = ITEMS.reduce((allowed, item) => add(allowed, halfUnit(cells[item].text)), ZERO);
  const relative = mul(decimal(settings.tolerance), abs(purchaser.value));
  const allowed = compare(rounding, relative) >= 0 ? rounding : relative;
  if (compare(abs(difference), allowed) <= 0) return undefined;
  return `TS_PP ${purchaser.text} ≠ TS_BP ${basic.text} + D21X31 ${tax.text} + OTTM ${margin.text} (off by ${toPlainString(difference)}, allowed ${toPlainString(allowed)})`;
}

/**
 * Table: a margins row per EXIOBASE product, in code order: tax = ΣD21X31 / ΣTS_PP, trade + transport = ΣOTTM /
 * ΣTS_PP split by the trade share (0 for the margin products, whose OTTM is negative); a product left without a
 * basic price is listed instead.
 */
function marginRows(
  region: string,
  sums: ReadonlyMap<string, ProductSums>,
  settings: NaioSettings,
  build: MarginsBuild,
): void {
  const byCode = [...sums.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [product, { totals, line }] of byCode) {
    const tradeAndTransport = isNegative(totals.OTTM) ? ZERO : div(totals.OTTM, totals.TS_PP);
    const tax = div(totals.D21X31, totals.TS_PP);
    if (!isPositive(sub(decimal(1), add(tax, tradeAndTransport)))) {
      build.noBasicPrice.push({ region, product });
      continue;
    }
    if (isNegative(totals.OTTM)) build.marginProducts.push({ region, product });
    const trade = mul(tradeAndTransport, decimal(settings.tradeShare));
    build.locations.set(['margins', build.margins.length], { line });
    build.margins.push({
      region,
      product,
      tax_margin: toNumber(tax),
      trade_margin: toNumber(trade),
      transport_margin: toNumber(sub(tradeAndTransport, trade)),
    });
  }
}

/** Table: the dataset description, versioned by the options or by the cells read. */
function naioDataset(settings: NaioSettings, identity: readonly string[]): DatasetInfo {
  const { year, unit, tradeShare, options } = settings;
  return {
    id: `eurostat-naio_10_cp15-${year}`,
    version: options.version ?? `content-${factorId(identity).slice(0, 16)}`,
    source: 'Eurostat',
    source_dataset:
      `Eurostat naio_10_cp15 ${year} (${unit}): tax = D21X31/TS_PP, trade = ${tradeShare} × OTTM/TS_PP, ` +
      `transport = ${toNumber(sub(decimal(1), decimal(tradeShare)))} × OTTM/TS_PP; CPA → EXIOBASE by NACE Rev. 2 division`,
    licence: 'CC-BY-4.0',
    attribution:
      "Eurostat, Supply table at basic prices incl. transformation into purchasers' prices (naio_10_cp15), " +
      '© European Union, reused under CC BY 4.0 (Commission Decision 2011/833/EU).',
    ...options.dataset,
  };
}

const abs = (value: Decimal): Decimal => (isNegative(value) ? sub(ZERO, value) : value);

/** Half a unit of the last decimal written (`12.3` → 0.05, `12` → 0.5): how far rounding may have moved it. */
function halfUnit(text: string): Decimal {
  const fraction = /\.(\d+)/.exec(text.split(/[eE]/)[0] ?? '')?.[1]?.length ?? 0;
  const exponent = Number(/[eE]([+-]?\d+)$/.exec(text)?.[1] ?? 0);
  return mul(decimal(0.5), decimal(`1e${exponent - fraction}`));
}

/** A value cell: `12.3`, `12.3 p`, `:`, `: c`; undefined value when not published. */
function readValue(raw: string, position: FilePosition, problems: Problems): Cell | undefined {
  const trimmed = raw.trim();
  const match = /^(\S+)(?:\s+(\S+))?$/.exec(trimmed);
  const [value, flags] = match === null ? [trimmed, undefined] : [match[1] as string, match[2]];
  if (match === null || (flags !== undefined && !FLAG.test(flags))) {
    problems.add(
      position,
      `${JSON.stringify(trimmed)}: unknown flag ${JSON.stringify(flags ?? trimmed)}; Eurostat flags are letters among b c d e f i m n p r s u z C N P`,
    );
    return undefined;
  }
  if (value === ':' || value === '') return { value: undefined, text: value, position };
  return decimalCell(value, position, 'value', problems);
}

function tsvObservations(text: string, file: string, year: number, problems: Problems): Observation[] {
  const lines = splitLines(withoutBom(text));
  const header = (lines[0] ?? '').split('\t');
  const dimensions = (header[0] ?? '')
    .replace(/\\[^\\]*$/, '')
    .split(',')
    .map((name) => name.trim());
  for (const name of DIMENSIONS)
    if (!dimensions.includes(name))
      problems.add(
        { line: 1, column: 1 },
        `missing dimension ${name}; naio_10_cp15 has freq,unit,stk_flow,ind_impv,prd_amo,geo (got ${dimensions.join(',')})`,
      );
  problems.throwIfAny();
  const periods = header.slice(1).map((cell) => cell.trim());
  const column = periods.indexOf(String(year)) + 1;
  if (column === 0)
    throw new DatasetError(
      file,
      'line 1',
      `no column for ${year}; the file has ${periods.join(', ') || 'none'}`,
      {
        line: 1,
      },
    );
  const observations: Observation[] = [];
  lines.forEach((line, index) => {
    if (index === 0 || line.trim() === '') return;
    const cells = line.split('\t');
    const keys = (cells[0] ?? '').split(',');
    if (keys.length !== dimensions.length) {
      problems.add(
        { line: index + 1, column: 1 },
        `the series key has ${keys.length} codes, the header ${dimensions.length} dimensions`,
      );
      return;
    }
    const dims = Object.fromEntries(
      dimensions.map((name, at) => [name, (keys[at] ?? '').trim()]),
    ) as Observation['dims'];
    const position = { line: index + 1, column: column + 1, columnName: String(year) };
    const cell = readValue(cells[column] ?? '', position, problems);
    if (cell !== undefined) observations.push({ dims, codeAt: { line: index + 1, column: 1 }, cell });
  });
  return observations;
}

function sdmxObservations(text: string, file: string, year: number, problems: Problems): Observation[] {
  const csv = readCsv(text, file);
  const at = (name: string) => csv.header.findIndex((cell) => cell.toLowerCase() === name.toLowerCase());
  const required = [...DIMENSIONS, 'TIME_PERIOD', 'OBS_VALUE'];
  const missing = required.filter((name) => at(name) < 0);
  if (missing.length > 0)
    throw new DatasetError(
      file,
      `line ${csv.headerLine}`,
      `missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of an SDMX-CSV naio_10_cp15 file (got ${csv.header.join(',')})`,
      { line: csv.headerLine },
    );
  const columns = Object.fromEntries([...DIMENSIONS, 'freq'].map((name) => [name, at(name)]));
  const [time, value, flag, confidential] = ['TIME_PERIOD', 'OBS_VALUE', 'OBS_FLAG', 'CONF_STATUS'].map(
    at,
  ) as [number, number, number, number];
  // With labels=both a cell reads `CPA_A01:Products of agriculture…`: the code is before the colon.
  const code = (cell: string | undefined) => (cell ?? '').split(':')[0]?.trim() ?? '';
  const observations: Observation[] = [];
  for (const row of csv.rows) {
    if (code(row.cells[time]) !== String(year)) continue;
    const dims = Object.fromEntries(
      Object.entries(columns)
        .filter(([, index]) => index >= 0)
        .map(([name, index]) => [name, code(row.cells[index])]),
    ) as Observation['dims'];
    const flags = [flag, confidential]
      .map((index) => (index >= 0 ? code(row.cells[index]) : ''))
      .filter((each) => each !== '')
      .join('');
    const raw = row.cells[value] ?? '';
    const position = { line: row.line, column: value + 1, columnName: 'OBS_VALUE' };
    const cell = readValue(`${raw === '' ? ':' : raw}${flags === '' ? '' : ` ${flags}`}`, position, problems);
    if (cell !== undefined)
      observations.push({
        dims,
        codeAt: {
          line: row.line,
          column: at('prd_amo') + 1,
          columnName: csv.header[at('prd_amo')],
        },
        cell,
      });
  }
  if (observations.length === 0 && problems.size === 0)
    throw new DatasetError(file, '', `no observations for ${year} (TIME_PERIOD)`);
  return observations;
}
