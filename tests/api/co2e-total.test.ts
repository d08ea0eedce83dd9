/**
 * `constituent_gases.co2e_total` (SPEC.md): the factor as the source reports it, null when the engine performed
 * the calculation (origin `co2e-engine`).
 */
import { describe, expect, it } from 'vitest';
import { calculateCpu, calculateEmbodied, calculateInstance, calculateSpend } from '../../src/index';
import { defaultDatasets } from '../../src/embedded/index';

const spend = (code: string) =>
  calculateSpend(
    {
      activity: { classification_type: 'isic4', classification_code: code },
      spend_year: 2019,
      spend_region: 'DE',
      money: 1000,
      money_unit: 'eur',
    },
    defaultDatasets,
  ).estimate;

describe('co2e_total', () => {
  it('is null for a spend factor the engine averaged over several products', () => {
    const estimate = spend('10'); // ISIC 10 maps to 10 EXIOBASE products
    expect(estimate.co2e_calculation_origin).toBe('co2e-engine');
    expect(estimate.constituent_gases).toEqual({
      co2e_total: null,
      co2e_other: null,
      co2: null,
      ch4: null,
      n2o: null,
    });
    expect(estimate.emission_factor?.factor).toBeGreaterThan(0);
  });

  it("is the source's factor for a spend code of one product", () => {
    const estimate = spend('4711'); // retail: one EXIOBASE product
    expect(estimate.co2e_calculation_origin).toBe('source');
    expect(estimate.constituent_gases?.co2e_total).toBe(estimate.emission_factor?.factor);
  });

  it("is null for an instance's electricity estimates and the factor for its embodied one", () => {
    const vm = calculateInstance(
      'aws',
      { instance: 't3.micro', region: 'us_east_1', duration: 1 },
      defaultDatasets,
    );
    for (const part of [vm.cpu_estimate, vm.memory_estimate]) {
      expect(part.co2e_calculation_origin).toBe('co2e-engine');
      expect(part.constituent_gases?.co2e_total).toBeNull();
    }
    expect(vm.embodied_cpu_estimate.co2e_calculation_origin).toBe('source');
    expect(vm.embodied_cpu_estimate.constituent_gases?.co2e_total).toBe(
      vm.embodied_cpu_estimate.emission_factor?.factor,
    );
  });

  it('is the factor for the use-phase calculators (origin source)', () => {
    const cpu = calculateCpu('gcp', { cpu_count: 2, region: 'europe_west1', duration: 1 }, defaultDatasets);
    expect(cpu.constituent_gases?.co2e_total).toBe(cpu.emission_factor?.factor);
    const embodied = calculateEmbodied(
      'aws',
      { instance: 't2.micro', instance_count: 1, duration: 1 },
      defaultDatasets,
    );
    expect(embodied.constituent_gases?.co2e_total).toBe(embodied.emission_factor?.factor);
  });
});
