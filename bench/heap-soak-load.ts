import { parentPort, workerData } from 'node:worker_threads';
import { drawFrom, seededRandom } from '../tests/fixtures/seeded-random';

/**
 * The load of bench/heap-soak.ts, in a worker thread so that its garbage is not the server's: `clients` loops
 * posting requests whose every value is drawn afresh (regions, instance types, utilisations, years, currencies,
 * codes, known and unknown alike), 30 % as batches of 20 and 30 % on the hosted v1 paths, until `until`.
 */

const { port, clients, until, seed } = workerData as {
  port: number;
  clients: number;
  until: number;
  seed: number;
};
const next = seededRandom(seed);
const below = (count: number) => Math.floor(next() * count);
const pick = <T>(values: readonly T[]): T => drawFrom(next, values);
const word = (length: number) => Array.from({ length }, () => String.fromCharCode(97 + below(26))).join('');

const REGIONS = [
  'us_east_1',
  'us-east-1',
  'eu_west_1',
  'europe_west1',
  'west_europe',
  'ap_southeast_2',
  'uksouth',
];
const INSTANCES = ['t2.micro', 'm5.large', 'c5.xlarge', 'n2-standard-4', 'Standard_D2s_v3', 'r6g.large'];
const CALCULATORS = ['cpu', 'memory', 'storage', 'networking', 'embodied', 'instance'];

const cloud = () => ({
  region: next() < 0.7 ? pick(REGIONS) : word(6),
  cpu_count: below(64) + 1,
  duration: next() * 100,
  average_vcpu_utilization: next(),
  year: 2015 + below(15),
  data: next() * 1000,
  data_unit: pick(['GB', 'TB', 'gb', word(2)]),
  storage_type: pick(['ssd', 'hdd', word(3)]),
  instance: next() < 0.6 ? pick(INSTANCES) : `${word(2)}${below(9)}.${word(5)}`,
  instance_count: below(5) + 1,
});
const spend = () => ({
  money: next() * 1e6,
  money_unit: next() < 0.5 ? pick(['eur', 'usd', 'gbp', 'jpy']) : word(3),
  spend_year: 1900 + below(301),
  spend_region: next() < 0.6 ? pick(['DE', 'US', 'FR', 'JP', 'BR', 'IN']) : word(2).toUpperCase(),
  activity: {
    classification_type: pick(['isic4', 'naics2017', 'nace2']),
    classification_code: String(below(999_999)),
  },
});

function request(): { path: string; body: unknown } {
  const batch = next() < 0.3;
  const v1 = next() < 0.3 ? '/v1' : '';
  const make: () => object = next() < 0.35 ? spend : cloud;
  const body = batch ? Array.from({ length: 20 }, make) : make();
  const route =
    make === spend
      ? `/procurement${v1}/spend`
      : `/compute${v1}/${pick(['aws', 'gcp', 'azure'])}/${pick(CALCULATORS)}`;
  return { path: batch ? `${route}/batch` : route, body };
}

const statuses: Record<string, number> = {};
async function client(): Promise<void> {
  while (Date.now() < until) {
    const { path, body } = request();
    let status: string;
    try {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      await response.arrayBuffer();
      status = String(response.status);
    } catch {
      status = 'error';
    }
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
}

await Promise.all(Array.from({ length: clients }, client));
parentPort?.postMessage(statuses);
