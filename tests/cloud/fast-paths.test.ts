/**
 * The double-double fast paths of the calculators (issue 40 item 2) give the very numbers of the exact decimal path:
 * the same request once with its duration a number (the fast path) and once as an exact decimal (which always takes
 * the exact path) must give deep-equal results, over every instance type, region, year, utilisation and duration unit,
 * with durations of every length (short decimals, 17-digit ones, tiny and huge).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimal, mul, productOfNumbers, toNumber } from '../../src/core/decimal';
import { calculateEmbodied } from '../../src/cloud/embodied';
import { calculateInstance, instanceResolved } from '../../src/cloud/instance';
import { resolveRegion } from '../../src/cloud/resolve';
import { defaultDatasets } from '../../src/embedded/index';
import { parseDurationUnit, toHours } from '../../src/core/units';

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
