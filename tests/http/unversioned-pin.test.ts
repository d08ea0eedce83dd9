import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultDatasets } from '../../src/embedded/index';
import { createHandler } from '../../src/http/index';

/**
 * The unversioned routes (SPEC.md's shapes) byte for byte: the SHA-256 of the status, content type and body of
 * every answer below was captured before the hosted v1 shapes were added on `/compute/v1/…` and
 * `/procurement/v1/…` (issue #36), and must never move by accident. `GET /openapi.json` is left out on purpose:
 * it documents the v1 paths too. To re-capture after an intended change: `PIN_CAPTURE=1 npx vitest run` this file.
 */

const DIGESTS_FILE = fileURLToPath(new URL('../fixtures/http-unversioned-digests.json', import.meta.url));

const CPU = { cpu_count: 4, region: 'us_east_1', duration: 30, duration_unit: 'min' };
const MEMORY = { region: 'europe_west1', data: 16, duration: 2 };
const STORAGE = { region: 'west_europe', storage_type: 'ssd', data: 2, data_unit: 'TB', duration: 1 };
const NETWORKING = { region: 'westeurope', data: 100 };
const EMBODIED = { instance: 'm5.large', instance_count: 3, duration: 24 };
const INSTANCE = { instance: 't2.micro', region: 'eu_central_1', duration: 1, duration_unit: 'h' };
const SPEND = {
  activity: { classification_type: 'isic4', classification_code: '4711' },
  spend_year: 2023,
  spend_region: 'DE',
  money: 1000,
  money_unit: 'eur',
};

type Case = readonly [
  name: string,
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
];

const CASES: readonly Case[] = [
  ['cpu aws', 'POST', '/compute/aws/cpu', CPU],
  [
    'cpu gcp audit off',
    'POST',
    '/compute/gcp/cpu',
    { ...CPU, region: 'europe_west1', audit_trail: 'disabled' },
  ],
  ['cpu batch with a bad element', 'POST', '/compute/aws/cpu/batch', [CPU, { ...CPU, cpu_count: -1 }]],
  ['cpu unknown region', 'POST', '/compute/aws/cpu', { ...CPU, region: 'nowhere' }],
  ['memory gcp', 'POST', '/compute/gcp/memory', MEMORY],
  ['memory batch', 'POST', '/compute/gcp/memory/batch', [MEMORY, { ...MEMORY, data_unit: 'TB' }]],
  ['storage azure', 'POST', '/compute/azure/storage', STORAGE],
  ['storage batch hdd', 'POST', '/compute/azure/storage/batch', [{ ...STORAGE, storage_type: 'hdd' }]],
  ['networking azure', 'POST', '/compute/azure/networking', NETWORKING],
  ['networking batch', 'POST', '/compute/azure/networking/batch', [NETWORKING, { region: 'mars', data: 1 }]],
  ['embodied aws', 'POST', '/compute/aws/embodied', EMBODIED],
  ['embodied batch', 'POST', '/compute/aws/embodied/batch', [EMBODIED]],
  ['instance aws', 'POST', '/compute/aws/instance', INSTANCE],
  [
    'instance azure',
    'POST',
    '/compute/azure/instance',
    { instance: 'Standard_D2s_v3', region: 'west_europe', duration: 24 },
  ],
  [
    'instance gcp',
    'POST',
    '/compute/gcp/instance',
    { instance: 'n2-standard-4', region: 'europe_west1', duration: 24 },
  ],
  ['instance batch', 'POST', '/compute/aws/instance/batch', [INSTANCE, { ...INSTANCE, instance: 'nope' }]],
  ['spend', 'POST', '/procurement/spend', SPEND],
  ['spend batch', 'POST', '/procurement/spend/batch', [SPEND, {}]],
  ['unknown provider', 'POST', '/compute/ibm/cpu', CPU],
  ['batch not an array', 'POST', '/compute/aws/cpu/batch', CPU],
  ['batch too large', 'POST', '/compute/aws/cpu/batch', Array.from({ length: 101 }, () => CPU)],
  ['invalid json', 'POST', '/compute/aws/cpu', '{"cpu_count":'],
  ['not found', 'POST', '/compute/aws/gpu', CPU],
  ['method not allowed', 'GET', '/compute/aws/cpu'],
  [
    'unsupported media type',
    'POST',
    '/compute/aws/cpu',
    JSON.stringify(CPU),
    { 'content-type': 'text/plain' },
  ],
  ['compute metadata', 'GET', '/compute/metadata'],
  ['procurement metadata', 'GET', '/procurement/metadata'],
  ['trailing slash', 'POST', '/compute/aws/cpu/', CPU],
];

const open = createHandler({ datasets: defaultDatasets });
const keyed = createHandler({ datasets: defaultDatasets, authorize: (key) => key === 'k' });

async function digest(handler: typeof open, [, method, path, body, headers]: Case): Promise<string> {
  const response = await handler(
    new Request(`http://localhost${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    }),
  );
  const text = await response.text();
  const head = `${response.status}\n${response.headers.get('content-type')}\n${response.headers.get('allow')}\n`;
  return createHash('sha256')
    .update(head + text)
    .digest('hex');
}

async function allDigests(): Promise<Record<string, string>> {
  const digests: Record<string, string> = {};
  for (const entry of CASES) digests[entry[0]] = await digest(open, entry);
  digests['401 missing key'] = await digest(keyed, ['', 'POST', '/compute/aws/cpu', CPU]);
  digests['401 wrong key'] = await digest(keyed, [
    '',
    'POST',
    '/compute/aws/cpu',
    CPU,
    { authorization: 'Bearer x' },
  ]);
  digests['keyed cpu'] = await digest(keyed, [
    '',
    'POST',
    '/compute/aws/cpu',
    CPU,
    { authorization: 'Bearer k' },
  ]);
  return digests;
}

describe('unversioned routes are byte for byte what they were before v1 shapes existed', () => {
  it('every answer has its captured digest', async () => {
    const digests = await allDigests();
    if (process.env.PIN_CAPTURE === '1') writeFileSync(DIGESTS_FILE, `${JSON.stringify(digests, null, 2)}\n`);
    const captured = JSON.parse(readFileSync(DIGESTS_FILE, 'utf8')) as Record<string, string>;
    expect(Object.keys(captured)).toHaveLength(CASES.length + 3);
    expect(digests).toEqual(captured);
  });
});
