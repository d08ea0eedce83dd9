import { describe, expect, it } from 'vitest';
import { decimal } from '../../src/core/decimal';
import {
  estimateFromTemplate,
  estimateOfNumber,
  estimateTemplate,
  type FactorMetadata,
} from '../../src/core/estimate';

/**
 * estimateTemplate / estimateFromTemplate (issue 40 item 2): the factor's number and shared parts looked up once per
 * factor give the very estimate estimateOfNumber gives, with the same shared frozen factor parts.
 */

const metadata: FactorMetadata = {
  name: 'Retail trade',
  id: 'abc123',
  activity_id: 'retail-trade',
  access_type: 'public',
  source: 'EXIOBASE',
  source_dataset: 'OEFDB',
  year: 2022,
  region: 'DE',
  category: 'Procurement',
  source_lca_activity: 'unknown',
  data_quality_flags: [],
};
const parts = (auditTrail: 'enabled' | 'disabled') =>
  ({
    activityUnit: 'eur',
    factor: decimal('0.0469'),
    metadata,
    method: 'ar6',
    origin: 'source',
    auditTrail,
  }) as const;

describe('estimate templates', () => {
  it('give estimateOfNumber’s estimate, co2e the exact product rounded once (worked by hand)', () => {
    const audited = parts('enabled');
    const fromTemplate = estimateFromTemplate(estimateTemplate(audited), 170597.26211294835);
    expect(fromTemplate).toStrictEqual(estimateOfNumber(170597.26211294835, audited));
    // 170597.26211294835 × 0.0469 = 8001.011593097277615 exactly → the double 8001.011593097278.
    expect(fromTemplate.co2e).toBe(8001.011593097278);
    expect(JSON.stringify(fromTemplate)).toBe(JSON.stringify(estimateOfNumber(170597.26211294835, audited)));
    expect(fromTemplate.emission_factor).toBe(estimateOfNumber(1, audited).emission_factor);
  });

  it('leave the factor out without the audit trail', () => {
    const unaudited = parts('disabled');
    const estimate = estimateFromTemplate(estimateTemplate(unaudited), 2);
    expect(estimate).toStrictEqual(estimateOfNumber(2, unaudited));
    expect([estimate.emission_factor, estimate.constituent_gases, estimate.co2e]).toEqual([
      null,
      null,
      0.0938,
    ]);
  });

  it('throw for a factor beyond the doubles, as estimateOfNumber does', () => {
    const huge = { ...parts('enabled'), factor: decimal('1e400') };
    expect(() => estimateTemplate(huge)).toThrow(/beyond 1.8e308/);
    expect(() => estimateOfNumber(1, huge)).toThrow(/beyond 1.8e308/);
  });
});
