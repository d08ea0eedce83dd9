import { describe, expect, it } from 'vitest';
import {
  calculateCpu,
  calculateCpuBatch,
  calculateInstance,
  calculateSpend,
  type Estimate,
} from '../../src/index';
import { defaultDatasets } from '../../src/embedded/index';
import { RETAIL_DE } from '../fixtures/requests';

/**
 * Issue 13 item 4: `emission_factor` and `constituent_gases` are built once per factor and shared, frozen, by every
 * estimate of that factor, instead of being copied per result. Sharing must not let a caller change the engine's
 * state, and rounding (`significantDigits`) must still show its own factor number.
 */

const cpuRequest = { cpu_count: 2, region: 'us_east_1', duration: 3, year: 2022 };

function expectFrozenShared(first: Estimate, second: Estimate) {
  expect(second.emission_factor).toBe(first.emission_factor);
  expect(second.constituent_gases).toBe(first.constituent_gases);
  expect(Object.isFrozen(first.emission_factor)).toBe(true);
  expect(Object.isFrozen(first.emission_factor?.data_quality_flags)).toBe(true);
  expect(Object.isFrozen(first.constituent_gases)).toBe(true);
}

describe('shared, frozen factor parts', () => {
  it('are one object for every estimate of the same factor, within a batch and across calls', () => {
    const [a, b] = calculateCpuBatch(
      'aws',
      [cpuRequest, { ...cpuRequest, duration: 5 }],
      defaultDatasets,
    ) as [Estimate, Estimate];
    expectFrozenShared(a, b);
    expectFrozenShared(a, calculateCpu('aws', cpuRequest, defaultDatasets));
    // The rest of a result is its own.
    expect(a.activity_data).not.toBe(b.activity_data);
    expect(Object.isFrozen(a)).toBe(false);
    expect(Object.isFrozen(a.activity_data)).toBe(false);
  });

  it('cannot be changed by a caller, so the next result is unchanged', () => {
    const first = calculateCpu('aws', cpuRequest, defaultDatasets);
    const factor = first.emission_factor as NonNullable<Estimate['emission_factor']>;
    const pristine = structuredClone(first);
    // ES modules are strict: writing to a frozen object throws rather than failing silently.
    expect(() => {
      factor.name = 'changed';
    }).toThrow(TypeError);
    expect(() => factor.data_quality_flags.push('changed')).toThrow(TypeError);
    expect(() => {
      (first.constituent_gases as { co2: number | null }).co2 = 1;
    }).toThrow(TypeError);
    expect(calculateCpu('aws', cpuRequest, defaultDatasets)).toEqual(pristine);
  });

  it('copy like any object, and serialise as before (field order of the hosted API)', () => {
    const estimate = calculateCpu('aws', cpuRequest, defaultDatasets);
    const copy = { ...estimate.emission_factor, name: 'mine' };
    expect(copy.name).toBe('mine');
    expect(Object.keys(JSON.parse(JSON.stringify(estimate)).emission_factor)).toEqual([
      'name',
      'id',
      'activity_id',
      'factor',
      'access_type',
      'source',
      'source_dataset',
      'year',
      'region',
      'category',
      'source_lca_activity',
      'data_quality_flags',
    ]);
  });

  it('keep the gas breakdown per origin: the instance electricity (engine) and embodied (source) estimates', () => {
    const request = { instance: 't2.micro', region: 'us_east_1', duration: 1, duration_unit: 'h' } as const;
    const vm = calculateInstance('aws', request, defaultDatasets);
    expect(vm.cpu_estimate.constituent_gases?.co2e_total).toBeNull();
    expect(vm.cpu_estimate.emission_factor).toBe(vm.memory_estimate.emission_factor);
    expect(vm.embodied_cpu_estimate.constituent_gases?.co2e_total).toBe(
      vm.embodied_cpu_estimate.emission_factor?.factor,
    );
    expectFrozenShared(vm.cpu_estimate, calculateInstance('aws', request, defaultDatasets).cpu_estimate);
  });

  it('are frozen too, but per call, when significantDigits rounds the factor', () => {
    const options = { significantDigits: 2 };
    const exact = calculateCpu('aws', cpuRequest, defaultDatasets);
    const first = calculateCpu('aws', cpuRequest, defaultDatasets, options);
    const second = calculateCpu('aws', cpuRequest, defaultDatasets, options);
    expect(first.emission_factor?.factor).toBe(
      Number((exact.emission_factor?.factor as number).toPrecision(2)),
    );
    expect(first.emission_factor).toEqual(second.emission_factor);
    expect(Object.isFrozen(first.emission_factor)).toBe(true);
    // The exact parts are not replaced by the rounded ones, nor the other way round.
    expect(calculateCpu('aws', cpuRequest, defaultDatasets).emission_factor).toBe(exact.emission_factor);
  });

  it('are null, not shared objects, with the audit trail disabled', () => {
    const estimate = calculateCpu('aws', { ...cpuRequest, audit_trail: 'disabled' }, defaultDatasets);
    expect(estimate.emission_factor).toBeNull();
    expect(estimate.constituent_gases).toBeNull();
  });

  it('are shared by spend estimates of the same factor too', () => {
    const request = { ...RETAIL_DE, spend_year: 2023 } as const;
    const first = calculateSpend(request, defaultDatasets);
    const second = calculateSpend({ ...request, money: 250 }, defaultDatasets);
    expectFrozenShared(first.estimate, second.estimate);
  });
});
