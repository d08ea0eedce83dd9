/**
 * The spend ledger of `npm run bench:cli`: row `index` of a deterministic, varied ledger (codes at several levels,
 * regions, currencies, years, margins), as CSV text and as the request the CLI builds from it.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { passThroughColumns } from '../src/cli/formats/index';
import type { RecordText } from '../src/cli/formats/records';
import type { ChunkContext } from '../src/cli/pipeline/chunk';
import { CHUNK_ROWS } from '../src/cli/pipeline/chunker';
import { defaultDatasets, defaultTables } from '../src/embedded/index';
import { calculateSpend } from '../src/index';
import { drawFrom, seededRandom } from '../tests/fixtures/seeded-random';

export const CODES = ['4711', '62', 'F', '5110', '3510', '2410', '7020', '10', '6419', '86', '4321'];
export const PLACES = [
  ['DE', 'eur'],
  ['GB', 'gbp'],
  ['US', 'usd'],
  ['NO', 'nok'],
  ['BR', 'brl'],
] as const;

export const LEDGER_HEADER =
  'id,supplier,classification_type,classification_code,spend_year,spend_region,money,money_unit,tax_margin,trade_margin,transport_margin';

function fields(index: number) {
  const [region, currency] = PLACES[index % PLACES.length] as readonly [string, string];
  return {
    code: CODES[index % CODES.length] as string,
    year: 2019 + (index % 5),
    region,
    currency,
    money: (index % 9973) + 0.5,
  };
}

export function ledgerLine(index: number): string {
  const { code, year, region, currency, money } = fields(index);
  return `${index},"Supplier ${index % 113}, Ltd",isic4,${code},${year},${region},${money},${currency},0.19,0.1,0.02`;
}

export function ledgerRequest(index: number) {
  const { code, year, region, currency, money } = fields(index);
  return {
    activity: { classification_type: 'isic4' as const, classification_code: code },
    spend_year: year,
    spend_region: region,
    money,
    money_unit: currency,
    tax_margin: 0.19,
    trade_margin: 0.1,
    transport_margin: 0.02,
  };
}

/**
 * A varied ledger, as a real one is: every row draws its code (any ISIC code of the embedded mapping), region,
 * currency, year, amount and margins independently, so rows rarely repeat and the engine's caches see as many
 * distinct keys as the tables allow. Codes are drawn with a region they have a factor in, so rows succeed, as
 * most rows of a real ledger do.
 */
export interface VariedLedger {
  header: string;
  line(index: number): string;
}

/** The row index's own draws (bench/workload.ts's mulberry32): row `index` is the same in every run and file size. */
const draws = (index: number): (() => number) => seededRandom((index * 0x9e3779b1) >>> 0);

export function variedLedger(tables: {
  /** ISIC codes with the spend regions they have a factor in. */
  pairs: ReadonlyArray<readonly [code: string, region: string]>;
  currencies: readonly string[];
}): VariedLedger {
  return {
    header: LEDGER_HEADER,
    line(index) {
      const next = draws(index);
      const [code, region] = drawFrom(next, tables.pairs);
      const currency = drawFrom(next, tables.currencies).toLowerCase();
      const year = 2012 + Math.floor(next() * 14);
      const money = (next() * 100_000).toFixed(2);
      const margins =
        next() < 0.5
          ? ',,'
          : `${(next() * 0.2).toFixed(3)},${(next() * 0.2).toFixed(3)},${(next() * 0.05).toFixed(3)}`;
      return `${index},"Supplier ${index % 4099}, Ltd",isic4,${code},${year},${region},${money},${currency},${margins}`;
    },
  };
}

let ledger: (VariedLedger & { pairs: ReadonlyArray<readonly [string, string]> }) | undefined;
/**
 * The varied ledger over the embedded tables: every ISIC code with each region it has a factor in (`pairs`), every
 * currency.
 */
export function spendLedger(): VariedLedger & { pairs: ReadonlyArray<readonly [string, string]> } {
  if (ledger !== undefined) return ledger;
  // (code, region) pairs that have a factor, so rows succeed as most rows of a real ledger do.
  const codes = Object.keys(defaultTables.classifications.mappings.isic4 ?? {});
  const pairs: Array<[string, string]> = [];
  for (const code of codes)
    for (const region of defaultDatasets.spendFactors.regions) {
      try {
        calculateSpend(
          {
            activity: { classification_type: 'isic4', classification_code: code },
            spend_year: 2019,
            spend_region: region,
            money: 1,
            money_unit: 'eur',
          },
          defaultDatasets,
        );
        pairs.push([code, region]);
      } catch {
        // no factor for this code in this region
      }
    }
  ledger = { ...variedLedger({ pairs, currencies: defaultDatasets.fx.currencies }), pairs };
  return ledger;
}

/** The chunk context of a `spend` run on a ledger with this header line, CSV in and out. */
export function ledgerChunkContext(header: string): ChunkContext {
  const columns = header.split(',');
  return {
    inputFormat: 'csv',
    format: 'csv',
    header: columns,
    columns: passThroughColumns(columns, undefined),
    neutraliseFormulas: true,
  };
}

/** The varied ledger's first `rows` lines as a file run reads them: records in chunks of CHUNK_ROWS. */
export function ledgerChunks(rows: number): { chunks: RecordText[][]; context: ChunkContext } {
  const { header, line } = spendLedger();
  const records: RecordText[] = Array.from({ length: rows }, (_, index) => ({
    line: index + 2,
    text: line(index + 1),
  }));
  const chunks: RecordText[][] = [];
  for (let from = 0; from < records.length; from += CHUNK_ROWS)
    chunks.push(records.slice(from, from + CHUNK_ROWS));
  return { chunks, context: ledgerChunkContext(header) };
}

/** Writes `lines` (after `header`) to `path` in chunks of about 1 MB. */
export function writeCsv(
  path: string,
  header: string,
  count: number,
  line: (index: number) => string,
): string {
  const fd = openSync(path, 'w');
  let text = `${header}\n`;
  for (let index = 1; index <= count; index++) {
    text += `${line(index)}\n`;
    if (text.length > 1 << 20) {
      writeSync(fd, text);
      text = '';
    }
  }
  writeSync(fd, text);
  closeSync(fd);
  return path;
}
