import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUdfBundle } from '../../scripts/build-udf';
import { calculateSpend, type EmissionsError, isErrorBody, type SpendRequest } from '../../src/index';
import { defaultDatasets } from '../../src/embedded/index';
import { cli, tempPath } from '../cli/harness';
import { registerCo2eFunctions } from './duckdb-udf';

/**
 * A real DuckDB (the @duckdb/node-api native engine, in this process) computing a ledger through the UDF bundle
 * registered as a scalar function, compared row by row with the library. `npm test` runs 2,000 rows; `.ci/run` runs
 * `npm run test:duckdb`, the same test on 100,000 rows (about 15 s on a shared 2-core machine, too slow for
 * `npm test`).
 */

const ROWS = Number(process.env.CO2E_DUCKDB_ROWS ?? 2000);
let instance: DuckDBInstance;
let connection: DuckDBConnection;

const REQUEST_SQL = `json_object(
  'activity', json_object('classification_type', classification_type, 'classification_code', classification_code),
  'spend_year', spend_year, 'spend_region', spend_region, 'money', money, 'money_unit', money_unit,
  'tax_margin', tax_margin)::VARCHAR`;

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  connection = await instance.connect();
  registerCo2eFunctions(connection, await buildUdfBundle('co2e-udf.js'));
  // A deterministic ledger: classification codes at several levels and in three schemes, five regions with
  // their currencies, years on both sides of the factor year, a supplied tax margin on a third of the rows (NULL
  // elsewhere), and a bad row (an unknown region) every 1000.
  await connection.run(`
    CREATE TABLE ledger AS
    SELECT
      i AS id,
      ['isic4', 'isic4', 'nace2', 'naics2017', 'isic4'][i % 5 + 1] AS classification_type,
      ['4711', '10', '47.11', '445110', 'C'][i % 5 + 1] AS classification_code,
      CASE WHEN i % 1000 = 999 THEN 'XX' ELSE ['DE', 'GB', 'NO', 'BR', 'US'][i % 7 % 5 + 1] END AS spend_region,
      ['eur', 'gbp', 'nok', 'brl', 'usd'][i % 7 % 5 + 1] AS money_unit,
      2015 + i % 10 AS spend_year,
      round((i % 9973) * 1.37 + 0.5, 2) AS money,
      CASE WHEN i % 3 = 0 THEN 0.19 END AS tax_margin
    FROM range(${ROWS}) AS t(i)
  `);
  // The engine runs inside the query: one co2e_spend call per row, results kept in a DuckDB table.
  await connection.run(`
    CREATE TABLE estimates AS
    SELECT id, ${REQUEST_SQL} AS request, co2e_spend(${REQUEST_SQL}) AS result FROM ledger
  `);
}, 600_000);

afterAll(() => {
  connection?.closeSync();
  instance?.closeSync();
});

/** What the library says for a request DuckDB built, as JSON text (an error as its body). */
function libraryResult(requestText: string): string {
  const request = JSON.parse(requestText) as Record<string, unknown>;
  // json_object writes a NULL column as null, which the UDF reads as "not supplied"; the library call omits it.
  if (request.tax_margin === null) delete request.tax_margin;
  try {
    return JSON.stringify(calculateSpend(request as SpendRequest, defaultDatasets));
  } catch (error) {
    return JSON.stringify((error as EmissionsError).toJSON());
  }
}

describe(`DuckDB: co2e_spend over a ${ROWS}-row ledger`, () => {
  it('gives the library result on every row, and an error body on the bad ones', async () => {
    const reader = await connection.runAndReadAll('SELECT request, result FROM estimates ORDER BY id');
    const rows = reader.getRowObjects() as Array<{ request: string; result: string }>;
    expect(rows).toHaveLength(ROWS);
    const differing = rows.filter(({ request, result }) => result !== libraryResult(request));
    expect(differing.slice(0, 3)).toEqual([]);
    const errors = rows.filter(({ result }) => isErrorBody(JSON.parse(result)));
    expect(errors).toHaveLength(ROWS / 1000);
    expect(JSON.parse(errors[0]?.result as string)).toMatchObject({
      error_code: 'no_emission_factors_found',
    });
  });

  it('aggregates in SQL to the sum of the library results', async () => {
    const reader = await connection.runAndReadAll(`
      SELECT spend_region, sum((result::JSON ->> '$.estimate.co2e')::DOUBLE) AS co2e_kg,
             count(*) FILTER (WHERE result::JSON ->> '$.error_code' IS NOT NULL) AS failed
      FROM estimates JOIN ledger USING (id) GROUP BY spend_region ORDER BY spend_region
    `);
    const sums = reader.getRowObjects() as Array<{
      spend_region: string;
      co2e_kg: number | null;
      failed: bigint;
    }>;
    const requests = (
      await connection.runAndReadAll('SELECT request FROM estimates ORDER BY id')
    ).getRowObjects();
    const expected = new Map<string, number>();
    for (const { request } of requests) {
      const result = JSON.parse(libraryResult(request as string)) as { estimate?: { co2e: number } };
      const region = (JSON.parse(request as string) as { spend_region: string }).spend_region;
      expected.set(region, (expected.get(region) ?? 0) + (result.estimate?.co2e ?? 0));
    }
    expect(sums.map((row) => row.spend_region)).toEqual(['BR', 'DE', 'GB', 'NO', 'US', 'XX']);
    for (const { spend_region, co2e_kg, failed } of sums) {
      if (spend_region === 'XX') {
        expect(co2e_kg).toBeNull();
        expect(failed).toBe(BigInt(ROWS / 1000));
      } else {
        // Float sums in a different order: equal to well within a part in 10^12.
        expect(Math.abs((co2e_kg as number) - (expected.get(spend_region) as number))).toBeLessThan(
          (expected.get(spend_region) as number) * 1e-12,
        );
        expect(failed).toBe(0n);
      }
    }
  });
});

describe('DuckDB and the CLI: a Parquet table out, estimated, joined back', () => {
  it('the CLI reads the Parquet DuckDB writes, and DuckDB joins the estimates it writes back', async () => {
    const ledger = tempPath('duckdb-ledger.parquet');
    const estimated = tempPath('duckdb-ledger-co2e.parquet');
    await connection.run(
      `COPY (SELECT id, classification_type, classification_code, spend_year, spend_region, money, money_unit,
        tax_margin FROM ledger) TO '${ledger}' (FORMAT parquet)`,
    );
    const { code } = await cli(['spend', ledger, '--out', estimated]);
    expect(code).toBe(1); // the bad rows
    const reader = await connection.runAndReadAll(`
      SELECT count(*) AS rows,
             count(*) FILTER (WHERE e.co2e IS NOT DISTINCT FROM (s.result::JSON ->> '$.estimate.co2e')::DOUBLE
                              AND e.error_code IS NOT DISTINCT FROM (s.result::JSON ->> '$.error_code')) AS same
      FROM read_parquet('${estimated}') AS e JOIN estimates AS s USING (id)
    `);
    expect(reader.getRowObjects()).toEqual([{ rows: BigInt(ROWS), same: BigInt(ROWS) }]);
  });
});
