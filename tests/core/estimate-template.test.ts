import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimal } from '../../src/core/decimal';
import { approximateProductWith, shortestPair } from '../../src/core/double-double';
import {
  buildEstimate,
  type EstimateParts,
  estimateOfTemplate,
  estimateTemplate,
  noTemplates,
  templateOf,
} from '../../src/core/estimate';
import { Reference } from './big-reference';

/**
 * Estimate templates (issue 40 item 2): everything of an estimate but its activity, made once per factor, so an
 * estimate of an activity number does no lookups. An estimate made from a template must be deep-equal to the one
 * `buildEstimate` makes from the same parts, and its co2e the double of big.js's exact product of the two published
 * numbers' shortest decimals, for any activity and factor.
 */
const metadata = {
  name: 'CPU, test region',
  id: 'abc123',
  activity_id: 'cloud-cpu',
  access_type: 'public',
  source: 'CCF',
  source_dataset: 'test',
  year: 2024,
  region: 'XX',
  category: 'Cloud',
  source_lca_activity: 'use_phase',
  data_quality_flags: ['partial_factor'],
} as const;

const partsOf = (factor: string, auditTrail: 'enabled' | 'disabled', origin: 'source' | 'co2e-engine') =>
  ({
    activityUnit: 'CPU-hour',
    factor: decimal(factor),
    metadata: { ...metadata, data_quality_flags: [...metadata.data_quality_flags] },
    method: 'ar5',
    origin,
    auditTrail,
  }) satisfies Omit<EstimateParts, 'activityValue'>;

/** Factors as the tables make them: short published figures and long computed quotients. */
const factorText = fc.oneof(
  fc.integer({ min: 1, max: 999_999 }).map((n) => `${n}e-7`),
  fc.double({ min: 1e-9, max: 1e3, noNaN: true }).map((x) => String(x)),
  fc.constantFrom('0.000392', '0.0469', '1', '0.1', '7.5e-320', '123456789.123456789123456789'),
);
const activity = fc.oneof(
  fc.integer({ min: 0, max: 2_000_000 }).map((cents) => cents / 100),
  fc.double({ min: 1e-12, max: 1e12, noNaN: true }),
  fc.constantFrom(0, 1, 1 / 3, 2 ** -10, 6.000000000000001),
);

const viaBig = (a: number, b: number): number => {
  const product = new Reference(a).times(new Reference(b));
  return product.eq(0) ? 0 : Number(product.toString());
};

describe('estimateOfTemplate', () => {
  it('gives the estimate buildEstimate gives from the same parts', () => {
    fc.assert(
      fc.property(
        activity,
        factorText,
        fc.constantFrom('enabled', 'disabled'),
        fc.constantFrom('source', 'co2e-engine'),
        (value, factor, auditTrail, origin) => {
          const parts = partsOf(factor, auditTrail as 'enabled', origin as 'source');
          const expected = (() => {
            try {
              return buildEstimate({ ...parts, activityValue: decimal(value) });
            } catch (error) {
              return error;
            }
          })();
          const actual = (() => {
            try {
              return estimateOfTemplate(value, estimateTemplate(parts));
            } catch (error) {
              return error;
            }
          })();
          expect(actual).toEqual(expected);
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('multiplies the two published numbers exactly, rounding once', () => {
    fc.assert(
      fc.property(activity, factorText, (value, factor) => {
        const template = estimateTemplate(partsOf(factor, 'disabled', 'source'));
        const exact = viaBig(value, template.factor);
        if (exact === 0 && value !== 0) {
          // Below the smallest double: an error, never a silent 0.
          expect(() => estimateOfTemplate(value, template)).toThrow(/below 5e-324/);
        } else expect(Object.is(estimateOfTemplate(value, template).co2e, exact)).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });

  it('shares the factor parts between the estimates of one template, and gives each its own activity_data', () => {
    const template = estimateTemplate(partsOf('0.0469', 'enabled', 'source'));
    const [first, second] = [estimateOfTemplate(2, template), estimateOfTemplate(3, template)];
    expect(first.emission_factor).toBe(second.emission_factor);
    expect(Object.isFrozen(first.emission_factor)).toBe(true);
    expect(first.activity_data).not.toBe(second.activity_data);
    expect([first.co2e, second.co2e]).toEqual([0.0938, 0.1407]);
  });

  it('throws as the estimate would for a factor beyond the doubles', () => {
    const parts = partsOf('1e400', 'disabled', 'source');
    expect(() => estimateTemplate(parts)).toThrow(/beyond 1\.8e308/);
    expect(() => buildEstimate({ ...parts, activityValue: decimal(1) })).toThrow(/beyond 1\.8e308/);
  });
});

describe('templateOf', () => {
  it('makes a template once per audit trail and method, and replaces one of another method', () => {
    const templates = noTemplates();
    const enabled = partsOf('0.5', 'enabled', 'source');
    const first = templateOf(templates, enabled);
    expect(templateOf(templates, enabled)).toBe(first);
    const disabled = templateOf(templates, partsOf('0.5', 'disabled', 'source'));
    expect(disabled.emissionFactor).toBeNull();
    expect(templates.disabled).toBe(disabled);
    const ar6 = templateOf(templates, { ...enabled, method: 'ar6' });
    expect(ar6).not.toBe(first);
    expect(ar6.method).toBe('ar6');
  });
});

describe('approximateProductWith', () => {
  // Any doubles (many need more places than the fast path takes), and the sizes activities and factors have.
  it.each([
    ['any doubles', 1e-12, 1e12, 1e-9, 1e3, 0.3],
    ['activities and factors', 1e-3, 1e9, 1e-6, 10, 0.99],
  ])('is the double of the exact product where it decides (%s)', (_, aMin, aMax, bMin, bMax, share) => {
    let decided = 0;
    let runs = 0;
    fc.assert(
      fc.property(
        fc.double({ min: aMin, max: aMax, noNaN: true }),
        fc.double({ min: bMin, max: bMax, noNaN: true }),
        (a, b) => {
          runs++;
          const pair = shortestPair(b);
          const product = pair === undefined ? undefined : approximateProductWith(a, pair[0], pair[1]);
          if (product === undefined) return;
          decided++;
          expect(Object.is(product, viaBig(a, b))).toBe(true);
        },
      ),
      { numRuns: 20_000 },
    );
    // Declining is always allowed (the exact path answers), but a fast path that declined everything would be none.
    expect(decided / runs).toBeGreaterThan(share);
  });
});
