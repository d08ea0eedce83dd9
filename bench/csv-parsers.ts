import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as csvParseSync } from 'csv-parse/sync';
import { parseRecords } from '../src/cli/formats/csv/reader';
import { readRecords } from '../src/cli/formats/records';
import { median } from './statistics';

/**
 * `npx tsx bench/csv-parsers.ts FILE...`: the CLI's CSV reading (bytes → lines → record texts → fields, as a file run
 * reads them: src/cli/formats/records.ts, then `parseRecords` per 100 records as pipeline/chunk.ts does) beside
 * csv-parse (the dependency it falls back to), papaparse, uDSV and @fast-csv/parse on the same files, one thread,
 * medians of 5 interleaved rounds. Each reader yields every record's fields as strings (no casts); the field count
 * of all records is checked to agree. The alternatives are not dependencies of the package: install them beside it
 * first (`npm i --no-save papaparse udsv @fast-csv/parse`); a missing one is left out. Defaults to the bench files
 * of bench/duckdb-spend.ts (varied ledger, every row with a quoted field) and bench/billing-spec.ts (FOCUS bill).
 */

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const files = process.argv.slice(2);
if (files.length === 0)
  files.push(
    join(ROOT, 'bench', '.out', 'duckdb', 'ledger-200000.csv'),
    join(ROOT, 'bench', '.out', 'billing', 'focus-spec-1000000.csv'),
  );
const require = createRequire(import.meta.url);
const optional = (name: string): unknown => {
  try {
    return require(name) as unknown;
  } catch {
    return undefined;
  }
};

type Reader = (file: string) => Promise<number>;

/** The CLI's reader: record texts a source batch at a time, their fields 100 records at a time. */
const cliReader: Reader = async (file) => {
  const source = await readRecords(createReadStream(file), 'csv');
  let fields = 0;
  for (let next = await source.batches.next(); next.done !== true; next = await source.batches.next()) {
    const texts = next.value.filter(
      (record): record is { line: number; text: string } => record.text !== undefined,
    );
    for (let from = 0; from < texts.length; from += 100)
      for (const record of parseRecords(texts.slice(from, from + 100), source.delimiter))
        if ('fields' in record && record.fields !== undefined) fields += record.fields.length;
  }
  return fields;
};

const readers: Record<string, Reader> = {
  'co2e-engine CLI (lines + parseRecords)': cliReader,
  'csv-parse 6, sync, whole file': async (file) => {
    const rows = csvParseSync(readFileSync(file, 'utf8'), { trim: true, relax_quotes: true }) as string[][];
    return rows.reduce((sum, row) => sum + row.length, 0) - (rows[0]?.length ?? 0);
  },
};
const papa = optional('papaparse') as
  { parse(text: string, options: object): { data: string[][] } } | undefined;
if (papa !== undefined)
  readers['papaparse 5, whole file'] = async (file) => {
    const { data } = papa.parse(readFileSync(file, 'utf8'), { skipEmptyLines: true });
    return data.reduce((sum, row) => sum + row.length, 0) - (data[0]?.length ?? 0);
  };
const udsv = optional('udsv') as
  | {
      inferSchema(text: string): object;
      initParser(schema: object): { stringArrs(text: string): string[][] };
    }
  | undefined;
if (udsv !== undefined)
  readers['uDSV, string arrays, whole file'] = async (file) => {
    const text = readFileSync(file, 'utf8');
    const rows = udsv.initParser(udsv.inferSchema(text)).stringArrs(text);
    return rows.reduce((sum, row) => sum + row.length, 0);
  };
const fastCsv = optional('@fast-csv/parse') as
  { parseFile(file: string, options: object): NodeJS.EventEmitter } | undefined;
if (fastCsv !== undefined)
  readers['@fast-csv/parse, stream'] = (file) =>
    new Promise((resolve, reject) => {
      let fields = 0;
      let header = true; // the header's fields are not counted, as by the others
      fastCsv
        .parseFile(file, { headers: false, trim: true })
        .on('data', (row: string[]) => {
          if (!header) fields += row.length;
          header = false;
        })
        .on('error', reject)
        .on('end', () => resolve(fields));
    });

for (const file of files) {
  if (!existsSync(file)) {
    console.log(`${file}: missing (run bench/duckdb-spend.ts or bench/billing-spec.ts first)`);
    continue;
  }
  const times: Record<string, number[]> = {};
  const counts: Record<string, number> = {};
  for (let round = 0; round < 5; round++)
    for (const [name, read] of Object.entries(readers)) {
      const start = performance.now();
      counts[name] = await read(file);
      (times[name] ??= []).push(performance.now() - start);
    }
  console.log(`\n${file} (load ${loadavg()[0]?.toFixed(1)})`);
  for (const [name, values] of Object.entries(times))
    console.log(`  ${name.padEnd(42)} ${median(values).toFixed(0).padStart(6)} ms  fields ${counts[name]}`);
}
