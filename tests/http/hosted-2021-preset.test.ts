import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { createNodeListener } from '../../src/http/index';
import { loadDatasets } from '../../src/node/index';
import { readSharedData, skipWithoutSharedData } from '../shared-data';

/**
 * The `hosted-api-2021` preset over real HTTP: every one of the 340 hosted 2021
 * cloud factors in OEFDB's source file (shared/data/oefdb/ccf_cloud_factors.csv, read here independently of the
 * build script) comes back as the factor, activity id, name, location and year of a request for one unit of
 * activity, and so as its co2e.
 */

interface Row {
  category: string;
  activity_id: string;
  name: string;
  'kgCO2e-AR4': string;
  region: string;
  year_released: string;
}
const ROWS: Row[] = skipWithoutSharedData
  ? []
  : parse(readSharedData('oefdb/ccf_cloud_factors.csv'), { columns: true });

/** The request for one unit of the row's activity (1 CPU-hour, 1 GB-hour, 1 TB-hour, 1 GB). */
function oneUnit(row: Row): { path: string; body: Record<string, unknown> } {
  const match =
    /^(cpu|memory|storage|networking)-provider_(aws|azure|gcp)-region_(.+?)(?:-type_(ssd|hdd))?$/.exec(
      row.activity_id,
    );
  if (match === null) throw new Error(`unexpected activity id ${row.activity_id}`);
  const [, resource, provider, region, storageType] = match as unknown as [
    string,
    string,
    string,
    string,
    string?,
  ];
  // The unversioned path: its activity is the factor's own unit (CPU-hour, …); v1 answers in kWh.
  const path = `/compute/${provider}/${resource}`;
  if (resource === 'cpu') return { path, body: { region, cpu_count: 1, duration: 1 } };
  if (resource === 'memory') return { path, body: { region, data: 1, data_unit: 'GB', duration: 1 } };
  if (resource === 'storage')
    return { path, body: { region, storage_type: storageType, data: 1, data_unit: 'TB', duration: 1 } };
  return { path, body: { region, data: 1, data_unit: 'GB' } };
}

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer(createNodeListener({ datasets: loadDatasets(['hosted-api-2021']) }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);

const post = async (path: string, body: unknown) => {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
};

describe.skipIf(skipWithoutSharedData)('hosted-api-2021 preset over HTTP', () => {
  it('the source file has the 340 factors', () => {
    expect(ROWS).toHaveLength(340);
  });

  it('answers every hosted 2021 factor on the hosted path, as a batch per route', async () => {
    const byPath = new Map<string, Row[]>();
    for (const row of ROWS) {
      const { path } = oneUnit(row);
      byPath.set(path, [...(byPath.get(path) ?? []), row]);
    }
    let checked = 0;
    for (const [path, rows] of byPath) {
      const { status, body } = await post(
        `${path}/batch`,
        rows.map((row) => oneUnit(row).body),
      );
      expect(status).toBe(200);
      rows.forEach((row, index) => {
        const estimate = body[index];
        const factor = Number(row['kgCO2e-AR4']);
        expect({ id: row.activity_id, co2e: estimate.co2e }).toEqual({ id: row.activity_id, co2e: factor });
        expect(estimate.co2e_calculation_method).toBe('ar4');
        expect(estimate.emission_factor).toMatchObject({
          activity_id: row.activity_id,
          name: row.name,
          factor,
          region: row.region,
          year: Number(row.year_released),
        });
        checked++;
      });
    }
    expect(checked).toBe(340);
  });

  it('Azure east_asia networking: 1000 GB × 0.00091125 kg/GB = 0.91125 kg (the issue’s figure)', async () => {
    // 0.00091125 = 0.001 kWh/GB × PUE 1.125 × grid 0.81 kg/kWh (CCF's 2021 HK factor), as the hosted API gave it
    const { status, body } = await post('/compute/v1/azure/networking', {
      region: 'east_asia',
      data: 1000,
      data_unit: 'GB',
    });
    expect(status).toBe(200);
    expect(body.co2e).toBe(0.91125);
    expect(body.emission_factor.year).toBe(2021);
    expect(body.emission_factor.region).toBe('HK-HKG');
  });
});
