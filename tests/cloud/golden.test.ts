/**
 * Golden values for the six cloud calculators, worked out by hand from DESIGN.md §3 and the embedded tables.
 *
 * Inputs (datasets/cloud/coefficients.json, regions-electricitymaps.json, instances.json; pinned by the first
 * `describe` so that a data change fails there with a clear message rather than in the arithmetic below):
 *
 *   AWS   Wmin 0.74  Wmax 3.5   PUE 1.135   us-east-1    grid 2021 0.439, 2022 0.434, 2023 0.401, 2024 0.403, 2025 0.418
 *   Azure Wmin 0.78  Wmax 3.76  PUE 1.185   westeurope   grid 2022 0.347, 2023 0.28
 *   GCP   Wmin 0.71  Wmax 4.26  PUE 1.1     europe-west1 grid 2022 0.197, 2024 0.153
 *   all   memory 0.000392 kWh/GB-h, SSD 1.2 / HDD 0.65 Wh/TB-h, networking 0.001 kWh/GB, lifetime 35040 h
 *   AWS   t2.micro         1 vCPU, 1 GiB, platform 48 vCPU, TE 1477.54 kg
 *   AWS   m5.large         2 vCPU, 8 GiB, platform 96 vCPU, TE 1610.79 kg
 *   Azure Standard_D2s_v3  2 vCPU, 8 GiB, platform 64 vCPU, TE 1483.12 kg
 *   GCP   e2-standard-2    2 vCPU, 8 GiB, platform 32 vCPU, TE 1230.46 kg
 *
 * Results that need a division (minutes → hours, embodied ÷ 35040) are computed here with big.js (tests/cloud/exact.ts)
 * from the formula, independently of src.
 */
import { describe, expect, it } from 'vitest';
import coefficientsJson from '../../datasets/cloud/coefficients.json';
import instancesJson from '../../datasets/cloud/instances.json';
import regionsJson from '../../datasets/cloud/regions-electricitymaps.json';
import {
  calculateCpu,
  calculateEmbodied,
  calculateInstance,
  calculateMemory,
  calculateNetworking,
  calculateStorage,
  createEngine,
  type Estimate,
  type DurationUnitSpelling,
  type CloudProviderSpelling,
} from '../../src/index';
import { ccfGridDatasets, defaultDatasets } from '../../src/embedded/index';
import { Big, type BigValue, publishedProduct, relativeDifference, toNumber } from './exact';

const ds = defaultDatasets;
const HEX_ID = /^[0-9a-f]{32}$/;
const LIFETIME = 35040;

/** co2e = activity_value × factor, checked in decimal on the output numbers. */
function expectCo2eIsActivityTimesFactor(estimate: Estimate) {
  const factor = estimate.emission_factor?.factor;
  expect(factor).toBeTypeOf('number');
  expect(estimate.co2e).toBe(
    toNumber(new Big(estimate.activity_data.activity_value).times(factor as number)),
  );
}

/** Embodied co2e worked out from the formula: hours × count × TE × vCPU / (platform vCPU × 35040). */
const embodiedKg = (
  instanceHours: number | BigValue,
  te: string,
  vcpu: number,
  platformVcpu: number,
): BigValue =>
  new Big(instanceHours)
    .times(te)
    .times(vcpu)
    .div(platformVcpu * LIFETIME);

/**
 * The embodied co2e an estimate publishes (issue 39): the hours times the published factor TE × vCPU / (platform
 * vCPU × 35040), rounded once.
 */
const publishedEmbodiedKg = (
  instanceHours: number | BigValue,
  te: string,
  vcpu: number,
  platformVcpu: number,
) => publishedProduct(instanceHours, embodiedKg(1, te, vcpu, platformVcpu));

describe('dataset inputs the golden values rely on', () => {
  it('has the CCF coefficients of DESIGN.md §3', () => {
    const common = {
      memory_kwh_per_gb_hour: 0.000392,
      ssd_wh_per_tb_hour: 1.2,
      hdd_wh_per_tb_hour: 0.65,
      networking_kwh_per_gb: 0.001,
      server_lifetime_hours: 35040,
    };
    // GPU watts (issue 22) are pinned in tests/datasets/cloud-gpus.test.ts.
    const cpu = Object.fromEntries(
      Object.entries(coefficientsJson.providers).map(([provider, { gpu_watts: _gpus, ...rest }]) => [
        provider,
        rest,
      ]),
    );
    expect(cpu).toEqual({
      aws: { min_watts: 0.74, max_watts: 3.5, pue: 1.135, ...common },
      azure: { min_watts: 0.78, max_watts: 3.76, pue: 1.185, ...common },
      gcp: { min_watts: 0.71, max_watts: 4.26, pue: 1.1, ...common },
    });
  });

  it('has the grid factors and instance specs used below', () => {
    const grid = (provider: string, region: string) =>
      regionsJson.regions.find((row) => row.provider === provider && row.region === region)?.grid_factors;
    expect(grid('aws', 'us-east-1')).toEqual({
      2021: 0.439,
      2022: 0.434,
      2023: 0.401,
      2024: 0.403,
      2025: 0.418,
    });
    expect(grid('azure', 'westeurope')).toMatchObject({ 2022: 0.347, 2023: 0.28 });
    expect(grid('gcp', 'europe-west1')).toMatchObject({ 2022: 0.197, 2024: 0.153 });
    expect(regionsJson.default_year).toBe(2022);
    expect(instancesJson.default_year).toBe(2021);
    const spec = (provider: string, instance: string) =>
      instancesJson.instances.find((row) => row.provider === provider && row.instance === instance);
    expect(spec('aws', 't2.micro')).toMatchObject({
      vcpu: 1,
      memory_gib: 1,
      platform_vcpu: 48,
      platform_embodied_kgco2e: 1477.54,
    });
    expect(spec('aws', 'm5.large')).toMatchObject({
      vcpu: 2,
      memory_gib: 8,
      platform_vcpu: 96,
      platform_embodied_kgco2e: 1610.79,
    });
    expect(spec('azure', 'Standard_D2s_v3')).toMatchObject({
      vcpu: 2,
      memory_gib: 8,
      platform_vcpu: 64,
      platform_embodied_kgco2e: 1483.12,
    });
    expect(spec('gcp', 'e2-standard-2')).toMatchObject({
      vcpu: 2,
      memory_gib: 8,
      platform_vcpu: 32,
      platform_embodied_kgco2e: 1230.46,
    });
  });
});

describe('calculateCpu', () => {
  it('AWS us_east_1, 4 vCPU, 1 h, default u 0.5 and year 2022', () => {
    // W = 0.74 + 0.5·(3.5 − 0.74) = 2.12 W; 2.12/1000 · 1.135 = 0.0024062 kWh per CPU-hour
    // factor = 0.0024062 · 0.434 = 0.0010442908 kg/CPU-hour; activity 4 · 1 = 4; co2e = 0.0041771632
    const estimate = calculateCpu('aws', { cpu_count: 4, region: 'us_east_1', duration: 1 }, ds);
    expect(estimate.activity_data).toEqual({ activity_value: 4, activity_unit: 'CPU-hour' });
    expect(estimate.emission_factor?.factor).toBe(0.0010442908);
    expect(estimate.emission_factor?.year).toBe(2022);
    expect(estimate.co2e).toBe(0.0041771632);
    expect(estimate.co2e_unit).toBe('kg');
    expect(estimate.co2e_calculation_method).toBe('ar5');
    expect(estimate.co2e_calculation_origin).toBe('source');
    expect(estimate.audit_trail).toBe('enabled');
    expect(estimate.constituent_gases).toEqual({
      co2e_total: 0.0010442908,
      co2e_other: null,
      co2: null,
      ch4: null,
      n2o: null,
    });
    expectCo2eIsActivityTimesFactor(estimate);
  });

  it('AWS at u 0 uses Wmin only', () => {
    // 0.74/1000 · 1.135 = 0.0008399; · 0.434 = 0.0003645166
    const estimate = calculateCpu(
      'aws',
      { cpu_count: 1, region: 'us_east_1', duration: 1, average_vcpu_utilization: 0 },
      ds,
    );
    expect(estimate.co2e).toBe(0.0003645166);
  });

  it('Azure westeurope, 2 vCPU, u 0.75, 10 h, year 2023', () => {
    // W = 0.78 + 0.75·(3.76 − 0.78) = 0.78 + 2.235 = 3.015 W; 0.003015 · 1.185 = 0.003572775 kWh
    // factor = 0.003572775 · 0.28 = 0.001000377; activity 2 · 10 = 20; co2e = 0.02000754
    const estimate = calculateCpu(
      'azure',
      { cpu_count: 2, region: 'westeurope', duration: 10, average_vcpu_utilization: 0.75, year: 2023 },
      ds,
    );
    expect(estimate.activity_data.activity_value).toBe(20);
    expect(estimate.emission_factor?.factor).toBe(0.001000377);
    expect(estimate.emission_factor?.year).toBe(2023);
    expect(estimate.co2e).toBe(0.02000754);
    expectCo2eIsActivityTimesFactor(estimate);
  });

  it('Azure westeurope at the defaults', () => {
    // W = 0.78 + 0.5·2.98 = 2.27; 0.00227 · 1.185 = 0.00268995; · 0.347 = 0.00093341265
    expect(calculateCpu('azure', { cpu_count: 1, region: 'westeurope', duration: 1 }, ds).co2e).toBe(
      0.00093341265,
    );
  });

  it('GCP europe_west1, 8 vCPU, u 1, 3 h, year 2024', () => {
    // W = 4.26; 0.00426 · 1.1 = 0.004686 kWh; factor = 0.004686 · 0.153 = 0.000716958; activity 24; co2e = 0.017206992
    const estimate = calculateCpu(
      'gcp',
      { cpu_count: 8, region: 'europe_west1', duration: 3, average_vcpu_utilization: 1, year: 2024 },
      ds,
    );
    expect(estimate.emission_factor?.factor).toBe(0.000716958);
    expect(estimate.co2e).toBe(0.017206992);
    expectCo2eIsActivityTimesFactor(estimate);
  });

  it('GCP europe_west1 at the defaults', () => {
    // W = 0.71 + 0.5·3.55 = 2.485; 0.002485 · 1.1 = 0.0027335; · 0.197 = 0.0005384995
    expect(calculateCpu('gcp', { cpu_count: 1, region: 'europe_west1', duration: 1 }, ds).co2e).toBe(
      0.0005384995,
    );
  });
});

describe('calculateMemory', () => {
  it('AWS us_east_1, 16 GB (default unit), 24 h', () => {
    // factor = 0.000392 · 1.135 · 0.434 = 0.00019309528 kg/GB-hour; activity 16 · 24 = 384; co2e = 0.07414858752
    const estimate = calculateMemory('aws', { region: 'us_east_1', data: 16, duration: 24 }, ds);
    expect(estimate.activity_data).toEqual({ activity_value: 384, activity_unit: 'GB-hour' });
    expect(estimate.emission_factor?.factor).toBe(0.00019309528);
    expect(estimate.co2e).toBe(0.07414858752);
    expectCo2eIsActivityTimesFactor(estimate);
  });

  it('Azure westeurope, 2 TB (= 2000 GB), 1 h', () => {
    // factor = 0.000392 · 1.185 · 0.347 = 0.00016118844; activity 2000 GB-hour; co2e = 0.32237688
    const estimate = calculateMemory(
      'azure',
      { region: 'westeurope', data: 2, data_unit: 'TB', duration: 1 },
      ds,
    );
    expect(estimate.activity_data.activity_value).toBe(2000);
    expect(estimate.emission_factor?.factor).toBe(0.00016118844);
    expect(estimate.co2e).toBe(0.32237688);
    expectCo2eIsActivityTimesFactor(estimate);
  });

  it('GCP europe_west1, 500000 KB (= 0.5 GB), 2 h', () => {
    // activity 0.5 · 2 = 1 GB-hour; factor = 0.000392 · 1.1 · 0.197 = 0.0000849464 = co2e
    const estimate = calculateMemory(
      'gcp',
      { region: 'europe_west1', data: 500_000, data_unit: 'KB', duration: 2 },
      ds,
    );
    expect(estimate.activity_data.activity_value).toBe(1);
    expect(estimate.co2e).toBe(0.0000849464);
  });

  it('MB and PB are decimal units too', () => {
    // 1500 MB = 1.5 GB → 1.5 GB-hour · 0.00019309528 = 0.00028964292
    expect(
      calculateMemory('aws', { region: 'us_east_1', data: 1500, data_unit: 'MB', duration: 1 }, ds).co2e,
    ).toBe(0.00028964292);
    // 0.001 PB = 1000 GB → 1000 GB-hour · 0.00019309528 = 0.19309528
    expect(
      calculateMemory('aws', { region: 'us_east_1', data: 0.001, data_unit: 'PB', duration: 1 }, ds).co2e,
    ).toBe(0.19309528);
  });
});

describe('calculateStorage', () => {
  it('AWS us_east_1 SSD, 2 TB, 720 h', () => {
    // factor = 1.2/1000 · 1.135 · 0.434 = 0.000591108 kg/TB-hour; activity 2 · 720 = 1440; co2e = 0.85119552
    const estimate = calculateStorage(
      'aws',
      { region: 'us_east_1', storage_type: 'ssd', data: 2, data_unit: 'TB', duration: 720 },
      ds,
    );
    expect(estimate.activity_data).toEqual({ activity_value: 1440, activity_unit: 'TB-hour' });
    expect(estimate.emission_factor?.factor).toBe(0.000591108);
    expect(estimate.co2e).toBe(0.85119552);
    expectCo2eIsActivityTimesFactor(estimate);
  });

  it('Azure westeurope HDD, 500 GB (default unit, = 0.5 TB), 24 h', () => {
    // factor = 0.65/1000 · 1.185 · 0.347 = 0.00026727675; activity 0.5 · 24 = 12 TB-hour; co2e = 0.003207321
    const estimate = calculateStorage(
      'azure',
      { region: 'westeurope', storage_type: 'hdd', data: 500, duration: 24 },
      ds,
    );
    expect(estimate.activity_data.activity_value).toBe(12);
    expect(estimate.emission_factor?.factor).toBe(0.00026727675);
    expect(estimate.co2e).toBe(0.003207321);
    expectCo2eIsActivityTimesFactor(estimate);
  });

  it('GCP europe_west1 SSD, 1 TB, 30 days', () => {
    // 30 day = 720 h; factor = 0.0012 · 1.1 · 0.197 = 0.00026004; activity 720 TB-hour; co2e = 0.1872288
    const estimate = calculateStorage(
      'gcp',
      {
        region: 'europe_west1',
        storage_type: 'SSD',
        data: 1,
        data_unit: 'tb',
        duration: 30,
        duration_unit: 'day',
      },
      ds,
    );
    expect(estimate.activity_data.activity_value).toBe(720);
    expect(estimate.emission_factor?.factor).toBe(0.00026004);
    expect(estimate.co2e).toBe(0.1872288);
  });
});

describe('calculateNetworking', () => {
  it('AWS us_east_1, 100 GB', () => {
    // factor = 0.001 · 1.135 · 0.434 = 0.00049259 kg/GB; co2e = 100 · 0.00049259 = 0.049259
    const estimate = calculateNetworking('aws', { region: 'us_east_1', data: 100 }, ds);
    expect(estimate.activity_data).toEqual({ activity_value: 100, activity_unit: 'GB' });
    expect(estimate.emission_factor?.factor).toBe(0.00049259);
    expect(estimate.co2e).toBe(0.049259);
    expectCo2eIsActivityTimesFactor(estimate);
  });

  it('Azure westeurope, 5 TB (= 5000 GB)', () => {
    // factor = 0.001 · 1.185 · 0.347 = 0.000411195; co2e = 5000 · 0.000411195 = 2.055975
    const estimate = calculateNetworking('azure', { region: 'westeurope', data: 5, data_unit: 'TB' }, ds);
    expect(estimate.activity_data.activity_value).toBe(5000);
    expect(estimate.co2e).toBe(2.055975);
  });

  it('GCP europe_west1, 250 MB (= 0.25 GB)', () => {
    // factor = 0.001 · 1.1 · 0.197 = 0.0002167; co2e = 0.25 · 0.0002167 = 0.000054175
    const estimate = calculateNetworking('gcp', { region: 'europe_west1', data: 250, data_unit: 'MB' }, ds);
    expect(estimate.activity_data.activity_value).toBe(0.25);
    expect(estimate.emission_factor?.factor).toBe(0.0002167);
    expect(estimate.co2e).toBe(0.000054175);
  });
});

describe('calculateEmbodied', () => {
  it('AWS m5.large, 3 instances, 24 h, default year 2021', () => {
    // activity 3 · 24 = 72 instance-hour; factor = 1610.79 · 2/96 / 35040; co2e = 72 · 1610.79 · 2 / (96 · 35040)
    const estimate = calculateEmbodied('aws', { instance: 'm5.large', instance_count: 3, duration: 24 }, ds);
    expect(estimate.activity_data).toEqual({ activity_value: 72, activity_unit: 'instance-hour' });
    expect(estimate.emission_factor?.factor).toBe(toNumber(new Big('1610.79').times(2).div(96 * LIFETIME)));
    // co2e = 72 × the published factor, rounded once (issue 39); the exact 72 · 1610.79 · 2 / (96 · 35040) differs
    // from it in the 17th digit.
    expect(estimate.co2e).toBe(publishedEmbodiedKg(72, '1610.79', 2, 96));
    expect(relativeDifference(estimate.co2e, embodiedKg(72, '1610.79', 2, 96))).toBeLessThan(1e-15);
    expect(estimate.emission_factor?.year).toBe(2021);
    expect(estimate.co2e_calculation_method).toBe('ar4');
    expect(estimate.co2e_calculation_origin).toBe('source');
  });

  it('GCP e2-standard-2 over the whole 4-year lifetime (1460 days) carries its full share exactly', () => {
    // 1460 day = 35040 h; co2e = 35040 · 1230.46 · 2/32 / 35040 = 1230.46/16 = 76.90375 (terminating, no big.js needed)
    const estimate = calculateEmbodied(
      'gcp',
      { instance: 'e2-standard-2', instance_count: 1, duration: 1460, duration_unit: 'day' },
      ds,
    );
    expect(estimate.activity_data.activity_value).toBe(35040);
    expect(estimate.co2e).toBe(76.90375);
  });

  it('Azure Standard_D2s_v3, 1 instance, 35040 h: 1483.12 · 2/64 = 46.3475', () => {
    expect(
      calculateEmbodied('azure', { instance: 'Standard_D2s_v3', instance_count: 1, duration: LIFETIME }, ds)
        .co2e,
    ).toBe(46.3475);
    // One hour: 1483.12 · 2 / (64 · 35040)
    const hour = calculateEmbodied(
      'azure',
      { instance: 'Standard_D2s_v3', instance_count: 1, duration: 1 },
      ds,
    );
    expect(hour.co2e).toBe(toNumber(embodiedKg(1, '1483.12', 2, 64)));
  });

  it('co2e ≈ activity_value × factor (the factor 1/35040-share does not terminate, so up to float noise)', () => {
    const estimate = calculateEmbodied('aws', { instance: 'm5.large', instance_count: 3, duration: 24 }, ds);
    const product = new Big(estimate.activity_data.activity_value).times(
      estimate.emission_factor?.factor as number,
    );
    expect(toNumber(product.minus(estimate.co2e).abs().div(estimate.co2e))).toBeLessThan(1e-15);
  });
});

describe('calculateInstance', () => {
  it('AWS t2.micro, 1 h, u 0.5: the DESIGN.md check values', () => {
    // CPU: 1 vCPU · 1 h · (0.74 + 0.5·2.76)/1000 · 1.135 = 0.00212 · 1.135 = 0.0024062 kWh
    // Memory: 1 GiB = 1.073741824 GB; 1.073741824 · 1 h · 0.000392 · 1.135 = 0.00047772921233408 kWh
    // cpu co2e = 0.0024062 · 0.434 = 0.0010442908; memory co2e = 0.00047772921233408 · 0.434 = 0.00020733447815299072
    // embodied = 1 h · 1477.54 · 1/48 / 35040 (year 2021); total = the sum of the three
    const vm = calculateInstance(
      'aws',
      { instance: 't2.micro', region: 'us_east_1', duration: 1, duration_unit: 'h' },
      ds,
    );
    expect(vm.calculation_details).toEqual({
      instance: 't2.micro',
      instance_memory: 1.073741824,
      memory_unit: 'GB',
      vcpu_cores: 1,
      average_vcpu_utilization: 0.5,
      power_usage_effectiveness: 1.135,
      energy_used_cpu: 0.0024062,
      energy_used_memory: 0.00047772921233408,
      // t2.micro's platform figure is ccf-coefficients' own (coefficients-aws-embodied.csv).
      embodied_method: 'published',
      energy_unit: 'kWh',
    });
    expect(vm.cpu_estimate.activity_data).toEqual({ activity_value: 0.0024062, activity_unit: 'kWh' });
    expect(vm.cpu_estimate.emission_factor?.factor).toBe(0.434);
    expect(vm.cpu_estimate.co2e).toBe(0.0010442908);
    expect(vm.cpu_estimate.co2e_calculation_origin).toBe('co2e-engine');
    expect(vm.memory_estimate.activity_data).toEqual({
      activity_value: 0.00047772921233408,
      activity_unit: 'kWh',
    });
    expect(vm.memory_estimate.co2e).toBe(0.00020733447815299072);
    expect(vm.memory_estimate.co2e_calculation_origin).toBe('co2e-engine');
    const embodied = embodiedKg(1, '1477.54', 1, 48);
    expect(vm.embodied_cpu_estimate.activity_data).toEqual({
      activity_value: 1,
      activity_unit: 'instance-hour',
    });
    expect(vm.embodied_cpu_estimate.co2e).toBe(publishedEmbodiedKg(1, '1477.54', 1, 48));
    expect(vm.embodied_cpu_estimate.emission_factor?.year).toBe(2021);
    expect(vm.cpu_estimate.emission_factor?.year).toBe(2022);
    expect(vm.total_co2e).toBe(
      toNumber(new Big('0.0010442908').plus('0.00020733447815299072').plus(embodied)),
    );
    expect(vm.total_co2e_unit).toBe('kg');
  });

  it('Azure Standard_D2s_v3 (written without Standard_), westeurope, 10 h, u 0.25', () => {
    // CPU: 2 · 10 · (0.78 + 0.25·2.98)/1000 · 1.185 = 20 · 0.001525 · 1.185 = 0.0361425 kWh; · 0.347 = 0.0125414475
    // Memory: 8 GiB = 8.589934592 GB; 8.589934592 · 10 · 0.000392 · 1.185 = 0.0399019641667584 kWh;
    //   · 0.347 = 0.0138459815658651648
    // Embodied: 10 · 1483.12 · 2 / (64 · 35040)
    const vm = calculateInstance(
      'azure',
      { instance: 'D2s_v3', region: 'westeurope', duration: 10, average_vcpu_utilization: 0.25 },
      ds,
    );
    expect(vm.calculation_details.instance).toBe('D2s_v3');
    expect(vm.calculation_details.instance_memory).toBe(8.589934592);
    expect(vm.calculation_details.energy_used_cpu).toBe(0.0361425);
    expect(vm.calculation_details.energy_used_memory).toBe(0.0399019641667584);
    expect(vm.calculation_details.power_usage_effectiveness).toBe(1.185);
    expect(vm.cpu_estimate.co2e).toBe(0.0125414475);
    expect(vm.memory_estimate.co2e).toBe(0.0138459815658651648);
    const embodied = embodiedKg(10, '1483.12', 2, 64);
    expect(vm.embodied_cpu_estimate.co2e).toBe(publishedEmbodiedKg(10, '1483.12', 2, 64));
    expect(vm.total_co2e).toBe(
      toNumber(new Big('0.0125414475').plus('0.0138459815658651648').plus(embodied)),
    );
  });

  it('GCP e2-standard-2, europe_west1, 2 days, year 2024 (electricity and embodied)', () => {
    // CPU: 2 · 48 h · 2.485/1000 · 1.1 = 0.262416 kWh; · 0.153 = 0.040149648
    // Memory: 8.589934592 · 48 · 0.000392 · 1.1 = 0.1777910302113792 kWh; · 0.153 = 0.0272020276223410176
    // Embodied: 48 · 1230.46 · 2 / (32 · 35040), year 2024
    const vm = calculateInstance(
      'gcp',
      { instance: 'e2-standard-2', region: 'europe_west1', duration: 2, duration_unit: 'day', year: 2024 },
      ds,
    );
    expect(vm.calculation_details.energy_used_cpu).toBe(0.262416);
    expect(vm.calculation_details.energy_used_memory).toBe(0.1777910302113792);
    expect(vm.cpu_estimate.co2e).toBe(0.040149648);
    expect(vm.memory_estimate.co2e).toBe(0.0272020276223410176);
    expect(vm.embodied_cpu_estimate.activity_data.activity_value).toBe(48);
    const embodied = embodiedKg(48, '1230.46', 2, 32);
    expect(vm.embodied_cpu_estimate.co2e).toBe(publishedEmbodiedKg(48, '1230.46', 2, 32));
    expect(vm.cpu_estimate.emission_factor?.year).toBe(2024);
    expect(vm.embodied_cpu_estimate.emission_factor?.year).toBe(2024);
    expect(vm.total_co2e).toBe(toNumber(new Big('0.040149648').plus('0.0272020276223410176').plus(embodied)));
  });

  it('each sub-estimate satisfies co2e = activity × factor (electricity exactly)', () => {
    const vm = calculateInstance('aws', { instance: 'm5.large', region: 'eu-central-1', duration: 7 }, ds);
    expectCo2eIsActivityTimesFactor(vm.cpu_estimate);
    expectCo2eIsActivityTimesFactor(vm.memory_estimate);
  });
});

describe('duration units', () => {
  // AWS us_east_1, 1 vCPU: factor 0.0010442908 kg/CPU-hour (above).
  const cpu = (duration: number, duration_unit?: DurationUnitSpelling) =>
    calculateCpu(
      'aws',
      { cpu_count: 1, region: 'us_east_1', duration, ...(duration_unit && { duration_unit }) },
      ds,
    );

  it.each([
    [1.5, undefined],
    [1.5, 'hour'],
    [1.5, 'h'],
    [90, 'min'],
    [5400, 'sec'],
    [5400, 's'],
    [5_400_000, 'ms'],
    [0.0625, 'day'],
  ] as const)('%s %s = 1.5 h → 1.5 · 0.0010442908 = 0.0015664362', (duration, unit) => {
    const estimate = cpu(duration, unit);
    expect(estimate.activity_data.activity_value).toBe(1.5);
    expect(estimate.co2e).toBe(0.0015664362);
  });

  it('1 day = 24 CPU-hours → 24 · 0.0010442908 = 0.0250629792', () => {
    expect(cpu(1, 'day').co2e).toBe(0.0250629792);
  });

  it('non-terminating conversions: 1 min, 7 sec and 1 ms, divided in decimal', () => {
    for (const [duration, unit, perHour] of [
      [1, 'min', 60],
      [7, 'sec', 3600],
      [1, 'ms', 3_600_000],
    ] as const) {
      const hours = new Big(duration).div(perHour);
      const estimate = cpu(duration, unit);
      expect(estimate.activity_data.activity_value).toBe(toNumber(hours));
      expect(estimate.co2e).toBe(publishedProduct(hours, 0.0010442908)); // as published (issue 39)
    }
  });

  it('units are case-insensitive (HOUR, Min, DAY)', () => {
    expect(cpu(1, 'HOUR').co2e).toBe(0.0010442908);
    expect(cpu(90, 'Min').co2e).toBe(0.0015664362);
    expect(cpu(1, 'DAY').co2e).toBe(0.0250629792);
  });
});

describe('year selection', () => {
  // CPU energy per CPU-hour on AWS is 0.0024062 kWh (above); factor = 0.0024062 · grid(us-east-1, year).
  it.each([
    [2021, 0.0010563218], // 0.0024062 · 0.439
    [2022, 0.0010442908], // 0.0024062 · 0.434
    [2023, 0.0009648862], // 0.0024062 · 0.401
    [2024, 0.0009696986], // 0.0024062 · 0.403
    [2025, 0.0010057916], // 0.0024062 · 0.418
  ])('year %i → factor %f and emission_factor.year equals it', (year, factor) => {
    const estimate = calculateCpu('aws', { cpu_count: 1, region: 'us_east_1', duration: 1, year }, ds);
    expect(estimate.co2e).toBe(factor);
    expect(estimate.emission_factor?.year).toBe(year);
  });

  it('the default is 2022 for electricity and 2021 for embodied', () => {
    expect(
      calculateCpu('aws', { cpu_count: 1, region: 'us_east_1', duration: 1 }, ds).emission_factor?.year,
    ).toBe(2022);
    expect(
      calculateMemory('gcp', { region: 'europe_west1', data: 1, duration: 1 }, ds).emission_factor?.year,
    ).toBe(2022);
    expect(calculateNetworking('azure', { region: 'westeurope', data: 1 }, ds).emission_factor?.year).toBe(
      2022,
    );
    const embodied = calculateEmbodied('aws', { instance: 't2.micro', instance_count: 1, duration: 1 }, ds);
    expect(embodied.emission_factor?.year).toBe(2021);
  });

  it('an embodied year changes the label, not the value (embodied factors do not vary by year)', () => {
    const request = { instance: 't2.micro', instance_count: 1, duration: 1 };
    const y2021 = calculateEmbodied('aws', request, ds);
    const y2024 = calculateEmbodied('aws', { ...request, year: 2024 }, ds);
    expect(y2024.emission_factor?.year).toBe(2024);
    expect(y2024.co2e).toBe(y2021.co2e);
    expect(y2024.emission_factor?.id).not.toBe(y2021.emission_factor?.id);
  });

  it('the CCF-grid alternative dataset has year 2024 only, as its default', () => {
    // CCF grid us-east-1 0.379069 kg/kWh (regions-ccf.json); 0.0024062 · 0.379069 = 0.0009121158278
    const estimate = calculateCpu('aws', { cpu_count: 1, region: 'us_east_1', duration: 1 }, ccfGridDatasets);
    expect(estimate.emission_factor?.year).toBe(2024);
    expect(estimate.co2e).toBe(0.0009121158278);
    expect(estimate.emission_factor?.source_dataset).toContain(
      'Cloud Carbon Footprint grid emission factors',
    );
  });
});

describe('audit_trail disabled', () => {
  it('drops emission_factor and constituent_gases, keeps the numbers', () => {
    const request = { cpu_count: 4, region: 'us_east_1', duration: 1 };
    const enabled = calculateCpu('aws', request, ds);
    const disabled = calculateCpu('aws', { ...request, audit_trail: 'disabled' }, ds);
    expect(disabled).toEqual({
      ...enabled,
      emission_factor: null,
      constituent_gases: null,
      audit_trail: 'disabled',
    });
    expect(disabled.co2e).toBe(0.0041771632);
  });

  it('works for every calculator, and for each instance sub-estimate', () => {
    const off = { audit_trail: 'disabled' } as const;
    const estimates = [
      calculateMemory('aws', { region: 'us_east_1', data: 1, duration: 1, ...off }, ds),
      calculateStorage(
        'azure',
        { region: 'westeurope', storage_type: 'hdd', data: 1, duration: 1, ...off },
        ds,
      ),
      calculateNetworking('gcp', { region: 'europe_west1', data: 1, ...off }, ds),
      calculateEmbodied('aws', { instance: 't2.micro', instance_count: 1, duration: 1, ...off }, ds),
    ];
    const vm = calculateInstance(
      'aws',
      { instance: 't2.micro', region: 'us_east_1', duration: 1, ...off },
      ds,
    );
    estimates.push(vm.cpu_estimate, vm.memory_estimate, vm.embodied_cpu_estimate);
    for (const estimate of estimates) {
      expect(estimate.emission_factor).toBeNull();
      expect(estimate.constituent_gases).toBeNull();
      expect(estimate.audit_trail).toBe('disabled');
    }
    expect(estimates[0]?.co2e).toBe(0.00019309528);
    expect(vm.calculation_details.energy_used_cpu).toBe(0.0024062);
  });
});

describe('factor metadata', () => {
  const sourceDataset = `${coefficientsJson.dataset.source_dataset}; grid: ${regionsJson.dataset.source_dataset}`;
  const useFlags = ['notable_methodological_variance'];

  it('CPU: AWS (us-east-1) CPU', () => {
    const { emission_factor } = calculateCpu('aws', { cpu_count: 1, region: 'us_east_1', duration: 1 }, ds);
    expect(emission_factor).toEqual({
      name: 'AWS (us-east-1) CPU',
      id: expect.stringMatching(HEX_ID),
      activity_id: 'cpu-provider_aws-region_us_east_1',
      factor: 0.0010442908,
      access_type: 'public',
      source: 'CCF',
      source_dataset: sourceDataset,
      year: 2022,
      region: 'US',
      category: 'Cloud Computing - CPU',
      source_lca_activity: 'use_phase',
      data_quality_flags: useFlags,
    });
  });

  // Named as the hosted API named its factors (issue 10): capitals, words split, lowercase resource.
  it('memory, storage and networking name the resource, the provider and the region', () => {
    const memory = calculateMemory(
      'azure',
      { region: 'westeurope', data: 1, duration: 1 },
      ds,
    ).emission_factor;
    expect(memory).toMatchObject({
      name: 'AZURE (west-europe) memory',
      activity_id: 'memory-provider_azure-region_west_europe',
      category: 'Cloud Computing - Memory',
      region: 'NL',
      source: 'CCF',
      source_lca_activity: 'use_phase',
      data_quality_flags: useFlags,
    });
    const storage = calculateStorage(
      'gcp',
      { region: 'europe_west1', storage_type: 'ssd', data: 1, duration: 1 },
      ds,
    );
    expect(storage.emission_factor).toMatchObject({
      name: 'GCP (europe-west-1) SSD storage',
      activity_id: 'storage-provider_gcp-region_europe_west_1-type_ssd',
      category: 'Cloud Computing - Storage',
      region: 'BE',
    });
    const hdd = calculateStorage(
      'gcp',
      { region: 'europe_west1', storage_type: 'hdd', data: 1, duration: 1 },
      ds,
    );
    expect(hdd.emission_factor?.activity_id).toBe('storage-provider_gcp-region_europe_west_1-type_hdd');
    expect(hdd.emission_factor?.id).not.toBe(storage.emission_factor?.id);
    const networking = calculateNetworking('aws', { region: 'us_east_1', data: 1 }, ds).emission_factor;
    expect(networking).toMatchObject({
      name: 'AWS (us-east-1) networking',
      activity_id: 'networking-provider_aws-region_us_east_1',
      category: 'Cloud Computing - Networking',
      region: 'US',
    });
  });

  it('embodied: upstream-end_of_life, global', () => {
    const { emission_factor } = calculateEmbodied(
      'aws',
      { instance: 'm5.large', instance_count: 1, duration: 1 },
      ds,
    );
    expect(emission_factor).toMatchObject({
      name: 'AWS m5.large Embodied CPU',
      activity_id: 'embodied_cpu-provider_aws-instance_m5_large',
      access_type: 'public',
      source: 'CCF',
      source_dataset: instancesJson.dataset.source_dataset,
      year: 2021,
      region: 'GLOBAL',
      category: 'Cloud Computing - Embodied CPU',
      source_lca_activity: 'upstream-end_of_life',
      data_quality_flags: useFlags,
    });
    expect(emission_factor?.id).toMatch(HEX_ID);
  });

  it('instance electricity estimates carry the grid factor itself', () => {
    const vm = calculateInstance('aws', { instance: 't2.micro', region: 'us_east_1', duration: 1 }, ds);
    expect(vm.cpu_estimate.emission_factor).toMatchObject({
      activity_id: 'electricity-supply_grid-provider_aws-region_us_east_1',
      factor: 0.434,
      source: regionsJson.dataset.source,
      year: 2022,
      region: 'US',
      category: 'Electricity',
      source_lca_activity: 'electricity_generation',
    });
    expect(vm.memory_estimate.emission_factor).toEqual(vm.cpu_estimate.emission_factor);
  });

  it('ids are stable for the same factor and differ across regions, years, providers and resources', () => {
    const cpu = (provider: CloudProviderSpelling, region: string, year?: number) =>
      calculateCpu(provider, { cpu_count: 1, region, duration: 1, ...(year && { year }) }, ds).emission_factor
        ?.id;
    const base = cpu('aws', 'us_east_1');
    expect(base).toMatch(HEX_ID);
    expect(cpu('aws', 'us-east-1')).toBe(base); // same factor, other spelling, different call
    expect(
      createEngine(ds).calculateCpu('aws', { cpu_count: 7, region: 'US_EAST_1', duration: 3 }).emission_factor
        ?.id,
    ).toBe(base);
    const others = [
      cpu('aws', 'us_east_2'),
      cpu('aws', 'us_east_1', 2023),
      cpu('aws', 'eu_central_1'),
      cpu('azure', 'westeurope'),
      cpu('gcp', 'europe_west1'),
      calculateMemory('aws', { region: 'us_east_1', data: 1, duration: 1 }, ds).emission_factor?.id,
      calculateCpu(
        'aws',
        { cpu_count: 1, region: 'us_east_1', duration: 1, average_vcpu_utilization: 0.9 },
        ds,
      ).emission_factor?.id,
    ];
    expect(new Set([base, ...others]).size).toBe(others.length + 1);
  });
});

describe('significantDigits option', () => {
  it('rounds co2e, factor and activity to 4 significant digits without dropping integer digits', () => {
    // 4 CPU-hours: co2e 0.0041771632 → 0.004177; factor 0.0010442908 → 0.001044
    const small = calculateCpu('aws', { cpu_count: 4, region: 'us_east_1', duration: 1 }, ds, {
      significantDigits: 4,
    });
    expect(small.co2e).toBe(0.004177);
    expect(small.emission_factor?.factor).toBe(0.001044);
    expect(small.activity_data.activity_value).toBe(4);
    // 12345.6 CPU-hours: activity → 12346 (5 integer digits kept); co2e 12345.6 · 0.0010442908 = 12.89239650048 → 12.89
    const large = calculateCpu('aws', { cpu_count: 1, region: 'us_east_1', duration: 12345.6 }, ds, {
      significantDigits: 4,
    });
    expect(large.activity_data.activity_value).toBe(12346);
    expect(large.co2e).toBe(12.89);
  });

  it('rounds the instance details and total, half up', () => {
    // energy_used_memory 0.00047772921233408 → 0.0004777; instance_memory 1.073741824 → 1.074
    const vm = calculateInstance('aws', { instance: 't2.micro', region: 'us_east_1', duration: 1 }, ds, {
      significantDigits: 4,
    });
    expect(vm.calculation_details.energy_used_cpu).toBe(0.002406);
    expect(vm.calculation_details.energy_used_memory).toBe(0.0004777);
    expect(vm.calculation_details.instance_memory).toBe(1.074);
    // total = 0.0010442908 + 0.00020733447815299072 + 1477.54/1681920 (0.000878484…) = 0.0021301… → 0.00213
    expect(vm.total_co2e).toBe(0.00213);
  });

  it('is taken from createEngine defaults and can be overridden per call', () => {
    const engine = createEngine(ds, { significantDigits: 2 });
    const request = { cpu_count: 4, region: 'us_east_1', duration: 1 };
    expect(engine.calculateCpu('aws', request).co2e).toBe(0.0042);
    expect(engine.calculateCpu('aws', request, { significantDigits: 5 }).co2e).toBe(0.0041772);
  });

  it('rejects a digit count that is not a whole number >= 1', () => {
    const request = { cpu_count: 4, region: 'us_east_1', duration: 1 };
    for (const significantDigits of [0, -1, 2.5, Number.NaN]) {
      expect(() => calculateCpu('aws', request, ds, { significantDigits })).toThrow(RangeError);
    }
  });
});

describe('createEngine', () => {
  it('gives the same results as the free functions', () => {
    const engine = createEngine(ds);
    const request = { instance: 't2.micro', region: 'us_east_1', duration: 1 };
    expect(engine.calculateInstance('aws', request)).toEqual(calculateInstance('aws', request, ds));
    expect(engine.calculateCpuBatch('gcp', [{ cpu_count: 1, region: 'europe_west1', duration: 1 }])).toEqual([
      calculateCpu('gcp', { cpu_count: 1, region: 'europe_west1', duration: 1 }, ds),
    ]);
  });
});
