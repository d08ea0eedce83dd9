/**
 * The double-double fast paths of the calculators (issue 40 item 2) give the very numbers of the exact decimal path:
 * the same request once with its duration a number (the fast path) and once as an exact decimal (which always takes
 * the exact path) must give deep-equal results, over every instance type, region, year, utilisation and duration unit,
 * with durations of every length (short decimals, 17-digit ones, tiny and huge).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compare, decimal, mul, productOfNumbers, toNumber } from '../../src/core/decimal';
import { calculateEmbodied } from '../../src/cloud/embodied';
import { calculateInstance, instanceResolved } from '../../src/cloud/instance';
import { resolveRegion } from '../../src/cloud/resolve';
import { defaultDatasets } from '../../src/embedded/index';
import {
  DATA_UNIT_SPELLINGS,
  DATA_UNITS,
  DURATION_UNIT_SPELLINGS,
  gigabytesRatio,
  hoursRatio,
  parseDurationUnit,
  toGigabytes,
  toHours,
  unitRatio,
} from '../../src/core/units';
import { parseRequest } from '../../src/core/validate';
import { decidedProduct } from '../../src/cloud/fast-activity';
import { CPU_USE_PHASE, calculateCpu, cpuResolved } from '../../src/cloud/cpu';
import { MEMORY_USE_PHASE, calculateMemory, memoryResolved } from '../../src/cloud/memory';
import { STORAGE_USE_PHASE, calculateStorage, storageResolved } from '../../src/cloud/storage';
import { NETWORKING_USE_PHASE, calculateNetworking, networkingResolved } from '../../src/cloud/networking';

const PROVIDERS = ['aws', 'azure', 'gcp'] as const;
const duration = fc.oneof(
  fc.integer({ min: 1, max: 200_000 }).map((cents) => cents / 100),
  fc.double({ min: 1e-6, max: 1e9, noNaN: true }).filter((x) => x > 0),
  fc.constantFrom(1, 0.1, 1 / 3, 8760, 1e-6, 123456789.123, 2 ** -10),
);
const unit = fc.constantFrom('hour', 'min', 'sec', 'ms', 'day');

describe('instance: fast path = exact path', () => {
  it('gives deep-equal results for numbers and for the same durations as exact decimals', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PROVIDERS),
        fc.nat(),
        fc.nat(),
        duration,
        unit,
        fc.option(fc.integer({ min: 0, max: 100 }).map((p) => p / 100)),
        fc.option(fc.constantFrom(2021, 2022, 2023, 2024, 2025)),
        (provider, instanceIndex, regionIndex, hours, durationUnit, utilization, year) => {
          const instances = defaultDatasets.cloudInstances.list(provider);
          const regions = defaultDatasets.cloudRegions.list(provider);
          const instance = instances[instanceIndex % instances.length]!;
          const region = { region: regions[regionIndex % regions.length]! };
          const request = {
            instance,
            region: region.region,
            duration: hours,
            duration_unit: durationUnit,
            ...(utilization === null ? {} : { average_vcpu_utilization: utilization }),
            ...(year === null ? {} : { year }),
          };
          let fast: unknown;
          try {
            fast = calculateInstance(provider, request as never, defaultDatasets);
          } catch (error) {
            fast = error;
          }
          let exact: unknown;
          try {
            exact = instanceResolved(
              {
                provider,
                region: resolveRegion(provider, region.region, defaultDatasets),
                input: {
                  instance,
                  region: region.region,
                  duration: decimal(hours),
                  duration_unit: parseDurationUnit(durationUnit)!,
                  average_vcpu_utilization: utilization ?? 0.5,
                  year: year ?? undefined,
                  audit_trail: 'enabled',
                },
              },
              defaultDatasets,
            );
          } catch (error) {
            exact = error;
          }
          expect(fast).toStrictEqual(exact);
        },
      ),
      { numRuns: 3_000 },
    );
  });
});

describe('embodied: fast path = exact decimals', () => {
  it('publishes count × hours as the exact decimal path computes it, and co2e as its product with the factor', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PROVIDERS),
        fc.nat(),
        fc.integer({ min: 1, max: 1_000 }),
        duration,
        unit,
        (provider, instanceIndex, count, hours, durationUnit) => {
          const instances = defaultDatasets.cloudInstances.list(provider);
          const instance = instances[instanceIndex % instances.length]!;
          const result = calculateEmbodied(
            provider,
            { instance, instance_count: count, duration: hours, duration_unit: durationUnit } as never,
            defaultDatasets,
          );
          const exactHours = toNumber(
            mul(decimal(count), toHours(decimal(hours), parseDurationUnit(durationUnit)!)),
          );
          expect(result.activity_data.activity_value).toBe(exactHours);
          expect(result.co2e).toBe(productOfNumbers(exactHours, result.emission_factor!.factor));
        },
      ),
      { numRuns: 3_000 },
    );
  });
});

/** The use-phase calculators' fast activities against their exact decimal paths (issue 40 item 2). */
const USE_PHASE = [
  {
    spec: CPU_USE_PHASE,
    calculate: calculateCpu,
    resolved: cpuResolved,
    quantities: ['cpu_count', 'duration'],
    known: ['region', 'year', 'duration_unit', 'average_vcpu_utilization'],
  },
  {
    spec: MEMORY_USE_PHASE,
    calculate: calculateMemory,
    resolved: memoryResolved,
    quantities: ['data', 'duration'],
    known: ['region', 'year', 'duration_unit', 'data_unit', 'replication_factor'],
  },
  {
    spec: STORAGE_USE_PHASE,
    calculate: calculateStorage,
    resolved: storageResolved,
    quantities: ['data', 'duration'],
    known: ['region', 'year', 'duration_unit', 'data_unit', 'replication_factor', 'storage_type'],
  },
  {
    spec: NETWORKING_USE_PHASE,
    calculate: calculateNetworking,
    resolved: networkingResolved,
    quantities: ['data'],
    known: ['region', 'year', 'data_unit'],
  },
] as const;

const quantity = fc.oneof(
  duration,
  fc.double({ min: 1e-300, max: 1e-6, noNaN: true }),
  fc.double({ min: 1e9, max: 1e15, noNaN: true }),
  fc.constantFrom(0, 2 ** 50, 2 ** 53 - 1, 1e15, 0.30000000000000004, 9007199254740.993),
);
const anyCase = (spelling: string) =>
  fc.constantFrom(spelling, spelling.toLowerCase(), spelling.toUpperCase());
const durationSpelling = fc.constantFrom(...DURATION_UNIT_SPELLINGS).chain(anyCase);
const dataSpelling = fc.constantFrom(...DATA_UNIT_SPELLINGS).chain(anyCase);
const replication = fc.option(
  fc.oneof(
    fc.integer({ min: 1, max: 6 }),
    fc.double({ min: 1e-3, max: 1e3, noNaN: true }).filter((x) => x > 0),
  ),
);

describe.each(USE_PHASE)(
  '$spec.kind: fast activity = exact decimals',
  ({ spec, calculate, resolved, quantities, known }) => {
    it('gives deep-equal results for numbers and for the same quantities as exact decimals', () => {
      let computed = 0;
      let decided = 0;
      fc.assert(
        fc.property(
          fc.constantFrom(...PROVIDERS),
          fc.nat(),
          fc.tuple(quantity, quantity),
          durationSpelling,
          dataSpelling,
          replication,
          fc.integer({ min: 0, max: 100 }).map((p) => p / 100),
          fc.constantFrom('ssd', 'hdd', 'SSD'),
          fc.option(fc.constantFrom(2021, 2022, 2023, 2024, 2025)),
          (
            provider,
            regionIndex,
            [first, second],
            durationUnit,
            dataUnit,
            copies,
            utilization,
            storageType,
            year,
          ) => {
            const regions = defaultDatasets.cloudRegions.list(provider);
            const region = regions[regionIndex % regions.length]!;
            const request: Record<string, unknown> = {
              region,
              duration_unit: durationUnit,
              data_unit: dataUnit,
              average_vcpu_utilization: utilization,
              storage_type: storageType,
              ...(copies === null ? {} : { replication_factor: copies }),
              ...(year === null ? {} : { year }),
            };
            request[quantities[0]] = quantities[0] === 'cpu_count' ? Math.round(first) : first;
            if (quantities[1] !== undefined) request[quantities[1]] = second;
            // Only the fields this calculator's schema knows (a strict schema refuses the others).
            for (const field of Object.keys(request)) {
              const fields: readonly string[] = [...known, ...quantities];
              if (!fields.includes(field)) delete request[field];
            }
            let fast: unknown;
            try {
              fast = calculate(provider, request as never, defaultDatasets);
              computed++;
            } catch (error) {
              fast = error;
            }
            let exact: unknown;
            try {
              const input = parseRequest(spec.schema, request) as Record<string, unknown>;
              if (spec.fastActivity(input as never) !== undefined) decided++;
              for (const field of quantities) input[field] = decimal(input[field] as number);
              exact = resolved(
                { provider, region: resolveRegion(provider, region, defaultDatasets), input: input as never },
                defaultDatasets,
              );
            } catch (error) {
              exact = error;
            }
            expect(fast).toStrictEqual(exact);
          },
        ),
        { numRuns: 2_000 },
      );
      // Many requests are computed (the rest are errors both paths give alike: a year without factors, a quantity
      // above the maximum, a huge product), and those take the fast path.
      expect(computed).toBeGreaterThan(300);
      expect(decided).toBeGreaterThan(300);
    });
  },
);

describe('use-phase fast activities', () => {
  // Worked by hand: 4 CPUs × 90 min = 6 CPU-hours; 16 GiB = 17.179869184 GB, × 24 h × 2 copies = 824.633720832;
  // 2 TB × 720 h = 1,440,000 GB-hours = 1440 TB-hours; 5 TB = 5000 GB.
  it.each([
    [CPU_USE_PHASE, { cpu_count: 4, duration: 90, duration_unit: 'min' }, 6],
    [
      MEMORY_USE_PHASE,
      { data: 16, data_unit: 'GiB', duration: 24, duration_unit: 'hour', replication_factor: 2 },
      824.633720832,
    ],
    [
      STORAGE_USE_PHASE,
      { data: 2, data_unit: 'TB', duration: 720, duration_unit: 'hour', storage_type: 'ssd' },
      1440,
    ],
    [NETWORKING_USE_PHASE, { data: 5, data_unit: 'TB' }, 5000],
  ] as const)('%# decides the activity a request states', (spec, fields, expected) => {
    expect(spec.fastActivity({ region: 'r', audit_trail: 'enabled', ...fields } as never)).toBe(expected);
  });

  it('declines exact decimals and zero (the exact path takes them)', () => {
    const input = { region: 'r', audit_trail: 'enabled', data_unit: 'GB', duration_unit: 'hour' } as const;
    expect(MEMORY_USE_PHASE.fastActivity({ ...input, data: decimal(2), duration: 1 })).toBeUndefined();
    expect(NETWORKING_USE_PHASE.fastActivity({ ...input, data: 0 })).toBeUndefined();
  });

  it('decidedProduct multiplies quantities by their unit ratios, and declines exact decimals and zero', () => {
    expect(decidedProduct(90, hoursRatio('min'), 4)).toBe(6);
    expect(decidedProduct(16, gigabytesRatio('GiB'), 24, hoursRatio('hour'), 2)).toBe(824.633720832);
    // 1,440,000 GB-hours / 1000 = 1440 TB-hours; 0.1 + 0.2 read as decimals: 3 × 0.1 = 0.3 exactly.
    expect(
      decidedProduct(2, gigabytesRatio('TB'), 720, hoursRatio('hour'), undefined, unitRatio(1, 1000)),
    ).toBe(1440);
    expect(decidedProduct(0.1, hoursRatio('hour'), 3)).toBe(0.3);
    expect(decidedProduct(decimal(2), hoursRatio('hour'))).toBeUndefined();
    expect(decidedProduct(0, hoursRatio('hour'))).toBeUndefined();
  });

  it('reads every data unit as the exact ratio the decimal path uses', () => {
    for (const unit of DATA_UNITS) {
      const { times, per } = gigabytesRatio(unit);
      expect(compare(toGigabytes(decimal(per), unit), decimal(times))).toBe(0);
    }
  });
});
