import { describe, expect, it } from 'vitest';
import { calculateCpu, calculateEmbodied, calculateInstance } from '../../src/index';
import { ccfAppDatasets, cloudDatasets as defaultDatasets } from '../../src/embedded/cloud';
import regionsJson from '../../datasets/cloud/regions-electricitymaps.json';
import type { CloudRegionsTable } from '../../src/datasets/tables';

const regionsTable = regionsJson as CloudRegionsTable;

/**
 * Issue 38: the eight types a new user tries first answer, each embodied figure derived from its platform's published
 * specs (scripts/datasets/cloud/platform-specs.ts). Platform figures worked by hand: 1000 kg + (platform GiB − 16) ·
 * 533/384 (to 0.01 kg, half to even) + 100 kg per socket beyond the first.
 */
const EIGHT = [
  // provider, type, region, vCPUs, platform vCPUs, platform kg
  // c3-standard-176: 704 GiB, 2 sockets: 688 · 533/384 = 954.958… → 954.96
  ['gcp', 'c3-standard-4', 'us-central1', 4, 176, 2054.96],
  // n4-standard-80: 320 GiB, 2 sockets: 304 · 533/384 = 421.958… → 421.96
  ['gcp', 'n4-standard-4', 'us-central1', 4, 80, 1521.96],
  // c4-standard-192: 720 GiB, 2 sockets: 704 · 533/384 = 977.166… → 977.17
  ['gcp', 'c4-standard-4', 'europe-west1', 4, 192, 2077.17],
  // D192s_v6: 768 GiB, 2 sockets: 752 · 533/384 = 1043.791… → 1043.79
  ['azure', 'Standard_D4s_v6', 'westeurope', 4, 192, 2143.79],
  // E128s_v6: 1024 GiB, 2 sockets: 1008 · 533/384 = 1399.125 → 1399.12 (half to even)
  ['azure', 'Standard_E4s_v6', 'eastus', 4, 128, 2499.12],
  // r7i.metal-48xl: 1536 GiB, 2 sockets: 1520 · 533/384 = 2109.791… → 2109.79
  ['aws', 'r7i.large', 'us-east-1', 2, 192, 3209.79],
  // m8i.metal-96xl: 1536 GiB, 2 sockets
  ['aws', 'm8i.large', 'eu-west-1', 2, 384, 3209.79],
  // c8g.metal-48xl: 384 GiB, 2 Graviton4 sockets: 368 · 533/384 = 510.791… → 510.79
  ['aws', 'c8g.large', 'us-west-2', 2, 192, 1610.79],
] as const;

describe("today's fleet under the default datasets (issue 38)", () => {
  it.each(EIGHT)(
    '%s %s answers calculateEmbodied with its platform-derived figure',
    (p, type, _r, vcpu, platform, kg) => {
      const estimate = calculateEmbodied(
        p,
        { instance: type, instance_count: 1, duration: 24 },
        defaultDatasets,
      );
      // kg per instance-hour = platform kg · vCPU / platform vCPU / 35,040 h; × 24 h
      expect(estimate.co2e).toBeCloseTo((kg * vcpu * 24) / (platform * 35040), 15);
      expect(estimate.activity_data).toEqual({ activity_value: 24, activity_unit: 'instance-hour' });
      expect(estimate.calculation_details).toEqual({ embodied_method: 'derived from platform specs' });
    },
  );

  it.each(EIGHT)(
    '%s %s answers calculateInstance and names its embodied method',
    (p, type, region, vcpu, platform, kg) => {
      const vm = calculateInstance(
        p,
        { instance: type, region, duration: 1, duration_unit: 'h' },
        defaultDatasets,
      );
      expect(vm.calculation_details.embodied_method).toBe('derived from platform specs');
      expect(vm.calculation_details.vcpu_cores).toBe(vcpu);
      expect(vm.embodied_cpu_estimate.co2e).toBeCloseTo((kg * vcpu) / (platform * 35040), 15);
      // The default profile keeps the provider's average watts (SPEC.md): no per-type watts in the details.
      expect(vm.calculation_details.cpu_min_watts).toBeUndefined();
      expect(vm.total_co2e).toBeGreaterThan(0);
    },
  );

  it('names a published figure as published, and a predecessor-derived one as such', () => {
    const m5 = calculateEmbodied(
      'aws',
      { instance: 'm5.large', instance_count: 1, duration: 1 },
      defaultDatasets,
    );
    expect(m5.calculation_details).toEqual({ embodied_method: 'published' });
    const m7g = calculateInstance(
      'aws',
      { instance: 'm7g.large', region: 'us-east-1', duration: 1 },
      defaultDatasets,
    );
    expect(m7g.calculation_details.embodied_method).toBe('derived from predecessor family');
  });
});

/**
 * Under the CCF application profile, each type takes the watts per vCPU ccf-coefficients' 2026 use coefficients give
 * its microarchitecture (coefficients-aws-use.csv; GCP coefficients-gcp-use.csv), to 0.01 W as the app's constants.
 */
const CCF_WATTS = {
  // GCP Sapphire Rapids 1.0362861…, 4.0621010… (GCP max)
  'c3-standard-4': [1.04, 4.06],
  // GCP Emerald Rapids 0.8140104…, 4.3816792…
  'n4-standard-4': [0.81, 4.38],
  'c4-standard-4': [0.81, 4.38],
  // Emerald Rapids (AWS file: CCF's Azure file of 2022 has no such row) 0.8140104…, 4.4820312…
  Standard_D4s_v6: [0.81, 4.48],
  Standard_E4s_v6: [0.81, 4.48],
  // Sapphire Rapids 1.0362861…, 4.1604763…
  'r7i.large': [1.04, 4.16],
  // Granite Rapids 0.5815883…, 2.5274707…
  'm8i.large': [0.58, 2.53],
  // Graviton4 = EPYC 2nd Gen by ccf-coefficients' assumption: 0.4742621…, 1.6929615…
  'c8g.large': [0.47, 1.69],
} as const;

describe("today's fleet under ccfAppDatasets: per-processor watts (issue 38)", () => {
  it.each(EIGHT)('%s %s uses its processor’s watts', (p, type, region, vcpu) => {
    const vm = calculateInstance(p, { instance: type, region, duration: 1 }, ccfAppDatasets);
    const [min, max] = CCF_WATTS[type];
    expect([vm.calculation_details.cpu_min_watts, vm.calculation_details.cpu_max_watts]).toEqual([min, max]);
    expect(vm.calculation_details.embodied_method).toBe('derived from platform specs');
    // CPU kWh = vCPU · (min + 0.5 · (max − min)) / 1000 · PUE, 1 h
    const pue = vm.calculation_details.power_usage_effectiveness;
    expect(vm.calculation_details.energy_used_cpu).toBeCloseTo(
      (vcpu * (min + 0.5 * (max - min)) * pue) / 1000,
      12,
    );
  });
});

describe("today's regions: a grid zone and the year of its factor (issue 38 item 4)", () => {
  const REGIONS = [
    ['aws', 'mx-central-1', 'MX'],
    ['aws', 'ap-southeast-5', 'MY-WM'],
    ['aws', 'ap-southeast-7', 'TH'],
    ['aws', 'ca-west-1', 'CA-AB'],
    ['gcp', 'africa-south1', 'ZA'],
    ['gcp', 'europe-north2', 'SE-SE3'],
    ['azure', 'mexicocentral', 'MX'],
    ['azure', 'spaincentral', 'ES'],
    ['azure', 'newzealandnorth', 'NZ'],
    ['azure', 'malaysiawest', 'MY-WM'],
    ['azure', 'austriaeast', 'AT'],
    ['azure', 'denmarkeast', 'DK-DK2'],
  ] as const;
  it.each(REGIONS)('%s %s answers with zone %s and names the factor’s year', (provider, region, zone) => {
    const row = regionsTable.regions.find((r) => r.provider === provider && r.region === region);
    expect(row?.grid_zone).toBe(zone);
    for (const year of [2022, 2025]) {
      const cpu = calculateCpu(provider, { cpu_count: 1, region, duration: 1, year }, defaultDatasets);
      expect(cpu.emission_factor?.year).toBe(year);
      expect(row?.grid_sources?.[year]).toBe(
        `Electricity Maps yearly average ${year}, zone ${zone} (via @tgwf/co2 0.19.0)`,
      );
    }
  });
});
