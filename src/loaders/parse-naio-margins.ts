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
import { readCsv } from './csv';
import { Locations, Problems } from './problems';
import { readNumber, splitLines, withoutBom } from './text';
import { validateTable } from './validate';

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

interface Cell {
  value: Decimal | undefined;
  text: string;
  position: FilePosition;
}

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
  const file = options.file ?? 'naio_10_cp15.tsv';
  const unit = options.unit ?? 'MIO_EUR';
  const { tradeShare } = options;
  if (!Number.isFinite(tradeShare) || tradeShare < 0 || tradeShare > 1)
    throw new DatasetError(file, '', `tradeShare must be a fraction from 0 to 1, got ${String(tradeShare)}`);
  if (!Number.isInteger(options.year))
    throw new DatasetError(file, '', `year must be a four-digit year, got ${String(options.year)}`);
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

  const problems = new Problems(file);
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
      ? tsvObservations(text, file, options.year, problems)
      : sdmxObservations(text, file, options.year, problems);
  problems.throwIfAny();

  // Keep the rows of the unit and the total supply; refuse a file without them rather than read another unit.
  const units = new Set(observations.map((each) => each.dims.unit));
  const selected = observations.filter(
    (each) => each.dims.unit === unit && each.dims.stk_flow === 'TOTAL' && (each.dims.freq ?? 'A') === 'A',
  );
  if (selected.length === 0)
    throw new DatasetError(
      file,
      '',
      `no rows with unit ${unit}, stk_flow TOTAL for ${options.year}${units.size > 0 ? `; units in the file: ${[...units].sort().join(', ')}` : ''}`,
    );

  // cells[geo][code][item]
  const cells = new Map<string, Map<string, ProductCells>>();
  const geos = new Set<string>();
  for (const observation of selected) {
    const { geo, prd_amo: code, ind_impv: item } = observation.dims;
    geos.add(geo);
    if (!(ITEMS as readonly string[]).includes(item)) continue;
    const cpa = parseCpaCode(code);
    if (cpa === 'total') continue;
    if ('problem' in cpa) {
      problems.add(observation.codeAt, `unknown product: ${cpa.problem}`);
      continue;
    }
    const byCode = cells.get(geo) ?? new Map<string, ProductCells>();
    cells.set(geo, byCode);
    const entry = byCode.get(code) ?? { cpa, line: observation.cell.position.line, items: {} };
    byCode.set(code, entry);
    const before = entry.items[item as Item];
    if (before !== undefined)
      problems.add(
        observation.cell.position,
        `${item} for ${geo} ${code} ${options.year} given twice (first on line ${before.position.line})`,
      );
    entry.items[item as Item] = observation.cell;
  }
  problems.throwIfAny();

  const countries = [...geos].filter((geo) => /^[A-Z]{2}$/.test(geo)).sort();
  const aggregateGeos = [...geos].filter((geo) => !/^[A-Z]{2}$/.test(geo)).sort();
  let chosen = countries;
  if (options.regions !== undefined) {
    const wanted = new Map(options.regions.map((region) => [regionOf(region), region]));
    const inFile = new Map(countries.map((geo) => [regionOf(geo), geo]));
    for (const [region, asked] of wanted) {
      if (!inFile.has(region))
        throw new DatasetError(
          file,
          '',
          /^[A-Z]{2}$/.test(region)
            ? `region ${asked} is not in the file for ${options.year} (${unit}); it has ${countries.join(', ') || 'no country'}`
            : `region ${asked} is not a country; margins are read per country (${countries.join(', ') || 'none in the file'})`,
        );
    }
    chosen = countries.filter((geo) => wanted.has(regionOf(geo)));
  }

  const leftOut: NaioLeftOut[] = [];
  const marginProducts: NaioMargins['marginProducts'] = [];
  const noBasicPrice: NaioMargins['noBasicPrice'] = [];
  const margins: MarginsTable['margins'] = [];
  const locations = new Locations();
  const identity: string[] = [String(options.year), unit, String(tradeShare)];
  for (const geo of chosen) {
    const region = regionOf(geo);
    const byCode = cells.get(geo) ?? new Map<string, ProductCells>();
    const finest = finestCodes([...byCode.values()].map((entry) => entry.cpa));
    if ('overlap' in finest) {
      const [outer, inner] = finest.overlap;
      throw new DatasetError(
        file,
        `line ${byCode.get(outer.code)?.line ?? 1}`,
        `${geo}: ${outer.code} and ${inner.code} overlap${finest.uncovered.length > 0 ? `, and the finer codes do not cover divisions ${finest.uncovered.join(', ')} of ${outer.code}` : ''}; the purchases would be counted twice or not at all`,
        { line: byCode.get(outer.code)?.line ?? 1 },
      );
    }
    for (const aggregate of finest.aggregates)
      leftOut.push({
        region,
        code: aggregate.code,
        line: byCode.get(aggregate.code)?.line ?? 1,
        reason: 'aggregate',
      });

    // Sums per EXIOBASE product over the CPA products that reach it.
    const sums = new Map<string, { totals: Record<Item, Decimal>; line: number }>();
    for (const cpa of finest.kept) {
      const entry = byCode.get(cpa.code) as { line: number; items: Partial<Record<Item, Cell>> };
      const values = ITEMS.map((item) => entry.items[item]);
      if (values.some((cell) => cell?.value === undefined)) {
        leftOut.push({ region, code: cpa.code, line: entry.line, reason: 'not_published' });
        continue;
      }
      const [basic, tax, margin, purchaser] = values as [Cell, Cell, Cell, Cell];
      const difference = sub(
        purchaser.value as Decimal,
        add(add(basic.value as Decimal, tax.value as Decimal), margin.value as Decimal),
      );
      const rounding = values.reduce((allowed, cell) => add(allowed, halfUnit((cell as Cell).text)), ZERO);
      const relative = mul(decimal(tolerance), abs(purchaser.value as Decimal));
      const allowed = compare(rounding, relative) >= 0 ? rounding : relative;
      if (compare(abs(difference), allowed) > 0) {
        if (options.inconsistent === 'omit') {
          leftOut.push({ region, code: cpa.code, line: entry.line, reason: 'inconsistent' });
          continue;
        }
        problems.add(
          purchaser.position,
          `${geo} ${cpa.code}: TS_PP ${purchaser.text} ≠ TS_BP ${basic.text} + D21X31 ${tax.text} + OTTM ${margin.text} (off by ${toPlainString(difference)}, allowed ${toPlainString(allowed)}); pass inconsistent: 'omit' to leave such rows out`,
        );
        continue;
      }
      if (!isPositive(purchaser.value as Decimal)) {
        leftOut.push({ region, code: cpa.code, line: entry.line, reason: 'no_purchases' });
        continue;
      }
      const products = [...new Set(cpa.divisions.flatMap((division) => nace2[division] ?? []))];
      if (products.length === 0) {
        leftOut.push({ region, code: cpa.code, line: entry.line, reason: 'no_product' });
        continue;
      }
      identity.push(geo, cpa.code, ...values.map((cell) => (cell as Cell).text));
      for (const product of products) {
        const sum = sums.get(product) ?? {
          totals: { TS_BP: ZERO, D21X31: ZERO, OTTM: ZERO, TS_PP: ZERO },
          line: entry.line,
        };
        ITEMS.forEach((item, index) => {
          sum.totals[item] = add(sum.totals[item], (values[index] as Cell).value as Decimal);
        });
        sums.set(product, sum);
      }
    }
    for (const [product, { totals, line }] of [...sums.entries()].sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    )) {
      const tradeAndTransport = isNegative(totals.OTTM) ? ZERO : div(totals.OTTM, totals.TS_PP);
      const tax = div(totals.D21X31, totals.TS_PP);
      if (!isPositive(sub(decimal(1), add(tax, tradeAndTransport)))) {
        noBasicPrice.push({ region, product });
        continue;
      }
      if (isNegative(totals.OTTM)) marginProducts.push({ region, product });
      const trade = mul(tradeAndTransport, decimal(tradeShare));
      locations.set(['margins', margins.length], { line });
      margins.push({
        region,
        product,
        tax_margin: toNumber(tax),
        trade_margin: toNumber(trade),
        transport_margin: toNumber(sub(tradeAndTransport, trade)),
      });
    }
  }
  problems.throwIfAny();

  const version = options.version ?? `content-${factorId(identity).slice(0, 16)}`;
  const dataset: DatasetInfo = {
    id: `eurostat-naio_10_cp15-${options.year}`,
    version,
    source: 'Eurostat',
    source_dataset:
      `Eurostat naio_10_cp15 ${options.year} (${unit}): tax = D21X31/TS_PP, trade = ${tradeShare} × OTTM/TS_PP, ` +
      `transport = ${toNumber(sub(decimal(1), decimal(tradeShare)))} × OTTM/TS_PP; CPA → EXIOBASE by NACE Rev. 2 division`,
    licence: 'CC-BY-4.0',
    attribution:
      "Eurostat, Supply table at basic prices incl. transformation into purchasers' prices (naio_10_cp15), " +
      '© European Union, reused under CC BY 4.0 (Commission Decision 2011/833/EU).',
    ...options.dataset,
  };
  const table = validateTable(
    'margins',
    { dataset, margins },
    problems,
    (path) => locations.find(path) ?? { line: 1 },
  );
  problems.throwIfAny();
  return {
    margins: table as MarginsTable,
    regions: [...new Set(margins.map((each) => each.region))].sort(),
    aggregateGeos,
    leftOut,
    marginProducts,
    noBasicPrice,
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
  const number = readNumber(value);
  if ('problem' in number) {
    problems.add(position, `value ${number.problem}`);
    return undefined;
  }
  return { value: decimal(value), text: value, position };
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
