import { describe, expect, it } from 'vitest';
import { calculateCpu } from '../../src/cloud/cpu';
import { CALCULATORS } from '../../src/calculators';
import { isErrorBody } from '../../src/core/batch';
import { EmissionsError } from '../../src/core/errors';
import { defaultDatasets } from '../../src/embedded/index';

/**
 * DESIGN §2: the batch functions never throw for a bad element. An element that cannot even be read (a getter that
 * throws, a revoked Proxy) is bad input, not an engine bug: it becomes its `invalid_request` body at `requests[i]`,
 * and the elements around it are computed.
 */

const REQUESTS: Record<keyof typeof CALCULATORS, Record<string, unknown>> = {
  cpu: { cpu_count: 2, region: 'us_east_1', duration: 3 },
  memory: { data: 16, region: 'us_east_1', duration: 3 },
  storage: { data: 100, storage_type: 'ssd', region: 'us_east_1', duration: 3 },
  networking: { data: 10, region: 'us_east_1' },
  embodied: { instance: 'm5.large', instance_count: 1, duration: 3 },
  instance: { instance: 'm5.large', region: 'us_east_1', duration: 3 },
  spend: {
    activity: { classification_type: 'isic4', classification_code: '62' },
    spend_year: 2023,
    spend_region: 'GB',
    money: 10,
    money_unit: 'gbp',
  },
};

/** The element with its `field` read through a getter that throws `boom`. */
const throwingGetter = (request: Record<string, unknown>, field: string) => {
  const element = { ...request };
  Object.defineProperty(element, field, {
    enumerable: true,
    get() {
      throw new Error('boom');
    },
  });
  return element;
};

const revoked = (request: Record<string, unknown>) => {
  const { proxy, revoke } = Proxy.revocable({ ...request }, {});
  revoke();
  return proxy;
};

const batchOf = (id: keyof typeof CALCULATORS, requests: unknown[]): unknown[] => {
  const { batch } = CALCULATORS[id];
  return id === 'spend'
    ? (batch as (requests: unknown, datasets: unknown) => unknown[])(requests, defaultDatasets)
    : (batch as (provider: string, requests: unknown, datasets: unknown) => unknown[])(
        'aws',
        requests,
        defaultDatasets,
      );
};

describe.each(Object.keys(REQUESTS) as Array<keyof typeof CALCULATORS>)('%s batch', (id) => {
  const ok = REQUESTS[id];
  const field = Object.keys(ok).at(-1) as string;

  it.each([
    ['a getter that throws', () => throwingGetter(ok, field), /^The request could not be read: boom\.$/],
    [
      'a revoked Proxy',
      () => revoked(ok),
      // The first operation on it names itself: 'IsArray', 'ownKeys', 'get'.
      /^The request could not be read: Cannot perform '\w+' on a proxy that has been revoked\.$/,
    ],
  ])('an element with %s becomes its invalid_request body; the others are computed', (_, bad, message) => {
    const results = batchOf(id, [ok, bad(), ok]);
    expect(results).toHaveLength(3);
    expect(results[1]).toEqual({
      error: 'bad_request',
      error_code: 'invalid_request',
      message: expect.stringMatching(message),
      path: 'requests[1]',
    });
    expect(isErrorBody(results[0])).toBe(false);
    expect(results[2]).toEqual(results[0]);
  });
});

/** The batch itself behind a Proxy whose read of `index` throws `boom`: an array to Array.isArray. */
const throwingIndex = (requests: unknown[], index: number) =>
  new Proxy(requests, {
    get(target, key, receiver) {
      if (key === String(index)) throw new Error('boom');
      return Reflect.get(target, key, receiver) as unknown;
    },
  });

describe.each(Object.keys(REQUESTS) as Array<keyof typeof CALCULATORS>)('%s batch behind a Proxy', (id) => {
  const ok = REQUESTS[id];

  it('an element whose read throws becomes its invalid_request body; the others are computed', () => {
    const results = batchOf(id, throwingIndex([ok, ok, ok], 1) as unknown[]);
    expect(results).toHaveLength(3);
    expect(results[1]).toEqual({
      error: 'bad_request',
      error_code: 'invalid_request',
      message: 'The request could not be read: boom.',
      path: 'requests[1]',
    });
    expect(isErrorBody(results[0])).toBe(false);
    expect(results[2]).toEqual(results[0]);
  });

  it('a batch whose length cannot be read is refused as invalid_request, not with the Proxy’s own error', () => {
    const requests = new Proxy([ok], {
      get(target, key, receiver) {
        if (key === 'length') throw new Error('no length');
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    expect(() => batchOf(id, requests)).toThrow(
      expect.objectContaining({
        constructor: EmissionsError,
        error_code: 'invalid_request',
        message: 'The batch could not be read: no length.',
        path: 'requests',
      }),
    );
  });
});

describe('a single call given an element it cannot read', () => {
  it('throws an EmissionsError invalid_request, not the getter’s own error', () => {
    const bad = throwingGetter(REQUESTS.cpu, 'duration');
    let thrown: unknown;
    try {
      calculateCpu('aws', bad as never, defaultDatasets);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(EmissionsError);
    expect((thrown as EmissionsError).error_code).toBe('invalid_request');
    expect((thrown as EmissionsError).message).toBe('The request could not be read: boom.');
  });
});
