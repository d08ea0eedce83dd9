/**
 * Plain-request readers (issue 40 item 2, core/plain-request.ts): a reader may decline any request (the schema then
 * parses it), but a request it reads must be one its schema accepts, read into the very object the schema gives,
 * keys in the same order. Random requests mix valid and invalid values of every field, unknown and missing fields
 * and explicit `undefined`s; a second property checks that ordinary requests are read, not declined.
 */
import fc from 'fast-check';
import type * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { CpuRequest, readCpuRequest } from '../../src/cloud/cpu.schema';
import { EmbodiedRequest, readEmbodiedRequest } from '../../src/cloud/embodied.schema';
import { InstanceRequest, readInstanceRequest } from '../../src/cloud/instance.schema';
import { MemoryRequest, readMemoryRequest } from '../../src/cloud/memory.schema';
import { NetworkingRequest, readNetworkingRequest } from '../../src/cloud/networking.schema';
import { readStorageRequest, StorageRequest } from '../../src/cloud/storage.schema';

const anyValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.double(),
  fc.integer({ min: -5, max: 3000 }),
  fc.constantFrom(0, -0, 0.5, 1, 1e15, 1e15 + 1, 1.5, 2024, 1899, 2201, Number.NaN, Infinity),
  fc.string({ maxLength: 4 }),
  fc.constantFrom('', 'x', 'us_east_1', 'a'.repeat(200), 'a'.repeat(201), 'é'),
  fc.constantFrom('hour', 'h', 'MIN', 'days', 'm', 'GB', 'tb', 'GiB', 'KB', 'ssd', 'HDD', 'nvme'),
  fc.constantFrom('enabled', 'disabled', 'Enabled', 't3.micro', 'Standard_D2s_v3'),
  fc.constant({}),
  fc.constant([]),
);

/** A valid value of each field, so that many generated requests are wholly valid. */
const VALID: Record<string, fc.Arbitrary<unknown>> = {
  cpu_count: fc.integer({ min: 0, max: 200 }),
  instance_count: fc.integer({ min: 0, max: 20 }),
  region: fc.constantFrom('us_east_1', 'us-east-1', 'europe-west1', 'uksouth'),
  instance: fc.constantFrom('t3.micro', 'm5.large', 'Standard_D2s_v3', 'e2-standard-2'),
  average_vcpu_utilization: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constant(-0)),
  duration: fc.oneof(fc.double({ min: 0, max: 1e15, noNaN: true }), fc.integer({ min: 0, max: 9000 })),
  duration_unit: fc.constantFrom('hour', 'hours', 'H', 'min', 'minutes', 'sec', 'ms', 'day', 'd'),
  data: fc.double({ min: 0, max: 1e6, noNaN: true }),
  data_unit: fc.constantFrom('GB', 'gb', 'TB', 'MB', 'KB', 'GiB', 'tebibytes', 'PB'),
  storage_type: fc.constantFrom('ssd', 'hdd', 'SSD', 'Hdd'),
  replication_factor: fc.oneof(fc.double({ min: 1e-9, max: 10, noNaN: true }), fc.constantFrom(1, 2, 3)),
  year: fc.integer({ min: 1900, max: 2200 }),
  audit_trail: fc.constantFrom('enabled', 'disabled'),
};

const READERS: Array<[string, z.ZodMiniObject, (request: unknown) => unknown, string[]]> = [
  ['cpu', CpuRequest, readCpuRequest, ['cpu_count', 'region', 'duration']],
  ['memory', MemoryRequest, readMemoryRequest, ['region', 'data', 'duration']],
  ['storage', StorageRequest, readStorageRequest, ['storage_type', 'region', 'data', 'duration']],
  ['networking', NetworkingRequest, readNetworkingRequest, ['region', 'data']],
  ['embodied', EmbodiedRequest, readEmbodiedRequest, ['instance', 'instance_count', 'duration']],
  ['instance', InstanceRequest, readInstanceRequest, ['instance', 'region', 'duration']],
];

/** Requests of a schema: each field absent, valid or anything, sometimes an unknown field; sometimes not an object. */
function requests(schema: z.ZodMiniObject) {
  const fields = Object.keys(schema.shape);
  const field = (name: string) =>
    fc.option(
      fc.oneof({ weight: 3, arbitrary: VALID[name] ?? anyValue }, { weight: 1, arbitrary: anyValue }),
      {
        freq: 4,
        nil: 'absent',
      },
    );
  const object = fc
    .tuple(
      fc.tuple(...fields.map(field)),
      fc.option(fc.tuple(fc.constantFrom('extra', 'Region', 'provider'), anyValue), { freq: 8 }),
    )
    .map(([values, extra]) => {
      const request: Record<string, unknown> = {};
      values.forEach((value, index) => {
        if (value !== 'absent') request[fields[index]!] = value;
      });
      if (extra !== null) request[extra[0]] = extra[1];
      return request;
    });
  return fc.oneof({ weight: 20, arbitrary: object }, { weight: 1, arbitrary: anyValue });
}

describe.each(READERS)('%s: the plain reader', (_, schema, read, required) => {
  it('reads only what the schema accepts, into the schema’s very output', () => {
    fc.assert(
      fc.property(requests(schema), (request) => {
        const plain = read(request);
        if (plain === undefined) return;
        const parsed = schema.safeParse(request);
        expect(parsed.success).toBe(true);
        expect(plain).toStrictEqual(parsed.data);
        expect(Object.keys(plain as object)).toEqual(Object.keys(parsed.data as object));
      }),
      { numRuns: 20_000 },
    );
  });

  it('reads ordinary requests itself', () => {
    const optional = Object.keys(schema.shape).filter((name) => !required.includes(name));
    fc.assert(
      fc.property(
        fc.record(Object.fromEntries(required.map((name) => [name, VALID[name]!]))),
        fc.subarray(optional),
        fc.nat(),
        (base, present, seed) => {
          const request: Record<string, unknown> = { ...base };
          for (const name of present) request[name] = fc.sample(VALID[name]!, { seed, numRuns: 1 })[0];
          expect(read(request)).toStrictEqual(schema.parse(request));
        },
      ),
      { numRuns: 500 },
    );
  });
});
