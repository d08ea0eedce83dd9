import { describe, expect, it } from 'vitest';
import { defaultDatasets as ds } from '../../src/embedded/index';
import {
  calculateCpu,
  calculateInstance,
  calculateSpend,
  calculateSpendBatch,
  EmissionsError,
  type SpendRequest,
} from '../../src/index';
import { caught } from '../fixtures/caught';

/**
 * "Did you mean" by edit distance (issue 21): the typos each get the intended spelling first, and an ISIC
 * request with a NACE-only code is told that `nace2` takes it. `rmb` is the renminbi's ISO code `cny`.
 */

const thrown = (run: () => unknown): EmissionsError => caught(EmissionsError, run);
const suggestions = (message: string) => /Did you mean: ([^?]*)\?/.exec(message)?.[1]?.split(', ') ?? [];

const SPEND: SpendRequest = {
  activity: { classification_type: 'isic4', classification_code: '4711' },
  spend_year: 2019,
  spend_region: 'DE',
  money: 1000,
  money_unit: 'eur',
  tax_margin: 0,
  trade_margin: 0,
  transport_margin: 0,
};
const spendError = (change: Partial<SpendRequest>) =>
  thrown(() => calculateSpend({ ...SPEND, ...change }, ds));
const isic = (code: string): Partial<SpendRequest> => ({
  activity: { classification_type: 'isic4', classification_code: code },
});

describe('the issue’s typos', () => {
  it('ue_central_1 (two letters swapped) → eu_central_1', () => {
    const error = thrown(() =>
      calculateCpu('aws', { cpu_count: 1, region: 'ue_central_1', duration: 1 }, ds),
    );
    expect(error.error_code).toBe('unknown_region');
    expect(suggestions(error.message)[0]).toBe('eu_central_1');
  });

  it('D2sv3 (no Standard_, no separator) → Standard_D2s_v3', () => {
    const error = thrown(() =>
      calculateInstance('azure', { instance: 'D2sv3', region: 'westeurope', duration: 1 }, ds),
    );
    expect(error.error_code).toBe('unknown_instance');
    expect(error.toJSON().valid_values?.[0]).toBe('Standard_D2s_v3');
  });

  it('n2standard4 (no separators) → n2-standard-4', () => {
    const error = thrown(() =>
      calculateInstance('gcp', { instance: 'n2standard4', region: 'europe_west1', duration: 1 }, ds),
    );
    expect(error.toJSON().valid_values?.[0]).toBe('n2-standard-4');
  });

  it('eru → eur first (a swap of the same letters before ern, one substitution away)', () => {
    const error = spendError({ money_unit: 'eru' });
    expect(error.error_code).toBe('unsupported_currency');
    expect(suggestions(error.message)[0]).toBe('eur');
    expect(error.message).toContain("Currency 'eru' is not supported by");
  });

  it('DR → DE and the other regions one letter away; a region close to none gets no suggestion', () => {
    const error = spendError({ spend_region: 'DR' });
    expect(error.error_code).toBe('no_emission_factors_found');
    expect(suggestions(error.message)).toContain('DE');
    expect(spendError({ spend_region: 'JP' }).message).not.toContain('Did you mean');
  });

  it('an ISIC code with a typo gets the closest ISIC codes', () => {
    const error = spendError(isic('47111'));
    expect(error.error_code).toBe('unknown_classification_code');
    expect(error.toJSON().valid_values).toContain('4711');
    expect(error.message).not.toContain('send classification_type');
  });
});

describe('the ISIC/NACE hint', () => {
  it.each([
    ['8621', 'a NACE Rev. 2 code'], // NACE 86.21 general medical practice; ISIC has only 8620
    ['171', 'a NACE Rev. 2 code'], // NACE group 17.1 pulp and paper; ISIC's is 170
  ])('isic4 %s: says nace2 takes it', (code, name) => {
    const error = spendError(isic(code));
    expect(error.error_code).toBe('unknown_classification_code');
    expect(error.message).toContain(`It is ${name}: send classification_type 'nace2'.`);
    expect(error.toJSON().path).toBe('activity.classification_code');
    // and it does: the same code as nace2 is estimated
    const nace = calculateSpend(
      { ...SPEND, activity: { classification_type: 'nace2', classification_code: code } },
      ds,
    );
    expect(nace.estimate.co2e).toBeGreaterThan(0);
  });

  it('nace2 1701 (an ISIC class): says isic4 takes it', () => {
    const error = spendError({ activity: { classification_type: 'nace2', classification_code: '1701' } });
    expect(error.message).toContain("It is an ISIC Rev. 4 code: send classification_type 'isic4'.");
  });

  it('a code no type knows gets no hint', () => {
    expect(spendError(isic('9999')).message).not.toContain('It is');
  });
});

describe('RMB is CNY', () => {
  it('rmb and RMB give exactly the CNY result', () => {
    const [cny, rmb, upper] = calculateSpendBatch(
      [
        { ...SPEND, money_unit: 'cny' },
        { ...SPEND, money_unit: 'rmb' },
        { ...SPEND, money_unit: 'RMB' },
      ],
      ds,
    );
    expect(rmb).toEqual(cny);
    expect(upper).toEqual(cny);
    expect(
      (cny as { calculation_details: { exchange_rate: number } }).calculation_details.exchange_rate,
    ).not.toBe(1);
  });
});
