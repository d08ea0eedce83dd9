import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { electricityEstimate } from '../../src/cloud/electricity';
import { defaultDatasets } from '../../src/embedded/index';
import { calculateInstance, calculateSpend } from '../../src/index';

/**
 * Issue 36's "done when": a client written for the hosted v1 API, changed only in its base URL, completes its runs
 * against `co2e-engine serve` (a real process, with an API key), and its outputs (kWh and kg) equal the library's.
 * The client below is written as such clients were, against the hosted v1 answers in ../shared/HOSTED-V1.md: it
 * posts batches to `/compute/v1/{provider}/{resource}/batch` and `/procurement/v1/spend/batch`, reads
 * `data['results'][i]`, takes a failed element's `error_code`, and writes `activity_data.activity_value` out as the
 * energy in kWh and `co2e` as kg.
 */

const KEY = 'sk_test_v1_client';
let child: ChildProcess;
let baseUrl: string;

beforeAll(async () => {
  child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/index.ts', 'serve', '--port', '0', '--api-key', KEY],
    { env: { ...process.env, CO2E_API_KEYS: undefined }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  baseUrl = await new Promise<string>((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
}, 60_000);
afterAll(() => {
  child?.kill('SIGKILL');
});

// --- The client, as written for the hosted v1 API: only BASE_URL differs. ---------------------------------------

interface Row {
  kwh: number | null;
  kg: number | null;
  error: string | null;
}

async function v1Batch(base: string, path: string, operations: unknown[]): Promise<any[]> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(operations),
  });
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  const data = (await response.json()) as { results: any[] };
  return data['results']; // the hosted v1 envelope
}

/** Per resource, each operation's energy (kWh) and emissions (kg), or its error code. */
async function cloudRun(
  base: string,
  provider: string,
  resource: string,
  operations: unknown[],
): Promise<Row[]> {
  const results = await v1Batch(base, `/compute/v1/${provider}/${resource}/batch`, operations);
  return results.map((result) =>
    'error' in result
      ? { kwh: null, kg: null, error: result.error_code }
      : { kwh: result.activity_data.activity_value, kg: result.co2e, error: null },
  );
}

/** Per instance: CPU + memory energy (kWh) and total emissions (kg). */
async function instanceRun(base: string, provider: string, operations: unknown[]): Promise<Row[]> {
  const results = await v1Batch(base, `/compute/v1/${provider}/instance/batch`, operations);
  return results.map((result) =>
    'error' in result
      ? { kwh: null, kg: null, error: result.error_code }
      : {
          kwh: result.calculation_details.energy_used_cpu + result.calculation_details.energy_used_memory,
          kg: result.total_co2e,
          error: null,
        },
  );
}

// --- The runs. ----------------------------------------------------------------------------------------------------

const datasets = defaultDatasets as Parameters<typeof calculateInstance>[2];
const CPU = Array.from({ length: 24 }, (_, hour) => ({
  cpu_count: 4,
  region: 'eu_central_1',
  duration: 1,
  average_vcpu_utilization: ((hour * 7) % 100) / 100,
}));
const MEMORY = [8, 16, 64].map((data) => ({ region: 'west_europe', data, data_unit: 'GB', duration: 24 }));
const STORAGE = [
  { region: 'af_south_1', storage_type: 'ssd', data: 50, data_unit: 'GB', duration: 1 },
  {
    region: 'europe_west1',
    storage_type: 'hdd',
    data: 2,
    data_unit: 'TB',
    duration: 30,
    duration_unit: 'day',
  },
];
const NETWORKING = [{ region: 'us_east_1', data: 120, data_unit: 'GB' }];

describe('a hosted-v1 client pointed at co2e-engine serve', () => {
  it('completes its cloud runs, and every kWh and kg equals the library', async () => {
    const runs: Array<[string, string, unknown[], 'cpu' | 'memory' | 'storage' | 'networking']> = [
      ['aws', 'cpu', CPU, 'cpu'],
      ['azure', 'memory', MEMORY, 'memory'],
      ['aws', 'storage', [STORAGE[0]], 'storage'],
      ['gcp', 'storage', [STORAGE[1]], 'storage'],
      ['aws', 'networking', NETWORKING, 'networking'],
    ];
    for (const [provider, resource, operations, kind] of runs) {
      const rows = await cloudRun(baseUrl, provider, resource, operations);
      expect(rows).toHaveLength(operations.length);
      rows.forEach((row, index) => {
        const { estimate, library } = electricityEstimate(kind, provider, operations[index], datasets);
        expect(row).toEqual({ kwh: estimate.activity_data.activity_value, kg: library.co2e, error: null });
      });
    }
  });

  it('completes an instance run over AWS, Azure and GCP, and a failed element is only that element', async () => {
    const fleet: Array<[string, Record<string, unknown>[]]> = [
      [
        'aws',
        [{ instance: 't3a.large', region: 'eu_central_1', duration: 24, average_vcpu_utilization: 0.16 }],
      ],
      [
        'azure',
        [
          { instance: 'Standard_D2s_v3', region: 'west_europe', duration: 24 },
          { instance: 'Standard_Nope', region: 'west_europe', duration: 24 },
        ],
      ],
      ['gcp', [{ instance: 'n2-standard-4', region: 'europe_west1', duration: 24 }]],
    ];
    for (const [provider, operations] of fleet) {
      const rows = await instanceRun(baseUrl, provider, operations);
      expect(rows.map((row) => row.error)).toEqual(
        operations.map((operation) => (operation.instance === 'Standard_Nope' ? 'unknown_instance' : null)),
      );
      rows.forEach((row, index) => {
        if (row.error !== null) {
          expect(row.error).toBe('unknown_instance');
          return;
        }
        const library = calculateInstance(provider as 'aws', operations[index] as never, datasets);
        const details = library.calculation_details;
        expect(row).toEqual({
          kwh: details.energy_used_cpu + details.energy_used_memory,
          kg: library.total_co2e,
          error: null,
        });
      });
    }
  });

  it('completes a procurement run reading data["results"]', async () => {
    const spend = {
      activity: { classification_type: 'isic4', classification_code: '4711' },
      spend_year: 2023,
      spend_region: 'DE',
      money: 1000,
      money_unit: 'eur',
    };
    const results = await v1Batch(baseUrl, '/procurement/v1/spend/batch', [
      spend,
      { ...spend, money_unit: 'xyz' },
    ]);
    expect(results[0].estimate.co2e).toBe(
      calculateSpend(spend as never, defaultDatasets as never).estimate.co2e,
    );
    expect(results[1].error_code).toBe('unsupported_currency');
  });

  it('a wrong key is the hosted 401 error JSON on the v1 path', async () => {
    const response = await fetch(`${baseUrl}/compute/v1/aws/cpu/batch`, {
      method: 'POST',
      headers: { Authorization: 'Bearer wrong', 'Content-Type': 'application/json' },
      body: JSON.stringify(CPU),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: 'unauthorized',
      error_code: 'unauthorized',
      message: 'The API key is not valid.',
    });
  });
});
