/**
 * The rows of an .xlsx workbook's sheets, read with exceljs. A module of its own so that the bundled CLI keeps exceljs
 * and its dependencies (about 2.4 MB) in dist/cli-xlsx.js, loaded only by `datasets build --ceda`: every other command
 * would compile them at every start (see tsup.config.ts).
 */
import ExcelJS from 'exceljs';

/** A worksheet's cells as rows of plain values (numbers at full precision, text, or undefined). */
export type Rows = unknown[][];

/** The rows of every worksheet of an .xlsx file, by sheet name. */
export async function readWorkbook(path: string): Promise<Map<string, Rows>> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(path);
  const sheets = new Map<string, Rows>();
  workbook.eachSheet((sheet) => {
    const rows: Rows = [];
    sheet.eachRow({ includeEmpty: true }, (row, number) => {
      const values: unknown[] = [];
      row.eachCell({ includeEmpty: true }, (cell, column) => {
        // A formula cell gives its cached result; rich text its plain text.
        const value = cell.value as unknown;
        values[column - 1] =
          value !== null && typeof value === 'object'
            ? 'result' in value
              ? value.result
              : 'richText' in value
                ? (value as { richText: { text: string }[] }).richText.map((part) => part.text).join('')
                : cell.text
            : value;
      });
      rows[number - 1] = values;
    });
    sheets.set(
      sheet.name,
      Array.from(rows, (row) => row ?? []),
    );
  });
  return sheets;
}
