import type { SpendFactorsGrid } from '../datasets/tables';

/** The factor sheet of an Open CEDA release, as read: sector codes and names, and one row per country. */
export interface CedaSheet {
  /** `[code, name]` per sector, in column order (BEA detail / USEEIO codes: `1111A0`, `327310`, …). */
  products: [string, string][];
  /** Per country, its ISO 3166-1 alpha-3 code (or `ROW`), its name and one factor per sector (null: blank). */
  countries: { code: string; name: string; values: (number | null)[] }[];
}

/** What a factor sheet fails on: a short message naming the row or cell. */
export class CedaSheetError extends Error {
  override name = 'CedaSheetError';
}

/**
 * Reads the factor grid of an Open CEDA sheet (the 2024 workbook's factor sheet, or its CSV export): the header row
 * is the one whose second cell is `Country Code`, the row above it holds the sector names, and each row below it is
 * `code; name; unit; factors…` until the first row without a code. Cells may be numbers (a workbook) or text with a
 * decimal comma or point (an export); an empty cell is null. Pure: no file access.
 *
 * @example
 * ```ts
 * const sheet = parseCedaSheet([
 *   ['', '', '', '', 'Cement manufacturing'],
 *   ['', 'Country Code', 'Country', 'country', '327310'],
 *   ['', 'USA', 'United States', 'kgCO2e/US Dollar', '8,872'],
 * ]);
 * sheet.countries[0]?.values[0]; // 8.872
 * ```
 * @throws {@link CedaSheetError} without a header row, with a duplicate sector or country, or a cell that is no number.
 */
export function parseCedaSheet(rows: readonly (readonly unknown[])[]): CedaSheet {
  const headerIndex = rows.findIndex((row) => text(row[1]) === 'Country Code');
  if (headerIndex < 1) throw new CedaSheetError("No header row: no row's second cell reads 'Country Code'.");
  const header = rows[headerIndex] as readonly unknown[];
  const names = rows[headerIndex - 1] as readonly unknown[];
  const columns: number[] = [];
  const products: [string, string][] = [];
  const seen = new Set<string>();
  for (let column = 4; column < header.length; column++) {
    const code = text(header[column]);
    if (code === '') continue;
    if (seen.has(code)) throw new CedaSheetError(`Sector ${code} appears twice in the header row.`);
    seen.add(code);
    columns.push(column);
    products.push([code, text(names[column]) || code]);
  }
  if (products.length === 0) throw new CedaSheetError('The header row names no sector codes.');
  const countries: CedaSheet['countries'] = [];
  const countrySeen = new Set<string>();
  for (let index = headerIndex + 1; index < rows.length; index++) {
    const row = rows[index] as readonly unknown[];
    const code = text(row[1]);
    if (code === '') break;
    if (countrySeen.has(code)) throw new CedaSheetError(`Country ${code} appears twice (row ${index + 1}).`);
    countrySeen.add(code);
    const values = columns.map((column, at) =>
      cell(row[column], code, (products[at] as [string, string])[0]),
    );
    countries.push({ code, name: text(row[2]), values });
  }
  if (countries.length === 0) throw new CedaSheetError('No country rows below the header row.');
  return { products, countries };
}

/**
 * The factor grid of a CEDA sheet, regions renamed by `regionOf` (ISO alpha-3 → alpha-2, `ROW` → the
 * rest-of-world code); a cell that reads 0 is withheld (null): the export rounds to 3 decimals, so 0.000 means
 * "below 0.0005", not zero emissions.
 *
 * @example
 * ```ts
 * const grid = cedaGrid(sheet, (code) => ({ USA: 'US', ROW: 'WW' })[code], base);
 * grid.regions.US?.[0]; // 8.872
 * ```
 * @throws {@link CedaSheetError} for a country `regionOf` does not know.
 */
export function cedaGrid(
  sheet: CedaSheet,
  regionOf: (sourceCode: string) => string | undefined,
  base: Omit<SpendFactorsGrid, 'products' | 'regions' | 'source_region_codes'>,
  options: { zeroIsWithheld: boolean } = { zeroIsWithheld: true },
): SpendFactorsGrid {
  const regions: Record<string, (number | null)[]> = {};
  const sourceCodes: Record<string, string> = {};
  for (const country of [...sheet.countries].sort((a, b) => compare(a.code, b.code))) {
    const region = regionOf(country.code);
    if (region === undefined)
      throw new CedaSheetError(`Country code ${country.code} (${country.name}) has no region code.`);
    if (regions[region] !== undefined)
      throw new CedaSheetError(`Countries ${sourceCodes[region]} and ${country.code} are both ${region}.`);
    regions[region] = country.values.map((value) =>
      value === null || (options.zeroIsWithheld && value === 0) ? null : value,
    );
    sourceCodes[region] = country.code;
  }
  return { ...base, products: sheet.products, regions, source_region_codes: sourceCodes };
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return String(value).trim();
}

function cell(value: unknown, country: string, sector: string): number | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0)
      throw new CedaSheetError(
        `${country} ${sector}: ${value} is not a factor (kg CO2e per USD, at least 0).`,
      );
    return value;
  }
  const raw = text(value);
  if (raw === '') return null;
  const normal = raw.replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(normal))
    throw new CedaSheetError(`${country} ${sector}: '${raw.slice(0, 40)}' is not a number.`);
  return Number(normal);
}
