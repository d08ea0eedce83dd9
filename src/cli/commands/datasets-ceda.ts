import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { cedaFactorsGrid } from '../../embedded/ceda';
import { DATASETS_FILE_FORMAT, type DatasetsFile } from '../../loaders/parse-datasets-file';
import { cedaGrid, CedaSheetError, parseCedaSheet } from '../../loaders/parse-ceda';
import { spendFactorsFromGrid, SpendFactorsGrid } from '../../datasets/tables';
import { EXIT, type CliIo, UsageError } from '../io';
import { writeDatasetsFile } from './write-datasets-file';

/** Options of `co2e-engine datasets build --ceda FILE.xlsx`. */
export interface CedaBuildOptions {
  /** The publisher's Open CEDA workbook (.xlsx). */
  ceda: string;
  /** The sheet holding the factor grid; default: the first sheet with a `Country Code` header row. */
  cedaSheet?: string;
  out: string;
  force: boolean;
}

/**
 * `datasets build --ceda FILE.xlsx`: reads the factor grid of the publisher's Open CEDA workbook at full precision
 * (the embedded table is the export rounded to 3 decimals) and writes a dataset file with it as spend factors, to
 * use over the `ceda` preset: `--datasets ceda --datasets FILE.json`. Countries are renamed as the embedded table
 * names them (ISO alpha-3 → alpha-2, `ROW` → `WW`); a cell of exactly 0 is kept as 0 here (the workbook is not
 * rounded), a blank cell is left out.
 *
 * @example
 * ```ts
 * await buildCedaDatasetsFile({ ceda: 'Open_CEDA_2024.xlsx', out: 'ceda-full.json', force: false }, io); // 0
 * ```
 */
export async function buildCedaDatasetsFile(options: CedaBuildOptions, io: CliIo): Promise<number> {
  if (existsSync(options.out) && !options.force)
    throw new UsageError(`--out ${options.out} exists; pass --force to replace it.`);
  if (!existsSync(options.ceda)) throw new UsageError(`--ceda ${options.ceda}: no such file.`);
  let file: DatasetsFile;
  try {
    // Loaded only here: in the package, dist/cli-xlsx.js, apart from cli-main.js (see tsup.config.ts).
    const sheets = await (await import('./xlsx-workbook')).readWorkbook(options.ceda);
    const name =
      options.cedaSheet ??
      [...sheets].find(([, rows]) => rows.some((row) => String(row[1] ?? '').trim() === 'Country Code'))?.[0];
    const rows = name === undefined ? undefined : sheets.get(name);
    if (rows === undefined)
      throw new CedaSheetError(
        options.cedaSheet === undefined
          ? `no sheet has a 'Country Code' header row (sheets: ${[...sheets.keys()].join(', ')}); name it with --ceda-sheet.`
          : `no sheet '${options.cedaSheet}' (sheets: ${[...sheets.keys()].join(', ')}).`,
      );
    const sheet = parseCedaSheet(rows);
    const regionOf = regionNames();
    const { products: _p, regions: _r, source_region_codes: _s, ...base } = cedaFactorsGrid;
    const grid = SpendFactorsGrid.parse(
      cedaGrid(
        sheet,
        (code) => regionOf.get(code),
        {
          ...base,
          dataset: {
            ...cedaFactorsGrid.dataset,
            version: `open-ceda-workbook-${basename(options.ceda)}`,
            source_dataset: `Open CEDA (CEDA by Watershed) from the workbook ${basename(options.ceda)}, full precision`,
          },
          data_quality_flags: [],
        },
        { zeroIsWithheld: false },
      ),
    );
    file = { format: DATASETS_FILE_FORMAT, layers: [{ spendFactors: spendFactorsFromGrid(grid) }] };
    io.stderr.write(
      `${options.ceda} (sheet ${name}): ${sheet.products.length} sectors × ${sheet.countries.length} regions\n`,
    );
  } catch (error) {
    if (
      !(error instanceof CedaSheetError) &&
      !(error instanceof Error && /zip|xlsx|Corrupted/i.test(error.message))
    )
      throw error;
    io.stderr.write(`co2e-engine: ${options.ceda}: ${error.message}\n`);
    return EXIT.rowsFailed;
  }
  return writeDatasetsFile(options.out, file, io);
}

/** CEDA's country codes → the embedded table's region codes. */
function regionNames(): Map<string, string> {
  return new Map(Object.entries(cedaFactorsGrid.source_region_codes).map(([region, code]) => [code, region]));
}
