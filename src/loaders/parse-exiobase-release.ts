import { deepFreeze } from '../core/freeze';
import { type Decimal, decimal, div, isNegative, toNumber } from '../core/decimal';
import { factorId } from '../core/factor-id';
import { DatasetError } from '../datasets/errors';
import type { ClassificationsTable, DatasetInfo, SpendFactorsTable } from '../datasets/tables';
import { Problems } from './problems';
import { readNumber, splitLines, withoutBom } from './text';
import { validateTable } from './validate';

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

interface Column {
  region: string;
  product: string;
  name: string;
}

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
  const codes = productCodes(input.products, mFile);

  const mProblems = new Problems(mFile);
  const m = readMultipliers(withoutBom(input.multipliers), impact, codes, mProblems);
  mProblems.throwIfAny();
  const xProblems = new Problems(xFile);
  const x = readOutput(withoutBom(input.output), codes, xProblems);
  for (const { region, product } of m.columns) {
    if (!x.lines.has(`${region}\u0000${product}`)) {
      xProblems.add(
        { line: x.headerLine },
        `no output row for region ${region}, product ${product}, which ${mFile} has`,
      );
    }
  }
  const columnKeys = new Set(m.columns.map((column) => `${column.region}\u0000${column.product}`));
  for (const [key, line] of x.lines) {
    if (!columnKeys.has(key))
      xProblems.add({ line }, `no column in ${mFile} for region ${key.replace('\u0000', ', product ')}`);
  }
  xProblems.throwIfAny();

  const slug = knownGwp === undefined ? `impact-${factorId([impact]).slice(0, 8)}` : `ghg-${knownGwp}`;
  const version = input.version ?? `content-${factorId([...m.identity, input.output]).slice(0, 16)}`;
  const dataset: DatasetInfo = {
    id: `exiobase-3-IOT_${input.year}_pxp-${slug}`,
    version,
    source: 'EXIOBASE',
    source_dataset: `EXIOBASE ${input.version ?? '3'} IOT_${input.year}_pxp, impacts/M.txt "${impact}" per million EUR / 1e6`,
    licence: 'CC-BY-SA-4.0',
    attribution:
      'EXIOBASE 3 (Stadler, K. et al. 2018, EXIOBASE 3: Developing a Time Series of Detailed Environmentally Extended ' +
      'Multi-Regional Input-Output Tables, J. Ind. Ecol. 22(3):502-515; data Zenodo 10.5281/zenodo.5589597), CC BY-SA 4.0.',
    ...input.dataset,
  };

  const omitted: OmittedMultiplier[] = [];
  const factors: Array<SpendFactorsTable['factors'][number]> = [];
  const positions: Array<{ line: number; column: number }> = [];
  m.columns.forEach((column, index) => {
    const value = m.values[index] as { text: string; value: Decimal };
    if (isNegative(value.value)) {
      if (input.negative === 'omit')
        omitted.push({ region: column.region, product: column.product, impact, multiplier: value.text });
      else
        mProblems.add(
          m.position(index),
          `negative multiplier ${value.text} for ${column.region} ${column.product}; pass negative: 'omit' to leave such factors out`,
        );
      return;
    }
    let kgco2eAlt: Partial<Record<'ar4' | 'ar5', number>> | undefined;
    const alternative = m.alternative && {
      ...m.alternative,
      value: m.alternative.values[index] as { text: string; value: Decimal },
    };
    if (alternative !== undefined && !isNegative(alternative.value.value)) {
      kgco2eAlt = { [alternative.gwp]: perEuro(alternative.value.value) };
    } else if (alternative !== undefined) {
      const other = {
        region: column.region,
        product: column.product,
        impact: alternative.name,
        multiplier: alternative.value.text,
      };
      if (input.negative === 'omit') omitted.push(other);
      else
        mProblems.add(
          alternative.position(index),
          `negative multiplier ${other.multiplier} for ${column.region} ${column.product}; pass negative: 'omit' to leave such values out`,
        );
    }
    factors.push({
      product: column.product,
      region: column.region,
      kgco2e: perEuro(value.value),
      ...(kgco2eAlt && { kgco2e_alt: kgco2eAlt }),
      name: column.name,
      activity_id: input.activityIds?.[column.product] ?? `exiobase3p-${column.product}`,
      data_quality_flags: x.weights[column.region]?.[column.product] === 0 ? ['zero_output'] : [],
    });
    positions.push(m.position(index));
  });
  mProblems.throwIfAny();

  const table = validateTable(
    'spendFactors',
    {
      dataset,
      currency: 'eur',
      factor_year: input.year,
      price_basis: 'basic',
      gwp,
      product_classification: 'exiobase3p',
      factors,
    },
    mProblems,
    (path) =>
      path[0] === 'factors' && typeof path[1] === 'number'
        ? (positions[path[1]] ?? { line: 1 })
        : { line: 1 },
  );
  mProblems.throwIfAny();
  return {
    spendFactors: table as SpendFactorsTable,
    weights: x.weights,
    weightsDescription: `EXIOBASE ${input.version ?? '3'} IOT_${input.year}_pxp total output x (indout), million EUR (current ${input.year} basic prices)`,
    regions: [...new Set(m.columns.map((column) => column.region))],
    omitted,
  };
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

interface RowValues {
  values: Array<{ text: string; value: Decimal }>;
}

function readMultipliers(
  text: string,
  impact: string,
  codes: ReadonlyMap<string, string>,
  problems: Problems,
) {
  const lines = splitLines(text);
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
    const key = `${region}\u0000${product ?? name}`;
    const first = seen.get(key);
    if (first !== undefined)
      problems.add(
        { line: 2, column: index + 1 },
        `region ${region}, product ${JSON.stringify(name)} repeats column ${first}`,
      );
    seen.set(key, index + 1);
    columns.push({ region, product: product ?? name, name });
  }

  const rowLine = (name: string) =>
    lines.findIndex((line, index) => index >= 2 && line.slice(0, line.indexOf('\t')) === name);
  const selected = rowLine(impact);
  if (selected < 0) {
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
  const readRow = (lineIndex: number): RowValues => {
    const cells = (lines[lineIndex] ?? '').split('\t');
    if (cells.length !== regions.length)
      problems.add(
        { line: lineIndex + 1 },
        `the row has ${cells.length} cells, the header ${regions.length}`,
      );
    const values = columns.map((_, index) => {
      const text = (cells[index + 1] ?? '').trim();
      const result = readNumber(text);
      if ('problem' in result) {
        problems.add({ line: lineIndex + 1, column: index + 2 }, `multiplier ${result.problem}`);
        return { text, value: decimal(0) };
      }
      return { text, value: decimal(text) };
    });
    return { values };
  };
  const values = readRow(selected).values;
  // The other known GHG row, if the file has it, gives each factor its value under the other GWP basis.
  const otherName = Object.keys(EXIOBASE_GHG_IMPACTS).find(
    (name) => name !== impact && impact in EXIOBASE_GHG_IMPACTS,
  );
  const otherLine = otherName === undefined ? -1 : rowLine(otherName);
  const alternative =
    otherName !== undefined && otherLine >= 0
      ? {
          name: otherName,
          gwp: EXIOBASE_GHG_IMPACTS[otherName as keyof typeof EXIOBASE_GHG_IMPACTS],
          values: readRow(otherLine).values,
          position: (index: number) => ({ line: otherLine + 1, column: index + 2 }),
        }
      : undefined;
  return {
    columns,
    values,
    alternative,
    position: (index: number) => ({ line: selected + 1, column: index + 2 }),
    /** What the factors depend on, for a content version. */
    identity: [
      lines[0] ?? '',
      lines[1] ?? '',
      lines[selected] ?? '',
      otherLine >= 0 ? (lines[otherLine] ?? '') : '',
    ],
  };
}

function readOutput(text: string, codes: ReadonlyMap<string, string>, problems: Problems) {
  const lines = splitLines(text);
  const header = (lines[0] ?? '').split('\t').map((cell) => cell.trim());
  const at = {
    region: header.indexOf('region'),
    sector: header.indexOf('sector'),
    indout: header.indexOf('indout'),
  };
  const weights: Record<string, Record<string, number>> = {};
  const rowLines = new Map<string, number>();
  if (at.region < 0 || at.sector < 0 || at.indout < 0) {
    problems.add(
      { line: 1 },
      `expected the EXIOBASE x.txt header "region, sector, indout" (tab-separated), got ${JSON.stringify(header.join(', '))}`,
    );
    return { weights, lines: rowLines, headerLine: 1 };
  }
  lines.forEach((line, index) => {
    if (index === 0 || line.trim() === '') return;
    const cells = line.split('\t');
    const region = (cells[at.region] ?? '').trim();
    const name = (cells[at.sector] ?? '').trim();
    const product = codes.get(name);
    const position = (column: number) => ({ line: index + 1, column: column + 1 });
    if (product === undefined) {
      problems.add(
        position(at.sector),
        `unknown product name ${JSON.stringify(name)}; it is not in the products map`,
      );
      return;
    }
    const key = `${region}\u0000${product}`;
    const first = rowLines.get(key);
    if (first !== undefined) {
      problems.add(position(at.region), `region ${region}, product ${product} repeats line ${first}`);
      return;
    }
    rowLines.set(key, index + 1);
    const result = readNumber(cells[at.indout] ?? '');
    if ('problem' in result) problems.add(position(at.indout), `indout ${result.problem}`);
    else if (result.value < 0)
      problems.add(
        position(at.indout),
        `indout ${result.value} is negative; output weights must be 0 or more`,
      );
    else (weights[region] ??= {})[product] = result.value;
  });
  return { weights, lines: rowLines, headerLine: 1 };
}
