import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../../src/core/freeze';
import { defaultDatasets } from '../../src/embedded/index';
import { type BatchOptions, batchWriter, jsonText } from '../../src/http/json-writer';
import { isErrorBody } from '../../src/core/batch';
import { toWireEstimate } from '../../src/http/wire';
import {
  calculateCpuBatch,
  calculateEmbodiedBatch,
  calculateMemoryBatch,
  calculateNetworkingBatch,
  calculateStorageBatch,
} from '../../src/index';

/**
 * Issue 40 item 4: the one JSON writer of the HTTP answers writes exactly JSON.stringify's text (and, for the
 * per-resource routes, JSON.stringify(toWireEstimate(…))'s), reusing the text of deeply frozen shared objects.
 */

/** The writer over results that come in slices, some perhaps later, as the rules feed it: the body, or `over`. */
async function batchText(
  results: AsyncIterable<readonly unknown[]> | Iterable<readonly unknown[]>,
  options: BatchOptions,
): Promise<{ body?: string | Uint8Array[]; over?: true }> {
  const writer = batchWriter(options);
  for await (const slice of results) if (!writer.add(slice)) return { over: true };
  return { body: writer.end() };
}

/** A batch answer's body as one text, however it came (one string, or UTF-8 pieces). */
const textOf = (body: string | readonly Uint8Array[] | undefined) =>
  typeof body === 'string' || body === undefined ? body : Buffer.concat(body).toString('utf8');
/** What the rules sent before the writer: each estimate copied into its wire form, error bodies as they are. */
const toWireBatch = (results: readonly unknown[]) =>
  results.map((result) => (isErrorBody(result) ? result : toWireEstimate(result as never)));
const whole = async (results: readonly unknown[], wire: boolean, maxLength = Number.MAX_SAFE_INTEGER) => {
  const text = await batchText([results], { wire, maxLength });
  return textOf(text.body);
};

// JSON-ish values plus what JSON.stringify treats specially: undefined, NaN, infinities, -0, functions.
const value = fc.letrec((tie) => ({
  leaf: fc.oneof(
    fc.string(),
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.constant(-0),
    fc.constant(() => 1),
  ),
  array: fc.array(tie('node'), { maxLength: 4 }),
  object: fc.dictionary(fc.string(), tie('node'), { maxKeys: 4 }),
  node: fc.oneof({ depthSize: 'small' }, tie('leaf'), tie('array'), tie('object')),
})).node;

describe('the JSON writer (issue 40 item 4)', () => {
  it('writes JSON.stringify of any value, frozen or not, shared or not, however often', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(value, { maxLength: 6 }), fc.boolean(), async (elements, freeze) => {
        const shared = freeze ? deepFreeze(elements) : elements;
        const results = [...shared, ...shared]; // the same objects twice: the second time from the cache
        expect(await whole(results, false)).toBe(JSON.stringify(results));
        // The wire walker on objects without an emission_factor writes them as JSON.stringify does.
        expect(await whole(results, true)).toBe(JSON.stringify(results));
      }),
    );
  });

  it('an object changed after it was written is written anew (only deeply frozen text is kept)', () => {
    const inner = { a: 1 };
    const outer = { shared: Object.freeze({ inner }) };
    expect(jsonText(outer, { wire: true })).toBe('{"shared":{"inner":{"a":1}}}');
    inner.a = 2;
    expect(jsonText(outer, { wire: true })).toBe('{"shared":{"inner":{"a":2}}}');
  });

  it('leaves what is not a plain object or array to JSON.stringify (toJSON, Date, Map)', () => {
    const odd = {
      date: new Date(0),
      map: new Map([[1, 2]]),
      own: { toJSON: () => 'x' },
      bare: Object.create(null) as object,
      list: Object.assign([1], { toJSON: () => 'y' }),
    };
    expect(jsonText(odd, { wire: true })).toBe(JSON.stringify(odd));
  });

  it('wire form: JSON.stringify(toWireBatch(…)) of real batches, error bodies included', async () => {
    const cpu = calculateCpuBatch(
      'aws',
      [
        { cpu_count: 2, region: 'us_east_1', duration: 1 },
        { cpu_count: 2, region: 'nowhere', duration: 1 },
        { cpu_count: 3, region: 'us_east_1', duration: 1 },
      ],
      defaultDatasets,
    );
    const storage = calculateStorageBatch(
      'gcp',
      [{ data: 1, storage_type: 'ssd', region: 'europe_west1', duration: 1 }],
      defaultDatasets,
    );
    const embodied = calculateEmbodiedBatch(
      'aws',
      [{ instance: 'm5.large', instance_count: 2, duration: 1 }],
      defaultDatasets,
    );
    for (const results of [cpu, storage, embodied]) {
      expect(await whole(results, true)).toBe(JSON.stringify(toWireBatch(results)));
      const estimate = results.find((result) => 'co2e' in result);
      expect(estimate).toBeDefined();
      expect(jsonText(estimate, { wire: true })).toBe(JSON.stringify(toWireEstimate(estimate as never)));
    }
    expect(await whole(cpu, true)).toContain('"data_quality_flags":"[\'notable_methodological_variance\']"');
  });

  it('wire bytes: the count that sizes the buffer never changes the text, right or wrong', async () => {
    const requests = Array.from({ length: 400 }, (_, index) => ({
      cpu_count: (index % 5) + 1,
      region: index % 7 === 0 ? 'nowhere' : 'us_east_1',
      duration: 1,
    }));
    const results = calculateCpuBatch('aws', requests, defaultDatasets);
    const expected = JSON.stringify(toWireBatch(results));
    // 400 elements of about 770 bytes: past one piece of 262,144 bytes, so the buffer also grows and is cut.
    for (const count of [undefined, 0, 1, 400, 100_000]) {
      const { body } = await batchText([results.slice(0, 100), results.slice(100, 350), results.slice(350)], {
        wire: true,
        maxLength: Number.MAX_SAFE_INTEGER,
        count,
      });
      expect(textOf(body)).toBe(expected);
      expect(body).toHaveLength(2);
    }
  });

  it('past the cap on reused texts (10,000 in all), new names and values are written all the same', async () => {
    const results = Array.from({ length: 12_000 }, (_, index) => ({ [`k${index % 3_000}`]: `v${index}` }));
    for (let round = 0; round < 2; round++) expect(await whole(results, true)).toBe(JSON.stringify(results));
  });

  it('the v1 envelope, results in slices as computed, and the length cap', async () => {
    const results = [{ a: 1 }, { b: [2] }, 'c'];
    async function* computed() {
      yield results.slice(0, 1);
      await Promise.resolve();
      yield [];
      yield results.slice(1);
    }
    const sliced = await batchText(computed(), {
      wire: false,
      maxLength: 1_000,
      prefix: '{"results":',
      suffix: '}',
    });
    expect(sliced.body).toBe(JSON.stringify({ results }));
    const exact = JSON.stringify({ results }).length; // 30
    expect(
      (await batchText([results], { wire: false, maxLength: exact, prefix: '{"results":', suffix: '}' }))
        .body,
    ).toBe(JSON.stringify({ results }));
    expect(
      await batchText([results], { wire: false, maxLength: exact - 1, prefix: '{"results":', suffix: '}' }),
    ).toEqual({ over: true });
    expect((await batchText([], { wire: false, maxLength: 2 })).body).toBe('[]');
  });

  it('a long answer comes as UTF-8 pieces of whole elements, non-ASCII text included', async () => {
    // 2,999 elements of 101 characters and one of 6 with characters outside ASCII (é, €, and 😀 as two UTF-16
    // units), 2,999 commas and the brackets: 305,906 characters. The first slice's 2,600 elements make 265,200
    // characters, past one piece's 262,144: two pieces.
    const results = Array.from({ length: 3_000 }, (_, index) => (index === 2_999 ? 'é€😀' : 'x'.repeat(99)));
    const { body } = await batchText([results.slice(0, 2_600), results.slice(2_600)], {
      wire: false,
      maxLength: Number.MAX_SAFE_INTEGER,
    });
    expect(Array.isArray(body)).toBe(true);
    expect((body as Uint8Array[]).length).toBe(2);
    expect(textOf(body)).toBe(JSON.stringify(results));
    // The cap counts characters, as before: the answer's 305,906 characters fit, one fewer does not.
    const length = JSON.stringify(results).length;
    expect(length).toBe(305_906);
    expect((await batchText([results], { wire: false, maxLength: length })).over).toBeUndefined();
    expect((await batchText([results], { wire: false, maxLength: length - 1 })).over).toBe(true);
  });
  it('objects of the same few layouts, their values now kept and now fresh, as JSON.stringify writes them', async () => {
    // Few names and values, so layouts repeat and members keep their value from one object to the next, then
    // change: each member's kept bytes and each stretch of kept members must follow.
    const shared = deepFreeze({ gas: 'co2', parts: [1, 2], nested: { deep: null } });
    const leaf = fc.oneof(
      fc.constantFrom(
        'kg',
        'ar5',
        'x'.repeat(70),
        'é€',
        0,
        -0,
        1.5,
        2 ** -30,
        3e21,
        NaN,
        true,
        null,
        undefined,
      ),
      fc.constant(shared),
      fc.double(),
      fc.record({ value: fc.integer(), unit: fc.constantFrom('kg', 'h') }),
      fc.constant(Object.freeze({ value: 1, unit: 'kg' })),
    );
    const element = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), leaf, { maxKeys: 4 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(element, { maxLength: 30 }),
        fc.integer({ min: 1, max: 7 }),
        async (results, size) => {
          const slices = Array.from({ length: Math.ceil(results.length / size) }, (_, index) =>
            results.slice(index * size, (index + 1) * size),
          );
          const plain = await batchText(slices, { wire: false, maxLength: Number.MAX_SAFE_INTEGER });
          expect(textOf(plain.body)).toBe(JSON.stringify(results));
          // The wire form changes only an emission_factor member's flags: these have none.
          const wire = await batchText(slices, { wire: true, maxLength: Number.MAX_SAFE_INTEGER });
          expect(textOf(wire.body)).toBe(JSON.stringify(results));
        },
      ),
    );
  });

  it('a member that changes inside a stretch of kept members is written with its new value', async () => {
    // b is kept ('p'), joined with a into one piece, then changes ('q'): the piece must not be reused.
    const results = [
      { a: 'x', b: 'p', c: 1 },
      { a: 'x', b: 'p', c: 2 },
      { a: 'x', b: 'q', c: 3 },
      { a: 'x', b: 'q', c: 4 },
      { a: 'x', b: 'p', c: 5 },
      { a: 'x', b: 'p', c: 6 },
    ];
    for (const size of [1, 2, 6]) {
      const slices = [0, 1, 2, 3, 4, 5]
        .filter((index) => index % size === 0)
        .map((index) => results.slice(index, index + size));
      expect(textOf((await batchText(slices, { wire: true, maxLength: 1e9 })).body)).toBe(
        JSON.stringify(results),
      );
    }
  });

  it('an object whose names leave the last layout part-way reads each member once, as JSON.stringify does', async () => {
    const reads: string[] = [];
    const counted = (names: string[]) => {
      const object = {};
      for (const name of names)
        Object.defineProperty(object, name, {
          enumerable: true,
          get: () => {
            reads.push(name);
            return name.length;
          },
        });
      return object;
    };
    // Same first two names, then a third that differs, one fewer, and one more than the layout before.
    const results = [
      ['a', 'b', 'c'],
      ['a', 'b', 'd'],
      ['a', 'b'],
      ['a', 'b', 'd', 'e'],
      ['a', 'b', 'd'],
    ].map(counted);
    const expected = JSON.stringify(results);
    const readByStringify = reads.splice(0);
    for (const wire of [true, false]) {
      expect(textOf((await batchText([results], { wire, maxLength: 1e9 })).body)).toBe(expected);
      expect(reads.splice(0)).toEqual(readByStringify);
    }
  });

  it('answers written one after another, interleaved or growing, keep their bytes while later ones are written', async () => {
    const requests = Array.from({ length: 300 }, (_, index) => ({
      cpu_count: (index % 13) + 1,
      region: index % 2 === 0 ? 'us_east_1' : 'eu_west_1',
      duration: 1 + index / 7,
    }));
    const results = calculateCpuBatch('aws', requests, defaultDatasets);
    const expected = (count: number) => JSON.stringify(toWireBatch(results.slice(0, count)));
    const kept: { count: number; body: Uint8Array[] }[] = [];
    for (let round = 0; round < 40; round++) {
      // Two answers at once, their slices alternating; sized for fewer elements than they get, or for none.
      const counts = [1 + ((round * 37) % 300), 1 + ((round * 91) % 300)];
      const writers = counts.map((count, index) =>
        batchWriter({ wire: true, maxLength: 1e9, count: index === 0 ? 1 : undefined }),
      );
      for (let start = 0; start < 300; start += 16)
        writers.forEach((writer, index) => {
          const count = counts[index] as number;
          if (start < count) writer.add(results.slice(start, Math.min(count, start + 16)));
        });
      writers.forEach((writer, index) =>
        kept.push({ count: counts[index] as number, body: writer.end() as Uint8Array[] }),
      );
    }
    for (const { count, body } of kept) expect(textOf(body)).toBe(expected(count));
  });

  it('pieces joined with what follows them: more followers than are kept, and stretches past a joined piece', async () => {
    // After the kept `unit`, 20 different frozen objects follow in turn (more than a piece keeps followers for);
    // and elements of many kept members repeat, so their joined bytes would grow past the longest joined piece.
    const gases = Array.from({ length: 20 }, (_, index) => deepFreeze({ total: index, other: null }));
    const cycling = Array.from({ length: 120 }, (_, index) => ({
      value: index / 3,
      unit: 'kg',
      gases: gases[index % 20],
      audit: 'enabled',
    }));
    const long = Object.fromEntries(
      Array.from({ length: 30 }, (_, index) => [`member_${index}`, 'x'.repeat(60)]),
    );
    const repeated = Array.from({ length: 50 }, () => ({ ...long }));
    for (const results of [cycling, repeated, [...cycling, ...repeated, ...cycling]])
      for (const size of [1, 7, 1_000]) {
        const slices = Array.from({ length: Math.ceil(results.length / size) }, (_, index) =>
          results.slice(index * size, (index + 1) * size),
        );
        expect(textOf((await batchText(slices, { wire: true, maxLength: 1e9 })).body)).toBe(
          JSON.stringify(results),
        );
      }
  });

  it('objects with an own __proto__ member, no prototype, or a prototype of their own, as JSON.stringify writes them', async () => {
    const own = JSON.parse('{"__proto__":{"a":1},"b":2}') as object;
    const ownNull = JSON.parse('{"__proto__":null,"b":2}') as object;
    const bare = Object.assign(Object.create(null) as object, { a: 1, b: 2 });
    const inherited = Object.assign(Object.create({ b: 'inherited' }) as object, { a: 1 });
    const results = [
      { a: 1, b: 2 },
      own,
      ownNull,
      bare,
      inherited,
      { a: 1, b: 2 },
      inherited,
      { value: own },
    ];
    for (const wire of [true, false])
      expect(textOf((await batchText([results], { wire, maxLength: 1e9 })).body)).toBe(
        JSON.stringify(results),
      );
  });

  it('numbers as String writes them, the same number again, and numbers differing only in their exponent', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.double(), { maxLength: 20 }), async (numbers) => {
        const results = [...numbers, ...numbers].map((value, index) => ({
          value,
          index: value * 2 ** (index % 4),
        }));
        expect(textOf((await batchText([results], { wire: true, maxLength: 1e9 })).body)).toBe(
          JSON.stringify(results),
        );
      }),
    );
  });

  it('toJSON is given the member name or the element index, as JSON.stringify gives it', async () => {
    const keyed = { toJSON: (key: string) => `at ${key}` };
    const results = [{ a: keyed, b: [keyed, { c: keyed }] }, keyed, { toJSON: () => undefined }];
    const written = textOf((await batchText([results], { wire: true, maxLength: 1e9 })).body);
    expect(written).toBe(JSON.stringify(results));
    // Worked by hand: the member's name, then the element's index within its array.
    expect(written).toContain('"a":"at a","b":["at 0",{"c":"at c"}]');
  });

  it('an enumerable property added to Object.prototype changes nothing (objects are then walked by their keys)', async () => {
    const results = [{ a: 1 }, { a: 2, b: 'x' }, { a: 3 }];
    const before = textOf((await batchText([results], { wire: true, maxLength: 1e9 })).body);
    Object.defineProperty(Object.prototype, 'b', {
      value: 'inherited',
      enumerable: true,
      configurable: true,
      writable: true,
    });
    try {
      const after = batchWriter({ wire: true, maxLength: 1e9 });
      expect(after.add(results)).toBe(true);
      expect(textOf(after.end())).toBe(JSON.stringify(results));
    } finally {
      delete (Object.prototype as { b?: unknown }).b;
    }
    expect(before).toBe(JSON.stringify(results));
  });

  describe("estimates written from their factor's text (three copies and two numbers)", () => {
    const wireOf = (results: readonly unknown[]) => JSON.stringify(toWireBatch(results));
    const REGIONS = ['us_east_1', 'eu_west_1', 'nowhere'];
    const request = fc.record({
      count: fc.oneof(fc.integer({ min: 0, max: 64 }), fc.double({ min: 0, max: 1e6, noNaN: true })),
      region: fc.constantFrom(...REGIONS),
      duration: fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.double({ min: 1e-6, max: 1e4, noNaN: true })),
      audit: fc.constantFrom('enabled', 'disabled'),
      replication: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
      year: fc.option(fc.integer({ min: 2019, max: 2026 }), { nil: undefined }),
    });

    it('property: varied batches of every use-phase calculator, errors and details among them, as JSON.stringify', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(request, { maxLength: 24 }), async (requests) => {
          const common = (each: (typeof requests)[number]) => ({
            region: each.region,
            duration: each.duration,
            audit_trail: each.audit,
            ...(each.year !== undefined && { year: each.year }),
          });
          // Memory and storage: an amount of data, perhaps replicated (then echoed in calculation_details).
          const stored = (each: (typeof requests)[number]) => ({
            ...common(each),
            data: each.count,
            ...(each.replication !== undefined && { replication_factor: each.replication }),
          });
          const batches = [
            calculateCpuBatch(
              'aws',
              requests.map((each) => ({ ...common(each), cpu_count: each.count })),
              defaultDatasets,
            ),
            calculateMemoryBatch('aws', requests.map(stored), defaultDatasets),
            calculateStorageBatch(
              'aws',
              requests.map((each) => ({ ...stored(each), storage_type: 'ssd' })),
              defaultDatasets,
            ),
            calculateNetworkingBatch(
              'aws',
              requests.map((each) => ({ ...common(each), data: each.count })),
              defaultDatasets,
            ),
          ];
          // Twice: the second time every factor's text is known.
          for (let pass = 0; pass < 2; pass++)
            for (const results of batches) expect(await whole(results, true)).toBe(wireOf(results));
        }),
        { numRuns: 60 },
      );
    });

    it('an estimate changed after it was made, member by member, is written as it now is', async () => {
      const make = () =>
        calculateCpuBatch(
          'aws',
          [1, 2, 3].map((cpu_count) => ({ cpu_count, region: 'us_east_1', duration: 1 })),
          defaultDatasets,
        ) as unknown as Array<Record<string, unknown>>;
      // Every change the text's checks look for, each on the middle estimate of a batch whose factor text is known.
      const changes: Array<(estimate: Record<string, unknown>) => void> = [
        (estimate) => (estimate.notices = []),
        (estimate) => delete estimate.audit_trail,
        (estimate) => (estimate.co2e_unit = 'g'),
        (estimate) => (estimate.co2e_calculation_method = 'ar6'),
        (estimate) => (estimate.co2e_calculation_origin = 'calculated'),
        (estimate) => (estimate.constituent_gases = { ...(estimate.constituent_gases as object) }),
        (estimate) => (estimate.constituent_gases = { ...(estimate.constituent_gases as object), co2: 1 }),
        (estimate) => (estimate.audit_trail = 'disabled'),
        (estimate) => (estimate.co2e = '1'),
        (estimate) => (estimate.co2e = Number.NaN),
        (estimate) => (estimate.co2e = -0),
        (estimate) => (estimate.activity_data = { activity_unit: 'CPU-hour', activity_value: 2 }),
        (estimate) => (estimate.activity_data = { activity_value: 2, activity_unit: 'vCPU-hour' }),
        (estimate) =>
          (estimate.activity_data = { activity_value: Number.POSITIVE_INFINITY, activity_unit: 'CPU-hour' }),
        (estimate) => (estimate.activity_data = { activity_value: 2, activity_unit: 'CPU-hour', extra: 1 }),
        (estimate) =>
          (estimate.activity_data = {
            activity_value: 2,
            activity_unit: 'CPU-hour',
            toJSON: () => 'replaced',
          }),
        (estimate) =>
          Object.defineProperty(estimate.activity_data, 'toJSON', { value: () => 'replaced, not listed' }),
        (estimate) => (estimate.activity_data = { activity_value: '2', activity_unit: 'CPU-hour' }),
        (estimate) => {
          const activity = Object.create({ inherited: true }) as Record<string, unknown>;
          activity.activity_value = 2;
          activity.activity_unit = 'CPU-hour';
          estimate.activity_data = activity;
        },
        (estimate) => {
          // The same names in another order.
          const { co2e, ...rest } = estimate;
          for (const name of Object.keys(estimate)) delete estimate[name];
          Object.assign(estimate, rest, { co2e });
        },
        (estimate) => Object.defineProperty(estimate, 'toJSON', { value: () => ({ replaced: true }) }),
      ];
      expect(await whole(make(), true)).toBe(wireOf(make()));
      for (const change of changes) {
        const results = make();
        change(results[1] as Record<string, unknown>);
        // What JSON.stringify makes of each (toJSON applied), in the wire form where it is still an estimate.
        const expected = results.map((each) => {
          const plain = JSON.parse(JSON.stringify(each)) as Record<string, unknown>;
          return typeof plain.emission_factor === 'object' ? toWireEstimate(plain as never) : plain;
        });
        expect(await whole(results, true)).toBe(JSON.stringify(expected));
      }
    });

    it('an estimate whose factor is not deeply frozen is written as its factor now is', async () => {
      const factor: Record<string, unknown> = { name: 'Thawed', id: 'a', factor: 1, data_quality_flags: [] };
      const estimate = (co2e: number) => ({
        co2e,
        co2e_unit: 'kg',
        co2e_calculation_method: 'ar5',
        co2e_calculation_origin: 'source',
        emission_factor: factor,
        constituent_gases: null,
        activity_data: { activity_value: co2e, activity_unit: 'CPU-hour' },
        audit_trail: 'enabled',
      });
      const first = [estimate(1), estimate(2)];
      expect(await whole(first, true)).toBe(wireOf(first));
      factor.name = 'Changed';
      const second = [estimate(3)];
      expect(await whole(second, true)).toContain('"name":"Changed"');
      expect(await whole(second, true)).toBe(wireOf(second));
    });

    it('a toJSON on Object.prototype is applied to every member, as JSON.stringify applies it', async () => {
      const results = calculateCpuBatch(
        'aws',
        [1, 2].map((cpu_count) => ({ cpu_count, region: 'us_east_1', duration: 1 })),
        defaultDatasets,
      );
      expect(await whole(results, true)).toBe(wireOf(results));
      Object.defineProperty(Object.prototype, 'toJSON', {
        value(this: object) {
          return 'activity_value' in this ? 'an activity' : this;
        },
        configurable: true,
        writable: true,
      });
      try {
        expect(await whole(results, true)).toContain('"activity_data":"an activity"');
        expect(await whole(results, true)).toBe(wireOf(results));
      } finally {
        delete (Object.prototype as { toJSON?: unknown }).toJSON;
      }
    });
  });
});
