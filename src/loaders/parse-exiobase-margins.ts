import { deepFreeze } from '../core/freeze';
import { type Decimal, add, div, isNegative, isPositive, toNumber, ONE, sub, ZERO } from '../core/decimal';
import { DecimalSum } from '../core/decimal-sum';
import { factorId } from '../core/factor-id';
import { DatasetError } from '../datasets/errors';
import type { DatasetInfo, MarginsTable } from '../datasets/tables';
import { productCodes } from './parse-exiobase-release';
import { Locations, Problems } from './problems';
import { readNumber, splitLines, withoutBom } from './text';
import { checkedTable } from './validate';

/** The four tables read, in the layout of the MR-SUT `use.csv`. */
export const EXIOBASE_MARGIN_LAYERS = /* @__PURE__ */ deepFreeze([
  'use',
  'trade',
  'transport',
  'taxes',
] as const);
export type ExiobaseMarginLayer = (typeof EXIOBASE_MARGIN_LAYERS)[number];

/**
 * The file names {@link parseExiobaseMargins} assumes inside an EXIOBASE 3 MR-SUT release (`MRSUT_<year>.zip`).
 * `use.csv` is the release's use table at basic prices. The three valuation layers are **assumed** names: the
 * public 3.8.x MR-SUT zips we could find documented hold `supply.csv`, `use.csv`, `final_demand.csv` and
 * `value_added.csv` at basic prices; name your layer files so, or pass others to `loadExiobaseMargins`.
 */
export const EXIOBASE_MARGIN_FILES: Readonly<Record<ExiobaseMarginLayer, string>> =
  /* @__PURE__ */ deepFreeze({
    use: 'use.csv',
    trade: 'trade_margins.csv',
    transport: 'transport_margins.csv',
    taxes: 'taxes_less_subsidies.csv',
  });

/** Input of {@link parseExiobaseMargins}: the lines of each table (a string's lines, or lines read in a stream). */
export interface ExiobaseMarginsInput {
  /** Lines of the use table at basic prices and of the three layers, each in the layout of `use.csv`. */
  tables: Readonly<Record<ExiobaseMarginLayer, Iterable<string>>>;
  /** Year of the release (`MRSUT_<year>`). */
  year: number;
  /** EXIOBASE product codes → names, e.g. `defaultTables.classifications.products` of `co2e-engine/datasets`. */
  products: Readonly<Record<string, string>>;
  /** The regions to read (using regions); default all. */
  regions?: readonly string[];
  /** Release version (`3.8.2`); default `content-` and a digest of the totals. */
  version?: string;
  /** Overrides of the generated dataset description. */
  dataset?: Partial<DatasetInfo>;
  /** File names for error messages (default {@link EXIOBASE_MARGIN_FILES}). */
  files?: Partial<Record<ExiobaseMarginLayer, string>>;
}

/** Result of {@link parseExiobaseMargins}. */
export interface ExiobaseMargins {
  margins: MarginsTable;
  /** Using regions read, in file order. */
  regions: string[];
  /** (region, product) bought by no industry of the region (purchasers'-price total 0): no margins. */
  notPurchased: Array<{ region: string; product: string }>;
  /**
   * (region, product) whose trade or transport layer total is negative: the margin products, whose output the
   * layers move into other products' margins. Bought directly they carry no such margin: that margin is 0.
   */
  marginProducts: Array<{ region: string; product: string; layer: 'trade' | 'transport' }>;
  /** (region, product) whose margins would leave no basic price (basic total 0 or less): left out. */
  noBasicPrice: Array<{ region: string; product: string }>;
}

/**
 * Default margins from an EXIOBASE 3 multi-regional supply-use release: the use table at basic prices and its
 * valuation layers (trade margins, transport margins, taxes less subsidies on products), each a matrix of
 * (supplying region, product) rows × (using region, industry) columns in the layout of the release's `use.csv`
 * (tab-separated; two header rows giving each column's region and industry; two label cells per row, region and
 * product name; an optional row of index names). Per using region R and product p, summed over supplying regions
 * and R's industries: purchasers' price = basic + trade + transport + taxes, and each margin = its layer total /
 * purchasers' price. A product R's industries do not buy gets no margins (listed); a negative trade or transport
 * total (a margin product) is 0 (listed).
 *
 * @example
 * ```ts
 * import { parseExiobaseMargins } from 'co2e-engine/loaders';
 * import { defaultTables } from 'co2e-engine/datasets';
 * const lines = (text: string) => text.split('\n');
 * const { margins } = parseExiobaseMargins({
 *   tables: { use: lines(use), trade: lines(trade), transport: lines(transport), taxes: lines(taxes) },
 *   year: 2019, version: '3.8.2', products: defaultTables.classifications.products,
 * });
 * ```
 * @throws {@link DatasetError} naming the file, line and column: a header that is not this layout, an unknown product
 *   name, a layer whose rows or columns differ from the use table's, a cell that is not a number, a region asked
 *   for that is not in the tables.
 */
export function parseExiobaseMargins(input: ExiobaseMarginsInput): ExiobaseMargins {
  const files = { ...EXIOBASE_MARGIN_FILES, ...input.files };
  if (!Number.isInteger(input.year) || input.year < 1900 || input.year > 2200)
    throw new DatasetError(files.use, '', `year must be a four-digit year, got ${String(input.year)}`);
  const codes = productCodes(input.products, files.use);
  const totals = {} as Record<ExiobaseMarginLayer, Map<string, Decimal>>;
  let layout: Layout | undefined;
  for (const layer of EXIOBASE_MARGIN_LAYERS) {
    const read = readLayer(input.tables[layer], files[layer], codes, layout);
    layout ??= read.layout;
    totals[layer] = read.totals;
  }
  const { regions: allRegions, products, file: useFile } = layout as Layout;
  let regions = allRegions;
  if (input.regions !== undefined) {
    for (const region of input.regions)
      if (!allRegions.includes(region))
        throw new DatasetError(
          useFile,
          '',
          `region ${region} is not in the tables; they have ${allRegions.join(', ')}`,
        );
    regions = allRegions.filter((region) => input.regions?.includes(region));
  }

  const margins: MarginsTable['margins'] = [];
  const notPurchased: ExiobaseMargins['notPurchased'] = [];
  const marginProducts: ExiobaseMargins['marginProducts'] = [];
  const noBasicPrice: ExiobaseMargins['noBasicPrice'] = [];
  const identity: string[] = [String(input.year)];
  for (const region of regions) {
    for (const product of products) {
      const key = `${region}\u0000${product}`;
      const [basic, trade, transport, taxes] = EXIOBASE_MARGIN_LAYERS.map(
        (layer) => totals[layer].get(key) ?? ZERO,
      ) as [Decimal, Decimal, Decimal, Decimal];
      const purchaser = add(add(basic, trade), add(transport, taxes));
      identity.push(region, product, ...[basic, trade, transport, taxes].map(String));
      if (!isPositive(purchaser)) {
        notPurchased.push({ region, product });
        continue;
      }
      // A margin product: its negative layer is its own output moved into other products' margins.
      const [tradeShare, transportShare, taxShare] = [
        isNegative(trade) ? ZERO : div(trade, purchaser),
        isNegative(transport) ? ZERO : div(transport, purchaser),
        div(taxes, purchaser),
      ];
      if (!isPositive(sub(ONE, add(add(tradeShare, transportShare), taxShare)))) {
        noBasicPrice.push({ region, product });
        continue;
      }
      if (isNegative(trade)) marginProducts.push({ region, product, layer: 'trade' });
      if (isNegative(transport)) marginProducts.push({ region, product, layer: 'transport' });
      margins.push({
        region,
        product,
        tax_margin: toNumber(taxShare),
        trade_margin: toNumber(tradeShare),
        transport_margin: toNumber(transportShare),
      });
    }
  }
  const version = input.version ?? `content-${factorId(identity).slice(0, 16)}`;
  const dataset: DatasetInfo = {
    id: `exiobase-3-MRSUT_${input.year}-margins`,
    version,
    source: 'EXIOBASE',
    source_dataset:
      `EXIOBASE ${input.version ?? '3'} MRSUT_${input.year}: margins = valuation layer / (basic + layers) of ` +
      'intermediate use, per using region and product',
    licence: 'CC-BY-SA-4.0',
    attribution:
      'EXIOBASE 3 (Stadler, K. et al. 2018, J. Ind. Ecol. 22(3):502-515; data Zenodo 10.5281/zenodo.5589597), CC BY-SA 4.0.',
    ...input.dataset,
  };
  const problems = new Problems(useFile);
  const locations = new Locations();
  const table = checkedTable(
    'margins',
    { dataset, margins },
    problems,
    (path) => locations.find(path) ?? { line: 1 },
  );
  return { margins: table, regions, notPurchased, marginProducts, noBasicPrice };
}

interface Layout {
  file: string;
  /** Column regions and industries, as the header gives them. */
  header: [string, string];
  /** Row keys (region, product code) in order, joined, for comparing layers. */
  rows: string[];
  regions: string[];
  products: string[];
}

/** Totals per (using region, product code) of one table, summed over supplying regions and industries. */
function readLayer(
  lines: Iterable<string>,
  file: string,
  codes: ReadonlyMap<string, string>,
  expected: Layout | undefined,
): { layout: Layout; totals: Map<string, Decimal> } {
  const problems = new Problems(file);
  const sums = new Map<string, DecimalSum>();
  const rows: string[] = [];
  let columnRegions: string[] = [];
  const header: [string, string] = ['', ''];
  let lineNumber = 0;
  for (const raw of lines) {
    lineNumber++;
    const line = lineNumber === 1 ? withoutBom(raw) : raw;
    if (line.trim() === '') continue;
    const cells = line.replace(/\r$/, '').split('\t');
    if (lineNumber === 1 || lineNumber === 2) {
      const label = lineNumber === 1 ? 'region' : 'sector';
      if ((cells[0] ?? '').trim() !== label && (cells[1] ?? '').trim() !== label) {
        problems.add(
          { line: lineNumber, column: 1 },
          `expected the EXIOBASE use.csv layout: header rows "region" then "sector", each column's region and industry from the third cell (got ${JSON.stringify(cells[0] ?? '')})`,
        );
        problems.throwIfAny();
      }
      if (lineNumber === 1) {
        columnRegions = cells.slice(2).map((cell) => cell.trim());
        header[0] = cells.slice(2).join('\t');
        columnRegions.forEach((region, index) => {
          if (!/^[A-Z]{2}$/.test(region))
            problems.add(
              { line: 1, column: index + 3 },
              `region ${JSON.stringify(region)} is not a two-letter EXIOBASE region code`,
            );
        });
      } else header[1] = cells.slice(2).join('\t');
      continue;
    }
    // pandas writes a row of index names under a two-level header.
    if ((cells[0] ?? '').trim() === 'region' && cells.slice(2).every((cell) => cell.trim() === '')) continue;
    const region = (cells[0] ?? '').trim();
    const name = (cells[1] ?? '').trim();
    const product = codes.get(name);
    if (product === undefined) {
      problems.add(
        { line: lineNumber, column: 2 },
        `unknown product name ${JSON.stringify(name)}; it is not in the products map`,
      );
      continue;
    }
    if (cells.length !== columnRegions.length + 2) {
      problems.add(
        { line: lineNumber },
        `the row has ${cells.length} cells, the header ${columnRegions.length + 2}`,
      );
      continue;
    }
    rows.push(`${region}\u0000${product}`);
    for (let index = 2; index < cells.length; index++) {
      const text = (cells[index] as string).trim();
      // Most cells of a multi-regional table are 0: skip them before any arithmetic.
      if (text === '0' || text === '0.0' || text === '0.0e+00') continue;
      const key = `${columnRegions[index - 2]}\u0000${product}`;
      let sum = sums.get(key);
      if (sum === undefined) {
        sum = new DecimalSum();
        sums.set(key, sum);
      }
      if (!sum.add(text)) {
        const number = readNumber(text);
        problems.add(
          { line: lineNumber, column: index + 1 },
          `cell ${'problem' in number ? number.problem : `${JSON.stringify(text)} is not a number`}`,
        );
      }
    }
  }
  if (lineNumber < 2) problems.add({ line: 1 }, 'empty file; expected the EXIOBASE use.csv layout');
  problems.throwIfAny();
  const regions = [...new Set(columnRegions)];
  const products = [...new Set(rows.map((row) => row.split('\u0000')[1] as string))];
  const layout: Layout = { file, header, rows, regions, products };
  if (expected !== undefined) {
    if (header[0] !== expected.header[0] || header[1] !== expected.header[1])
      throw new DatasetError(file, 'line 1', `the columns differ from those of ${expected.file}`, {
        line: 1,
      });
    const differs = rows.findIndex((row, index) => row !== expected.rows[index]);
    if (differs >= 0 || rows.length !== expected.rows.length)
      throw new DatasetError(
        file,
        '',
        `the rows differ from those of ${expected.file} (from data row ${(differs >= 0 ? differs : Math.min(rows.length, expected.rows.length)) + 1})`,
      );
  }
  const totals = new Map([...sums].map(([key, sum]) => [key, sum.total()]));
  return { layout, totals };
}

/**
 * The lines of a text, for {@link ExiobaseMarginsInput} when the tables are in memory.
 *
 * @example
 * ```ts
 * parseExiobaseMargins({ tables: { use: textLines(use), trade: textLines(trade), transport: textLines(transport),
 *   taxes: textLines(taxes) }, year: 2019, products });
 * ```
 */
export const textLines = (text: string): string[] => splitLines(text);
