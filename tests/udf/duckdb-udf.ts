import { runInContext, createContext } from 'node:vm';
import { DuckDBScalarFunction, VARCHAR, type DuckDBConnection } from '@duckdb/node-api';

/**
 * The recipe of docs/warehouses.md "DuckDB": a UDF bundle loaded once into its own realm, registered as DuckDB
 * scalar functions that take the request as JSON text and return the estimate (or error body) as JSON text.
 */
export function registerCo2eFunctions(connection: DuckDBConnection, bundle: string): void {
  const realm = createContext({});
  runInContext(bundle, realm);
  // Text crosses the realm boundary: objects made here would carry this realm's prototypes.
  const spend = runInContext('(text) => JSON.stringify(co2e.spend(JSON.parse(text)))', realm) as (
    request: string,
  ) => string;
  const cloud = runInContext(
    '(calculator, provider, text) => JSON.stringify(co2e.cloud(calculator, provider, JSON.parse(text)))',
    realm,
  ) as (calculator: string | null, provider: string | null, request: string) => string;

  connection.registerScalarFunction(
    DuckDBScalarFunction.create({
      name: 'co2e_spend',
      returnType: VARCHAR,
      parameterTypes: [VARCHAR],
      mainFunction: (_info, input, output) => {
        const requests = input.getColumnVector(0);
        for (let row = 0; row < input.rowCount; row++)
          output.setItem(row, spend(String(requests.getItem(row))));
        output.flush();
      },
    }),
  );
  connection.registerScalarFunction(
    DuckDBScalarFunction.create({
      name: 'co2e_cloud',
      returnType: VARCHAR,
      parameterTypes: [VARCHAR, VARCHAR, VARCHAR],
      mainFunction: (_info, input, output) => {
        const [calculators, providers, requests] = [0, 1, 2].map((column) => input.getColumnVector(column));
        for (let row = 0; row < input.rowCount; row++) {
          output.setItem(
            row,
            cloud(
              calculators?.getItem(row) as string | null,
              providers?.getItem(row) as string | null,
              String(requests?.getItem(row)),
            ),
          );
        }
        output.flush();
      },
    }),
  );
}
