/**
 * Properties of the cloud calculators over generated inputs (fast-check): linearity in duration and in the
 * counted quantity, unit invariance (60 min = 1 h, 1 TB = 1000 GB, 24 h = 1 day), batch = map of singles, no
 * NaN/Infinity/negative output for any valid input, determinism.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EmissionsError, type ErrorBody, type CloudProviderSpelling } from '../../src/index';
import { MAX_QUANTITY } from '../../src/schemas';
import { defaultDatasets } from '../../src/embedded/index';
import { Big, relativeDifference, toNumber } from './exact';
import {
  cloudBatch,
  cloudSingle,
  type CloudCalculatorName,
  type CloudResult,
} from '../fixtures/cloud-calculators';

const ds = defaultDatasets;
const RUNS = { numRuns: 150 };
/** Results are exact decimals converted once to a JS number; comparing two such conversions leaves float noise only. */
const FLOAT_NOISE = 1e-12;

type Provider = 'aws' | 'azure' | 'gcp';
const PROVIDERS: Provider[] = ['aws', 'azure', 'gcp'];
const YEARS = [2021, 2022, 2023, 2024, 2025];
type Request = Record<string, unknown>;
type Result = CloudResult;

// ---- arbitraries -------------------------------------------------------------------------------------------------

/** A decimal with at most 3 places and 13 significant digits, so that small multiples stay exact JS numbers. */
const decimalQuantity = fc.integer({ min: 0, max: 10_000_000 }).map((thousandths) => thousandths / 1000);
/**
 * Any accepted quantity whose result is a JS number, including the extremes. Below about 1e-100 (two quantities are
 * multiplied) a nonzero result can fall under 5e-324; the engine answers that with an error, not 0 (tests/loaders/bounds.test.ts).
 */
const anyQuantity = fc.oneof(
  fc.double({ min: 0, max: MAX_QUANTITY, noNaN: true }).filter((value) => value === 0 || value >= 1e-100),
  fc.constantFrom(0, MAX_QUANTITY, 1e-100, 0.1, 1),
  decimalQuantity,
);
const anyCount = fc.oneof(fc.integer({ min: 0, max: 2 ** 31 }), fc.constantFrom(0, 1, MAX_QUANTITY));
type Range = 'any' | 'moderate';
const quantity = (range: Range = 'any') => (range === 'any' ? anyQuantity : decimalQuantity);
const count = (range: Range = 'any') => (range === 'any' ? anyCount : fc.integer({ min: 0, max: 1_000_000 }));
const optionalYear = fc.option(fc.constantFrom(...YEARS), { nil: undefined });
const durationUnit = fc.option(fc.constantFrom('hour', 'h', 'min', 'sec', 's', 'ms', 'day', 'HOUR', 'Min'), {
  nil: undefined,
});
const dataUnit = fc.option(fc.constantFrom('KB', 'MB', 'GB', 'TB', 'PB', 'gb', 'Tb'), { nil: undefined });
const utilization = fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined });
const auditTrail = fc.option(fc.constantFrom('enabled', 'disabled'), { nil: undefined });

const regionOf = (provider: Provider) => fc.constantFrom(...ds.cloudRegions.list(provider));
const instanceOf = (provider: Provider) => fc.constantFrom(...ds.cloudInstances.list(provider));

/** Drops undefined fields, as a JSON body would not have them. */
const compact = (request: Request): Request =>
  Object.fromEntries(Object.entries(request).filter(([, value]) => value !== undefined));

interface Calculator {
  name: string;
  single: (provider: CloudProviderSpelling, request: Request) => Result;
  batch: (provider: CloudProviderSpelling, requests: unknown[]) => Array<Result | ErrorBody>;
  /**
   * A valid request for a provider. `any` covers the whole accepted input space (down to 5e-324 and up to
   * MAX_QUANTITY); `moderate` keeps quantities at up to 3 decimals and 1e4, where results are normal JS numbers
   * with full relative precision (proportionality is meaningless for results in the subnormal range).
   */
  request: (provider: Provider, range?: Range) => fc.Arbitrary<Request>;
  /** The field that co2e is proportional to, besides duration. */
  amount: string;
  hasDuration: boolean;
  hasData: boolean;
}

const co2eOf = (result: Result) => ('total_co2e' in result ? result.total_co2e : result.co2e);

type Fields = Record<string, fc.Arbitrary<unknown>>;
const durationFields = (range?: Range): Fields => ({
  duration: quantity(range),
  duration_unit: durationUnit,
});
const dataFields = (range?: Range): Fields => ({ data: quantity(range), data_unit: dataUnit });

/** A calculator's entry: its own request fields (in generation order), then the optional year and audit trail. */
function calculator(
  name: CloudCalculatorName,
  amount: string,
  fields: (provider: Provider, range?: Range) => Fields,
): Calculator {
  const names = Object.keys(fields('aws'));
  return {
    name,
    single: (p, r) => cloudSingle(name)(p, r, ds),
    batch: (p, r) => cloudBatch(name)(p, r, ds),
    request: (p, range) => fc.record({ ...fields(p, range), year: optionalYear, audit_trail: auditTrail }),
    amount,
    hasDuration: names.includes('duration'),
    hasData: names.includes('data'),
  };
}

const CALCULATORS: Calculator[] = [
  calculator('cpu', 'cpu_count', (p, range) => ({
    cpu_count: count(range),
    region: regionOf(p),
    average_vcpu_utilization: utilization,
    ...durationFields(range),
  })),
  calculator('memory', 'data', (p, range) => ({
    region: regionOf(p),
    ...dataFields(range),
    ...durationFields(range),
  })),
  calculator('storage', 'data', (p, range) => ({
    region: regionOf(p),
    storage_type: fc.constantFrom('ssd', 'hdd', 'SSD'),
    ...dataFields(range),
    ...durationFields(range),
  })),
  calculator('networking', 'data', (p, range) => ({ region: regionOf(p), ...dataFields(range) })),
  calculator('embodied', 'instance_count', (p, range) => ({
    instance: instanceOf(p),
    instance_count: count(range),
    ...durationFields(range),
  })),
  calculator('instance', 'duration', (p, range) => ({
    instance: instanceOf(p),
    region: regionOf(p),
    ...durationFields(range),
    average_vcpu_utilization: utilization,
  })),
];

/** A provider with a valid request for it. */
const providerAndRequest = (calculator: Calculator, range: Range = 'any') =>
  fc
    .constantFrom(...PROVIDERS)
    .chain((provider) =>
      calculator.request(provider, range).map((request) => ({ provider, request: compact(request) })),
    );

/** k × value, exactly, as the nearest JS number (exact for the generated decimals). */
const times = (value: number, k: number) => toNumber(new Big(value).times(k));

/** Every number in a result, with where it is. */
function numbersIn(value: unknown, path = ''): Array<[string, number]> {
  if (typeof value === 'number') return [[path, value]];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => numbersIn(inner, `${path}.${key}`));
}

// ---- properties --------------------------------------------------------------------------------------------------

describe.each(CALCULATORS)('$name', (calculator) => {
  if (calculator.hasDuration) {
    it('co2e is linear in duration', () => {
      fc.assert(
        fc.property(
          providerAndRequest(calculator, 'moderate'),
          decimalQuantity,
          fc.integer({ min: 1, max: 1000 }),
          ({ provider, request }, duration, k) => {
            const once = co2eOf(calculator.single(provider, { ...request, duration }));
            const scaled = co2eOf(calculator.single(provider, { ...request, duration: times(duration, k) }));
            expect(relativeDifference(scaled, new Big(once).times(k))).toBeLessThanOrEqual(FLOAT_NOISE);
          },
        ),
        RUNS,
      );
    });

    it('60 min = 1 h, 3600 sec = 3600 s = 1 h, 3 600 000 ms = 1 h, 1 day = 24 h (exactly equal results)', () => {
      fc.assert(
        fc.property(providerAndRequest(calculator), decimalQuantity, ({ provider, request }, hours) => {
          const inHours = calculator.single(provider, { ...request, duration: hours, duration_unit: 'hour' });
          expect(calculator.single(provider, { ...request, duration: hours, duration_unit: 'h' })).toEqual(
            inHours,
          );
          expect(
            calculator.single(provider, { ...request, duration: times(hours, 60), duration_unit: 'min' }),
          ).toEqual(inHours);
          expect(
            calculator.single(provider, { ...request, duration: times(hours, 3600), duration_unit: 'sec' }),
          ).toEqual(inHours);
          expect(
            calculator.single(provider, { ...request, duration: times(hours, 3600), duration_unit: 's' }),
          ).toEqual(inHours);
          expect(
            calculator.single(provider, {
              ...request,
              duration: times(hours, 3_600_000),
              duration_unit: 'ms',
            }),
          ).toEqual(inHours);
          const days = calculator.single(provider, { ...request, duration: hours, duration_unit: 'day' });
          expect(days).toEqual(
            calculator.single(provider, { ...request, duration: times(hours, 24), duration_unit: 'hour' }),
          );
          const { duration_unit: _omitted, ...withoutUnit } = request;
          expect(calculator.single(provider, { ...withoutUnit, duration: hours })).toEqual(inHours);
        }),
        RUNS,
      );
    });
  }

  if (calculator.amount !== 'duration') {
    it(`co2e is linear in ${calculator.amount}`, () => {
      fc.assert(
        fc.property(
          providerAndRequest(calculator, 'moderate'),
          calculator.amount === 'data' ? decimalQuantity : fc.integer({ min: 0, max: 1_000_000 }),
          fc.integer({ min: 1, max: 1000 }),
          ({ provider, request }, amount, k) => {
            const once = co2eOf(calculator.single(provider, { ...request, [calculator.amount]: amount }));
            const scaled = co2eOf(
              calculator.single(provider, { ...request, [calculator.amount]: times(amount, k) }),
            );
            expect(relativeDifference(scaled, new Big(once).times(k))).toBeLessThanOrEqual(FLOAT_NOISE);
          },
        ),
        RUNS,
      );
    });
  }

  if (calculator.hasData) {
    it('1 TB = 1000 GB = 10^6 MB = 10^9 KB, 1 PB = 1000 TB (exactly equal results)', () => {
      fc.assert(
        fc.property(providerAndRequest(calculator), decimalQuantity, ({ provider, request }, terabytes) => {
          const inTb = calculator.single(provider, { ...request, data: terabytes, data_unit: 'TB' });
          expect(
            calculator.single(provider, { ...request, data: times(terabytes, 1000), data_unit: 'GB' }),
          ).toEqual(inTb);
          expect(
            calculator.single(provider, { ...request, data: times(terabytes, 1e6), data_unit: 'MB' }),
          ).toEqual(inTb);
          expect(
            calculator.single(provider, { ...request, data: times(terabytes, 1e9), data_unit: 'KB' }),
          ).toEqual(inTb);
          expect(calculator.single(provider, { ...request, data: terabytes, data_unit: 'tb' })).toEqual(inTb);
          const inPb = calculator.single(provider, { ...request, data: terabytes, data_unit: 'PB' });
          expect(inPb).toEqual(
            calculator.single(provider, { ...request, data: times(terabytes, 1000), data_unit: 'TB' }),
          );
        }),
        RUNS,
      );
    });
  }

  it('never returns NaN, Infinity or a negative number (or -0) for any valid input', () => {
    fc.assert(
      fc.property(providerAndRequest(calculator), ({ provider, request }) => {
        const result = calculator.single(provider, request);
        const numbers = numbersIn(result);
        expect(numbers.length).toBeGreaterThan(0);
        for (const [where, value] of numbers) {
          expect(Number.isFinite(value), `${where} = ${value}`).toBe(true);
          expect(value >= 0 && !Object.is(value, -0), `${where} = ${value}`).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('any input whatsoever gives a result or an EmissionsError, never another exception', () => {
    const fieldNames = [
      'region',
      'instance',
      'storage_type',
      'duration',
      'duration_unit',
      'data',
      'data_unit',
      'cpu_count',
      'instance_count',
      'average_vcpu_utilization',
      'year',
      'audit_trail',
      'constructor',
      '__proto__',
    ];
    const junkValue = fc.oneof(
      fc.anything(),
      fc.string(),
      fc.constantFrom('constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'prototype', ''),
      fc.double(),
    );
    const input = fc.oneof(
      fc.anything(),
      fc.jsonValue(),
      fc
        .tuple(providerAndRequest(calculator), fc.constantFrom(...fieldNames), junkValue)
        .map(
          ([{ request }, field, value]) =>
            JSON.parse(JSON.stringify({ ...request, [field]: value }) ?? 'null') as unknown,
        ),
    );
    fc.assert(
      fc.property(
        fc.constantFrom<string>(...PROVIDERS, 'AWS', 'ibm', '__proto__'),
        input,
        (provider, request) => {
          try {
            calculator.single(provider as CloudProviderSpelling, request as Request);
          } catch (error) {
            expect(error).toBeInstanceOf(EmissionsError);
          }
          // A batch throws only for its provider (a path parameter); any element becomes a result or error body.
          const supported = PROVIDERS.includes(provider.toLowerCase() as never);
          if (supported)
            expect(() => calculator.batch(provider as CloudProviderSpelling, [request])).not.toThrow();
          else
            expect(() => calculator.batch(provider as CloudProviderSpelling, [request])).toThrow(
              EmissionsError,
            );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('is deterministic and does not modify the request', () => {
    fc.assert(
      fc.property(providerAndRequest(calculator), ({ provider, request }) => {
        const copy = structuredClone(request);
        const first = calculator.single(provider, request);
        expect(request).toEqual(copy);
        expect(calculator.single(provider, copy)).toEqual(first);
      }),
      RUNS,
    );
  });

  it('batch = map of singles; a bad element is its single error body under requests[i]', () => {
    const mutations: Array<fc.Arbitrary<(request: Request) => unknown>> = [
      fc.constant((request: Request) => request),
      fc.constant(() => null),
      fc.constant(() => 'not an object'),
      fc.constant((request: Request) => ({ ...request, unexpected: 1 })),
      fc.constant((request: Request) => ({ ...request, year: 1999 })),
      fc
        .constantFrom('region', 'instance', 'storage_type', 'duration', 'data', 'cpu_count', 'instance_count')
        .map((field) => (request: Request) => {
          const copy = { ...request };
          delete copy[field];
          return copy;
        }),
      fc
        .constantFrom('region', 'instance', 'duration', 'data', 'cpu_count', 'duration_unit', 'data_unit')
        .map((field) => (request: Request) => ({
          ...request,
          [field]: field.includes('unit') ? 'fortnight' : 'junk',
        })),
      fc.constant((request: Request) => ({ ...request, [calculator.amount]: -1 })),
    ];
    const element = (provider: Provider) =>
      fc
        .tuple(calculator.request(provider), fc.oneof(...mutations))
        .map(([request, mutate]) => mutate(compact(request)));
    const batchOf = fc.constantFrom(...PROVIDERS).chain((provider) =>
      fc.record({
        provider: fc.constant(provider),
        requests: fc.array(element(provider), { maxLength: 8 }),
      }),
    );

    fc.assert(
      fc.property(batchOf, ({ provider, requests }) => {
        const results = calculator.batch(provider, requests);
        expect(results).toHaveLength(requests.length);
        requests.forEach((request, index) => {
          let expected: unknown;
          try {
            expected = calculator.single(provider as CloudProviderSpelling, request as Request);
          } catch (error) {
            if (!(error instanceof EmissionsError)) throw error;
            const body = error.toJSON();
            const path =
              body.path === undefined || body.path === ''
                ? `requests[${index}]`
                : `requests[${index}].${body.path}`;
            expected = { ...body, path };
          }
          expect(results[index]).toEqual(expected);
        });
      }),
      { numRuns: 100 },
    );
  });
});
