import fc from 'fast-check';
import { DATA_UNITS, DURATION_UNITS } from '../../src/schemas';
import { defaultDatasets, defaultTables } from '../../src/embedded/index';

/**
 * Hostile inputs for the fuzz tests: arbitrary JSON and JS values, and objects built from the real field names
 * with values that are sometimes right and sometimes wrong in every way we could think of.
 */

/** Fixed by default so CI is reproducible; set FUZZ_SEED to explore other inputs. */
export const FUZZ_SEED = process.env.FUZZ_SEED === undefined ? 20_240_501 : Number(process.env.FUZZ_SEED);
/** Runs per property; FUZZ_RUNS scales them (e.g. FUZZ_RUNS=20 for a long local session). */
export const runs = (base: number): number => Math.round(base * Number(process.env.FUZZ_RUNS ?? 1));

/** Numbers at and beyond every edge: NaN, infinities, -0, denormals, the MAX_QUANTITY boundary, 2^53. */
export const nastyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    1,
    -1,
    0.5,
    1e15,
    1e15 + 2,
    1e16,
    5e-324,
    1e-300,
    Number.MAX_VALUE,
    Number.MIN_SAFE_INTEGER,
  ),
  fc.constantFrom(NaN, Infinity, -Infinity, 2 ** 53, 2 ** 53 + 2, 1899, 1900, 2200, 2201, 0.1 + 0.2, 1.5),
  fc.double(),
  fc.integer(),
);

const LONG_STRING = 'a'.repeat(100_000);

/** Strings that look like numbers, keys that are special to JS, empty and very long strings, any Unicode. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'NaN',
    '1e999',
    '-1e999',
    '0x10',
    'Infinity',
    '-0',
    '1',
    '0.5',
    '',
    ' ',
    '\u0000',
    '\uFFFF',
    '\uD800',
  ),
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'valueOf',
    LONG_STRING,
  ),
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** An array or object nested `depth` levels deep, built iteratively (no recursion in the generator itself). */
export function deeplyNested(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) value = kind === 'array' ? [value] : { nested: value };
  return value;
}

/** An object whose own (enumerable) key is `__proto__`, as `JSON.parse('{"__proto__": …}')` makes. */
export function withOwnProtoKey(target: Record<string, unknown>, value: unknown): Record<string, unknown> {
  Object.defineProperty(target, '__proto__', { value, enumerable: true, configurable: true, writable: true });
  return target;
}

/** Any wrong value: the above plus booleans, null, undefined, arrays, objects, deep nesting, prototype tricks. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyNumber,
  nastyString,
  fc.constantFrom(true, false, null, undefined, [], {}, Object.create(null) as object),
  fc.constantFrom(deeplyNested(2_000, 'array'), deeplyNested(2_000, 'object')),
  fc.jsonValue({ maxDepth: 3 }),
  fc.constant(JSON.parse('{"__proto__": {"polluted": true}}') as unknown),
);

/** A field's right value most of the time and a wrong one otherwise. */
const mostly = <T>(valid: fc.Arbitrary<T>, weight = 5): fc.Arbitrary<unknown> =>
  fc.oneof({ arbitrary: valid, weight }, { arbitrary: nastyValue, weight: 1 });

/** A spelling in random letter case (`Hour`, `tB`). */
const anyCase = (spellings: readonly string[]): fc.Arbitrary<string> =>
  fc
    .tuple(fc.constantFrom(...spellings), fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }))
    .map(([spelling, upper]) =>
      [...spelling].map((char, index) => (upper[index] ? char.toUpperCase() : char)).join(''),
    );

/** Valid-looking quantities: whole, fractional, tiny, at the limit. */
const quantity = fc.oneof(
  fc.double({ min: 0, max: 1e15, noNaN: true }),
  fc.integer({ min: 0, max: 10_000 }),
  fc.constantFrom(0, 5e-324, 1e-12, 1e15),
);
const count = fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.constantFrom(0, 1, 1e15));
const year = fc.oneof(fc.integer({ min: 2019, max: 2026 }), fc.integer({ min: 1900, max: 2200 }));
/** Keys of Object.prototype, which a plain-object lookup table would resolve (and once did, for duration_unit). */
const prototypeKey = fc.constantFrom(
  '__proto__',
  'constructor',
  'Constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
);
const durationUnit = fc.oneof(
  { arbitrary: anyCase([...DURATION_UNITS, 'h', 's']), weight: 6 },
  { arbitrary: prototypeKey, weight: 1 },
);
const dataUnit = fc.oneof(
  { arbitrary: anyCase(DATA_UNITS), weight: 6 },
  { arbitrary: prototypeKey, weight: 1 },
);
const auditTrail = fc.constantFrom('enabled', 'disabled');
const utilization = fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 1, 0.5));

export const CLOUD_PROVIDER_IDS = ['aws', 'azure', 'gcp'] as const;
export type CloudProviderId = (typeof CLOUD_PROVIDER_IDS)[number];

const regions = (provider: CloudProviderId) => {
  const known = defaultDatasets.cloudRegions.list(provider);
  // Also the provider's own hyphenated spelling, which is accepted.
  return fc.oneof(
    fc.constantFrom(...known),
    fc.constantFrom(...known).map((region) => region.replaceAll('_', '-').toUpperCase()),
  );
};
const instances = (provider: CloudProviderId) =>
  fc.constantFrom(...defaultDatasets.cloudInstances.list(provider));

/** Extra keys a request must not have: prototype keys (as own properties) and random names. */
const extraKeys: fc.Arbitrary<Array<[string, unknown]>> = fc.array(
  fc.tuple(
    fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'cpu-count'), fc.string()),
    nastyValue,
  ),
  { maxLength: 2 },
);

/** Builds a request from optional fields and then adds the extra keys as own properties. */
const request = (
  fields: Record<string, fc.Arbitrary<unknown>>,
  extraWeight: number,
): fc.Arbitrary<Record<string, unknown>> =>
  fc
    .tuple(
      fc.record(fields, { requiredKeys: [] }),
      fc.oneof(
        { arbitrary: fc.constant([] as Array<[string, unknown]>), weight: extraWeight },
        { arbitrary: extraKeys, weight: 1 },
      ),
    )
    .map(([body, extras]) => {
      const target: Record<string, unknown> = { ...body };
      for (const [key, value] of extras) {
        if (key === '__proto__') withOwnProtoKey(target, value);
        else target[key] = value;
      }
      return target;
    });

/** Requests for each cloud calculator, from its real field names. */
export const cloudRequests = (provider: CloudProviderId) => ({
  cpu: request(
    {
      cpu_count: mostly(count),
      region: mostly(regions(provider)),
      average_vcpu_utilization: mostly(utilization),
      duration: mostly(quantity),
      duration_unit: mostly(durationUnit),
      year: mostly(year),
      audit_trail: mostly(auditTrail),
    },
    6,
  ),
  memory: request(
    {
      region: mostly(regions(provider)),
      data: mostly(quantity),
      data_unit: mostly(dataUnit),
      duration: mostly(quantity),
      duration_unit: mostly(durationUnit),
      year: mostly(year),
      audit_trail: mostly(auditTrail),
    },
    6,
  ),
  storage: request(
    {
      region: mostly(regions(provider)),
      storage_type: mostly(
        fc.oneof({ arbitrary: anyCase(['ssd', 'hdd']), weight: 6 }, { arbitrary: prototypeKey, weight: 1 }),
      ),
      data: mostly(quantity),
      data_unit: mostly(dataUnit),
      duration: mostly(quantity),
      duration_unit: mostly(durationUnit),
      year: mostly(year),
      audit_trail: mostly(auditTrail),
    },
    6,
  ),
  networking: request(
    {
      region: mostly(regions(provider)),
      data: mostly(quantity),
      data_unit: mostly(dataUnit),
      year: mostly(year),
      audit_trail: mostly(auditTrail),
    },
    6,
  ),
  embodied: request(
    {
      instance: mostly(instances(provider)),
      instance_count: mostly(count),
      duration: mostly(quantity),
      duration_unit: mostly(durationUnit),
      year: mostly(year),
      audit_trail: mostly(auditTrail),
    },
    6,
  ),
  instance: request(
    {
      instance: mostly(instances(provider)),
      region: mostly(regions(provider)),
      duration: mostly(quantity),
      duration_unit: mostly(durationUnit),
      average_vcpu_utilization: mostly(utilization),
      year: mostly(year),
      audit_trail: mostly(auditTrail),
    },
    6,
  ),
});

const isic4Codes = Object.keys(defaultTables.classifications.mappings.isic4 ?? {});
/** Spend has more fields than a cloud request, so each is wrong less often, to still reach the arithmetic. */
const usually = <T>(valid: fc.Arbitrary<T>) => mostly(valid, 10);
const spendActivity = fc.oneof(
  {
    arbitrary: fc.record({
      classification_type: usually(
        fc.oneof(anyCase(defaultDatasets.classifications.types), fc.constant('isic4')),
      ),
      classification_code: usually(fc.constantFrom(...isic4Codes, 'G', '47', '471', '4711', '47.11')),
    }),
    weight: 8,
  },
  {
    arbitrary: fc.record({
      activity_id: usually(
        fc.constantFrom(...defaultTables.spendFactors.factors.slice(0, 50).map((row) => row.activity_id)),
      ),
    }),
    weight: 2,
  },
  { arbitrary: nastyValue, weight: 1 },
);
const margin = fc.oneof(
  { arbitrary: fc.double({ min: -0.5, max: 0.3, noNaN: true }), weight: 4 },
  { arbitrary: fc.constantFrom(0, 0.2, 0.99, 1, -2, -1e15, 1e-300), weight: 1 },
);

/** Spend requests from the real field names. */
export const spendRequest = request(
  {
    activity: spendActivity,
    spend_year: usually(year),
    spend_region: usually(
      fc.oneof(
        { arbitrary: fc.constantFrom(...defaultDatasets.spendFactors.regions), weight: 4 },
        { arbitrary: anyCase(['de', 'us', 'zz']), weight: 1 },
      ),
    ),
    money: usually(quantity),
    money_unit: usually(
      fc.oneof(
        { arbitrary: anyCase(['eur', 'usd', 'gbp', 'nok', 'brl']), weight: 3 },
        { arbitrary: fc.constantFrom(...defaultDatasets.fx.currencies, 'xxx'), weight: 1 },
      ),
    ),
    tax_margin: usually(margin),
    trade_margin: usually(margin),
    transport_margin: usually(margin),
    audit_trail: usually(auditTrail),
  },
  10,
);

/** Anything at all, including null-prototype objects, sparse arrays, boxed values and typed arrays. */
export const anyValue: fc.Arbitrary<unknown> = fc.anything({
  withNullPrototype: true,
  withSparseArray: true,
  withBoxedValues: true,
  withTypedArray: true,
  withMap: true,
  withSet: true,
  withBigInt: true,
  withDate: true,
  maxDepth: 4,
});
