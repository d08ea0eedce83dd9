import { deepFreeze } from '../core/freeze';
import { type Decimal, decimal, div, isNegative, toNumber } from '../core/decimal';
import { factorId } from '../core/factor-id';
import { DatasetError, type FilePosition } from '../datasets/errors';
import type { ClassificationsTable, DatasetInfo, SpendFactorsTable } from '../datasets/tables';
import { type DecimalCell, decimalCell } from './cells';
import { Problems } from './problems';
import { readNumber, splitLines, withoutBom } from './text';
import { checkedTable } from './validate';

/**
 * The GHG rows of EXIOBASE 3 `impacts/M.txt` this parser knows, with their GWP basis: the CML/IPCC 2007 (AR4)
 * row of 3.8 and the IPCC 2010 (AR5) row. Either may be selected; the other, where the file has it, becomes the
 * factor's `kgco2e_alt`.
 */
export const EXIOBASE_GHG_IMPACTS = /* @__PURE__ */ deepFreeze({
  'GHG emissions (GWP100) | Problem oriented approach: baseline (CML, 2001) | GWP100 (IPCC, 2007)': 'ar4',
  'GHG emissions AR5 (GWP100) | GWP100 (IPCC, 2010)': 'ar5',
} as const satisfies Record<string, 'ar4' | 'ar5'>);

/** The row read by default: the GWP100 (IPCC 2007) GHG row of EXIOBASE 3.8. */
export const EXIOBASE_DEFAULT_IMPACT =
  'GHG emissions (GWP100) | Problem oriented approach: baseline (CML, 2001) | GWP100 (IPCC, 2007)';

/** Input of {@link parseExiobaseRelease}. */
export interface ExiobaseReleaseInput {
  /** Text of `impacts/M.txt`: multipliers per impact (rows) and region × product (columns), per million EUR. */
  multipliers: string;
  /** Text of `x.txt`: total output `indout` per region and product, million EUR. */
  output: string;
  /** Year of the release (`IOT_<year>_pxp`): the factors' price year. */
  year: number;
  /**
   * EXIOBASE product codes → names (`p01.a` → `Paddy rice`), to key factors by code: the `products` of the
   * classifications table, e.g. `defaultTables.classifications.products` from `co2e-engine/datasets`.
   */
  products: Readonly<Record<string, string>>;
  /**
   * Release version (`3.8.2`), part of every factor id. Omitted: `content-` and a digest of the rows read, so
   * different files never share factor ids.
   */
  version?: string;
  /** Name of the M.txt row to read (default {@link EXIOBASE_DEFAULT_IMPACT}). */
  impact?: string;
  /** GWP basis of `impact`; required for a row not in {@link EXIOBASE_GHG_IMPACTS}. */
  gwp?: 'ar4' | 'ar5' | 'ar6';
  /**
   * Negative multipliers (EXIOBASE has a few, from negative inputs in the tables) cannot be spend factors.
   * `error` (default) refuses the release; `omit` leaves those factors out and lists them in `omitted`.
   */
  negative?: 'error' | 'omit';
  /** Activity ids by product code (e.g. the ids of the embedded factors); default `exiobase3p-<code>`. */
  activityIds?: Readonly<Record<string, string>>;
  /** Overrides of the generated dataset description (id, source, licence, attribution, ...). */
  dataset?: Partial<DatasetInfo>;
  /** File names for error messages (default `impacts/M.txt` and `x.txt`). */
  files?: { multipliers?: string; output?: string };
}

/** A multiplier left out because it was negative (with `negative: 'omit'`). */
export interface OmittedMultiplier {
  region: string;
  product: string;
  impact: string;
  /** The multiplier as written in M.txt, per million EUR. */
  multiplier: string;
}

/** Result of {@link parseExiobaseRelease}. */
export interface ExiobaseRelease {
  /** kg CO2e per EUR (basic price, EUR of `year`) for every region × product of M.txt. */
  spendFactors: SpendFactorsTable;
  /** Total output by region and product code, million EUR: the weights of means over several products. */
  weights: ClassificationsTable['weights'];
  weightsDescription: string;
  /** Regions of the release, in file order. */
  regions: string[];
  omitted: OmittedMultiplier[];
}

const MILLION = decimal(1_000_000);

/** A region × product column of M.txt. */
interface Column {
  region: string;
  product: string;
  name: string;
}

/** An impact row of M.txt read for the factors: its name and GWP basis, a cell per column. */
interface ImpactRow {
  name: string;
  gwp: 'ar4' | 'ar5' | 'ar6';
  cells: ReadonlyArray<DecimalCell | undefined>;
}

/** What M.txt gives: its columns, the impact row selected, the other GHG row if it has it, the text read. */
interface Multipliers {
  columns: Column[];
  selected: ImpactRow;
  alternative: ImpactRow | undefined;
  /** What the factors depend on, for a content version. */
  identity: string[];
}

/** What x.txt gives: output weights, and the line of each region × product. */
interface Output {
  weights: Record<string, Record<string, number>>;
  lines: Map<string, number>;
}

/** The settings of a release read, checked before any file is. */
interface ReleaseSettings {
  mFile: string;
  xFile: string;
  impact: string;
  /** The GWP basis of a known GHG row; undefined for another row. */
  knownGwp: 'ar4' | 'ar5' | undefined;
  gwp: 'ar4' | 'ar5' | 'ar6';
  codes: Map<string, string>;
}

type Factor = SpendFactorsTable['factors'][number];
const cellKey = (region: string, product: string) => `${region}\u0000${product}`;

/**
 * Spend factors from an EXIOBASE 3 product-by-product release: kg CO2e per EUR = the GHG multiplier of
 * `impacts/M.txt` (kg CO2e per million EUR) ÷ 1,000,000, in exact decimal arithmetic, for every region × product
 * in the file; and the output weights of `x.txt`.
 *
 * Layout read (as published on Zenodo, and as pymrio reads it): M.txt is tab-separated with two header rows,
 * `region` then `sector` (product names), one index column of impact names, one row per impact; x.txt is
 * tab-separated with the header `region sector indout`. Every M.txt column must have an x.txt row and the reverse.
 *
 * @example
 * ```ts
 * import { parseExiobaseRelease } from 'co2e-engine/loaders';
 * import { defaultTables } from 'co2e-engine/datasets';
 * const release = parseExiobaseRelease({ multipliers, output, year: 2022, version: '3.8.2',
 *   products: defaultTables.classifications.products });
 * release.spendFactors.factors.length; // 49 regions × 200 products
 * ```
 * @throws {@link DatasetError} naming the file, line and column: a layout that is not EXIOBASE's, an unknown product
 *   name, a missing impact row, a cell that is not a number, a negative multiplier (unless omitted), a region or
 *   product missing from one of the files.
 */
export function parseExiobaseRelease(input: ExiobaseReleaseInput): ExiobaseRelease {
  const settings = releaseSettings(input);
  const mProblems = new Problems(settings.mFile);
  const m = readMultipliers(withoutBom(input.multipliers), settings, mProblems);
  mProblems.throwIfAny();
  const xProblems = new Problems(settings.xFile);
  const x = readOutput(withoutBom(input.output), settings.codes, xProblems);
  checkSameCells(m.columns, x.lines, settings.mFile, xProblems);
  xProblems.throwIfAny();
  const { factors, positions, omitted } = releaseFactors(m, x, input, mProblems);
  mProblems.throwIfAny();
  const table = checkedTable(
    'spendFactors',
    {
      dataset: releaseDataset(input, settings, m),
      currency: 'eur',
      factor_year: input.year,
      price_basis: 'basic',
      gwp: settings.gwp,
      product_classification: 'exiobase3p',
      factors,
    },
    mProblems,
    (path) =>
      (path[0] === 'factors' && typeof path[1] === 'number' ? positions[path[1]] : undefined) ?? { line: 1 },
  );
  return {
    spendFactors: table,
    weights: x.weights,
    weightsDescription: `EXIOBASE ${input.version ?? '3'} IOT_${input.year}_pxp total output x (indout), million EUR (current ${input.year} basic prices)`,
    regions: [...new Set(m.columns.map((column) => column.region))],
    omitted,
  };
}

/** Read: the file names, the year, the impact row and its GWP basis, the product codes by name. */
function releaseSettings(input: ExiobaseReleaseInput): ReleaseSettings {
  const mFile = input.files?.multipliers ?? 'impacts/M.txt';
  const xFile = input.files?.output ?? 'x.txt';
  if (!Number.isInteger(input.year) || input.year < 1900 || input.year > 2200) {
    throw new DatasetError(mFile, '', `year must be a four-digit year, got ${String(input.year)}`);
  }
  const impact = input.impact ?? EXIOBASE_DEFAULT_IMPACT;
  const knownGwp = (EXIOBASE_GHG_IMPACTS as Record<string, 'ar4' | 'ar5'>)[impact];
  const gwp = input.gwp ?? knownGwp;
  if (gwp === undefined) {
    throw new DatasetError(
      mFile,
      '',
      `the GWP basis of impact ${JSON.stringify(impact)} is not known; pass gwp ('ar4', 'ar5' or 'ar6')`,
    );
  }
  return { mFile, xFile, impact, knownGwp, gwp, codes: productCodes(input.products, mFile) };
}

/** Table: the dataset description, versioned by the release or by the content read. */
function releaseDataset(input: ExiobaseReleaseInput, settings: ReleaseSettings, m: Multipliers): DatasetInfo {
  const { impact, knownGwp } = settings;
  const slug = knownGwp === undefined ? `impact-${factorId([impact]).slice(0, 8)}` : `ghg-${knownGwp}`;
  return {
    id: `exiobase-3-IOT_${input.year}_pxp-${slug}`,
    version: input.version ?? `content-${factorId([...m.identity, input.output]).slice(0, 16)}`,
    source: 'EXIOBASE',
    source_dataset: `EXIOBASE ${input.version ?? '3'} IOT_${input.year}_pxp, impacts/M.txt "${impact}" per million EUR / 1e6`,
    licence: 'CC-BY-SA-4.0',
    attribution:
      'EXIOBASE 3 (Stadler, K. et al. 2018, EXIOBASE 3: Developing a Time Series of Detailed Environmentally Extended ' +
      'Multi-Regional Input-Output Tables, J. Ind. Ecol. 22(3):502-515; data Zenodo 10.5281/zenodo.5589597), CC BY-SA 4.0.',
    ...input.dataset,
  };
}

/**
 * Check and aggregate: a factor per column, kg per EUR = multiplier ÷ 1e6, with the other GHG row's value as
 * `kgco2e_alt`; a negative multiplier is a problem, or with `negative: 'omit'` left out and listed.
 */
function releaseFactors(m: Multipliers, x: Output, input: ExiobaseReleaseInput, problems: Problems) {
  const omitted: OmittedMultiplier[] = [];
  const factors: Factor[] = [];
  const positions: FilePosition[] = [];
  const negative = (row: ImpactRow, column: Column, cell: DecimalCell, what: string): void => {
    if (input.negative === 'omit')
      omitted.push({
        region: column.region,
        product: column.product,
        impact: row.name,
        multiplier: cell.text,
      });
    else
      problems.add(
        cell.position,
        `negative multiplier ${cell.text} for ${column.region} ${column.product}; pass negative: 'omit' to leave such ${what} out`,
      );
  };
  m.columns.forEach((column, index) => {
    const cell = m.selected.cells[index];
    if (cell === undefined) return; // unreadable: a problem recorded already
    if (isNegative(cell.value)) return negative(m.selected, column, cell, 'factors');
    const other = m.alternative?.cells[index];
    let kgco2eAlt: Factor['kgco2e_alt'];
    if (m.alternative !== undefined && other !== undefined && !isNegative(other.value))
      kgco2eAlt = { [m.alternative.gwp]: perEuro(other.value) };
    else if (m.alternative !== undefined && other !== undefined)
      negative(m.alternative, column, other, 'values');
    factors.push({
      product: column.product,
      region: column.region,
      kgco2e: perEuro(cell.value),
      ...(kgco2eAlt && { kgco2e_alt: kgco2eAlt }),
      name: column.name,
      activity_id: input.activityIds?.[column.product] ?? `exiobase3p-${column.product}`,
      data_quality_flags: x.weights[column.region]?.[column.product] === 0 ? ['zero_output'] : [],
    });
    positions.push(cell.position);
  });
  return { factors, positions, omitted };
}

const perEuro = (perMillion: Decimal): number => toNumber(div(perMillion, MILLION));

/** Product name → code, refusing a name given to two codes (the lookup would be ambiguous). */
export function productCodes(products: Readonly<Record<string, string>>, file: string): Map<string, string> {
  const codes = new Map<string, string>();
  for (const [code, name] of Object.entries(products)) {
    const other = codes.get(name);
    if (other !== undefined)
      throw new DatasetError(
        file,
        '',
        `products: the name ${JSON.stringify(name)} is given to both ${other} and ${code}`,
      );
    codes.set(name, code);
  }
  if (codes.size === 0)
    throw new DatasetError(
      file,
      '',
      'products is empty; pass the EXIOBASE product codes and names (e.g. defaultTables.classifications.products)',
    );
  return codes;
}

/**
 * Read, select and observe M.txt: its region × product columns, the impact row asked for and (when a known GHG row
 * is asked for) the other known GHG row, each cell read exactly.
 */
function readMultipliers(text: string, settings: ReleaseSettings, problems: Problems): Multipliers {
  const lines = splitLines(text);
  const columns = multiplierColumns(lines, settings.codes, problems);
  const { impact, gwp } = settings;
  const selectedLine = impactLine(lines, impact);
  if (selectedLine < 0) {
    const ghgRows = lines
      .slice(2)
      .map((line) => line.slice(0, line.indexOf('\t')))
      .filter((name) => /GHG/i.test(name));
    problems.add(
      { line: 1 },
      `no impact row ${JSON.stringify(impact)}${ghgRows.length > 0 ? `; GHG rows in the file: ${ghgRows.map((name) => JSON.stringify(name)).join(', ')}` : ''}`,
    );
    problems.throwIfAny();
  }
  const selected = impactRow(lines, selectedLine, impact, gwp, columns.length, problems);
  // The other known GHG row, if the file has it, gives each factor its value under the other GWP basis.
  const otherName = Object.keys(EXIOBASE_GHG_IMPACTS).find(
    (name) => name !== impact && impact in EXIOBASE_GHG_IMPACTS,
  ) as keyof typeof EXIOBASE_GHG_IMPACTS | undefined;
  const otherLine = otherName === undefined ? -1 : impactLine(lines, otherName);
  const alternative =
    otherName !== undefined && otherLine >= 0
      ? impactRow(lines, otherLine, otherName, EXIOBASE_GHG_IMPACTS[otherName], columns.length, problems)
      : undefined;
  const identity = [lines[0] ?? '', lines[1] ?? '', lines[selectedLine] ?? '', lines[otherLine] ?? ''];
  return { columns, selected, alternative, identity };
}

/** The region × product columns of M.txt's two header rows; a layout that is not EXIOBASE's stops here. */
function multiplierColumns(lines: readonly string[], codes: ReadonlyMap<string, string>, problems: Problems) {
  const regions = (lines[0] ?? '').split('\t');
  const sectors = (lines[1] ?? '').split('\t');
  if (regions[0] !== 'region' || sectors[0] !== 'sector') {
    const line = regions[0] !== 'region' ? 1 : 2;
    problems.add(
      { line, column: 1 },
      `expected the EXIOBASE 3 layout: two header rows starting "region" and "sector", then one row per impact (got ${JSON.stringify((line === 1 ? regions : sectors)[0] ?? '')})`,
    );
    problems.throwIfAny();
  }
  if (sectors.length !== regions.length)
    problems.add({ line: 2 }, `the sector row has ${sectors.length} cells, the region row ${regions.length}`);
  const columns: Column[] = [];
  const seen = new Map<string, number>();
  for (let index = 1; index < regions.length; index++) {
    const region = (regions[index] ?? '').trim();
    const name = (sectors[index] ?? '').trim();
    if (!/^[A-Z]{2}$/.test(region))
      problems.add(
        { line: 1, column: index + 1 },
        `region ${JSON.stringify(region)} is not a two-letter EXIOBASE region code`,
      );
    const product = codes.get(name);
    if (product === undefined)
      problems.add(
        { line: 2, column: index + 1 },
        `unknown product name ${JSON.stringify(name)}; it is not in the products map`,
      );
    const first = seen.get(cellKey(region, product ?? name));
    if (first !== undefined)
      problems.add(
        { line: 2, column: index + 1 },
        `region ${region}, product ${JSON.stringify(name)} repeats column ${first}`,
      );
    seen.set(cellKey(region, product ?? name), index + 1);
    columns.push({ region, product: product ?? name, name });
  }
  return columns;
}

/** Select: the 0-based line of an impact row (after the two header rows), or -1. */
const impactLine = (lines: readonly string[], name: string): number =>
  lines.findIndex((line, index) => index >= 2 && line.slice(0, line.indexOf('\t')) === name);

/** Observations: an impact row's cells, one per column, each read exactly (a bad one recorded). */
function impactRow(
  lines: readonly string[],
  lineIndex: number,
  name: string,
  gwp: ImpactRow['gwp'],
  width: number,
  problems: Problems,
): ImpactRow {
  const cells = (lines[lineIndex] ?? '').split('\t');
  if (cells.length !== width + 1)
    problems.add({ line: lineIndex + 1 }, `the row has ${cells.length} cells, the header ${width + 1}`);
  const read = Array.from({ length: width }, (_, index) =>
    decimalCell(cells[index + 1] ?? '', { line: lineIndex + 1, column: index + 2 }, 'multiplier', problems),
  );
  return { name, gwp, cells: read };
}

/** Read x.txt: the output weights by region and product code, and the line of each. */
function readOutput(text: string, codes: ReadonlyMap<string, string>, problems: Problems): Output {
  const lines = splitLines(text);
  const header = (lines[0] ?? '').split('\t').map((cell) => cell.trim());
  const at = {
    region: header.indexOf('region'),
    sector: header.indexOf('sector'),
    indout: header.indexOf('indout'),
  };
  const output: Output = { weights: {}, lines: new Map() };
  if (at.region < 0 || at.sector < 0 || at.indout < 0) {
    problems.add(
      { line: 1 },
      `expected the EXIOBASE x.txt header "region, sector, indout" (tab-separated), got ${JSON.stringify(header.join(', '))}`,
    );
    return output;
  }
  lines.forEach((line, index) => {
    if (index > 0 && line.trim() !== '') outputRow(line.split('\t'), index + 1, at, codes, output, problems);
  });
  return output;
}

/** One row of x.txt into the weights: a known product, not repeated, its output a number of at least 0. */
function outputRow(
  cells: readonly string[],
  line: number,
  at: { region: number; sector: number; indout: number },
  codes: ReadonlyMap<string, string>,
  output: Output,
  problems: Problems,
): void {
  const region = (cells[at.region] ?? '').trim();
  const name = (cells[at.sector] ?? '').trim();
  const product = codes.get(name);
  const position = (column: number) => ({ line, column: column + 1 });
  if (product === undefined) {
    problems.add(
      position(at.sector),
      `unknown product name ${JSON.stringify(name)}; it is not in the products map`,
    );
    return;
  }
  const first = output.lines.get(cellKey(region, product));
  if (first !== undefined) {
    problems.add(position(at.region), `region ${region}, product ${product} repeats line ${first}`);
    return;
  }
  output.lines.set(cellKey(region, product), line);
  const result = readNumber(cells[at.indout] ?? '');
  if ('problem' in result) problems.add(position(at.indout), `indout ${result.problem}`);
  else if (result.value < 0)
    problems.add(position(at.indout), `indout ${result.value} is negative; output weights must be 0 or more`);
  else (output.weights[region] ??= {})[product] = result.value;
}

/** Check: every column of M.txt has a row in x.txt, and the reverse. */
function checkSameCells(
  columns: readonly Column[],
  outputLines: ReadonlyMap<string, number>,
  mFile: string,
  problems: Problems,
): void {
  for (const { region, product } of columns) {
    if (!outputLines.has(cellKey(region, product)))
      problems.add({ line: 1 }, `no output row for region ${region}, product ${product}, which ${mFile} has`);
  }
  const columnKeys = new Set(columns.map((column) => cellKey(column.region, column.product)));
  for (const [key, line] of outputLines) {
    if (!columnKeys.has(key))
      problems.add({ line }, `no column in ${mFile} for region ${key.replace('\u0000', ', product ')}`);
  }
}
