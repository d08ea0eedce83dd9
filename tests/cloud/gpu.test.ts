import { describe, expect, it } from 'vitest';
import { calculateInstance, listCapabilities } from '../../src/index';
import { defaultDatasets } from '../../src/embedded/index';
import { ccfAppDatasets } from '../../src/embedded/cloud';
import { gpuPower } from '../../src/cloud/gpu';
import { pueAt } from '../../src/cloud/pue';
import { decimal, toNumber } from '../../src/core/decimal';
import type { CloudCoefficients, CloudInstance } from '../../src/datasets/types';
import { AWS_COEFFICIENTS } from '../fixtures/coefficients';

/** Golden values worked by hand from CCF's watts per GPU (V100 35/306 W, A100 46/407 W). */
const coefficients = {
  ...AWS_COEFFICIENTS,
  pue_by_region: { 'us-central1': 1.11 },
  gpu_watts: {
    'Nvidia Tesla V100': { min_watts: 35, max_watts: 306 },
    'Nvidia Tesla A100': { min_watts: 46, max_watts: 407 },
  },
} as CloudCoefficients;

const instance = (extra: Partial<CloudInstance>): CloudInstance =>
  ({
    provider: 'aws',
    instance: 'x.large',
    vcpu: 8,
    memory_gib: 61,
    platform_vcpu: 72,
    platform_embodied_kgco2e: 3543.79,
    ...extra,
  }) as CloudInstance;

describe('gpuPower', () => {
  it('p3.2xlarge: 1 V100 at 50 %, PUE 1.135 = (35 + 0.5 · 271) · 1.135 / 1000 = 0.1935175 kWh per hour', () => {
    const { power, notice } = gpuPower(
      instance({ instance: 'p3.2xlarge', gpu_count: 1, gpu_model: 'Nvidia Tesla V100' }),
      coefficients,
      decimal(0.5),
      decimal(1.135),
    );
    expect(notice).toBeUndefined();
    expect(power?.count).toBe(1);
    expect(toNumber(power!.kwhPerHour)).toBe(0.1935175);
  });

  it('8 A100 at 0 % and 100 %, PUE 1.1: 8 · 46 · 1.1 = 404.8 W and 8 · 407 · 1.1 = 3581.6 W', () => {
    const a2 = instance({ instance: 'a2-highgpu-8g', gpu_count: 8, gpu_model: 'Nvidia Tesla A100' });
    expect(toNumber(gpuPower(a2, coefficients, decimal(0), decimal(1.1)).power!.kwhPerHour)).toBe(0.4048);
    expect(toNumber(gpuPower(a2, coefficients, decimal(1), decimal(1.1)).power!.kwhPerHour)).toBe(3.5816);
  });

  it('says GPU power is left out when the model has no watts, or no source counts the GPUs', () => {
    const noWatts = gpuPower(
      instance({ instance: 'g6.xlarge', gpu_count: 1, gpu_model: 'Nvidia L4' }),
      coefficients,
      decimal(0.5),
      decimal(1),
    );
    expect(noWatts.power).toBeUndefined();
    expect(noWatts.notice).toEqual({
      code: 'gpu_power_not_estimated',
      severity: 'warning',
      message:
        'g6.xlarge has 1 Nvidia L4 GPU, and the datasets have no watts for that model: GPU power is not in the estimate (CPU, memory and embodied only)',
    });
    const uncounted = gpuPower(
      instance({ instance: 'inf2.xlarge', gpu_model: 'unknown' }),
      coefficients,
      decimal(0.5),
      decimal(1),
    );
    expect(uncounted.notice?.message).toMatch(
      /^inf2\.xlarge has GPUs or other accelerators that the datasets do not count: GPU power is not in the estimate/,
    );
  });

  it('is nothing for an instance without GPUs', () => {
    expect(gpuPower(instance({}), coefficients, decimal(0.5), decimal(1))).toEqual({});
  });
});

describe('pueAt', () => {
  it("takes the region's PUE where the coefficients have one, else the provider's", () => {
    expect(pueAt(coefficients, 'us-central1')).toBe(1.11);
    expect(pueAt(coefficients, 'us-east-1')).toBe(1.135);
  });
});

describe('calculateInstance with GPUs (issue 22 item 3, issue 21 item 6)', () => {
  it('adds the GPU part to p3.2xlarge: energy in calculation_details, co2e in gpu_estimate and in the total', () => {
    // 1 V100 at 50 %: (35 + 0.5 · 271) W · 1.135 = 193.5175 W → 0.1935175 kWh in 1 h; us-east-1 2022 0.434 kg/kWh.
    const vm = calculateInstance(
      'aws',
      { instance: 'p3.2xlarge', region: 'us-east-1', duration: 1 },
      defaultDatasets,
    );
    expect(vm.calculation_details).toMatchObject({
      gpu_count: 1,
      gpu_model: 'Nvidia Tesla V100',
      average_gpu_utilization: 0.5,
      energy_used_gpu: 0.1935175,
    });
    expect(vm.gpu_estimate?.co2e).toBe(0.083986595); // 0.1935175 · 0.434
    expect(vm.gpu_estimate?.activity_data).toEqual({ activity_value: 0.1935175, activity_unit: 'kWh' });
    const parts =
      vm.cpu_estimate.co2e + vm.memory_estimate.co2e + 0.083986595 + vm.embodied_cpu_estimate.co2e;
    expect(vm.total_co2e).toBeCloseTo(parts, 15);
    expect(vm.notices).toBeUndefined();
  });

  it('8 A100 of a2-highgpu-8g in europe-west1 for a day', () => {
    // 8 · (46 + 0.5 · 361) W · 1.1 = 1993.2 W → 47.8368 kWh in 24 h.
    const vm = calculateInstance(
      'gcp',
      { instance: 'a2-highgpu-8g', region: 'europe-west1', duration: 24 },
      defaultDatasets,
    );
    expect(vm.calculation_details.energy_used_gpu).toBe(47.8368);
  });

  it('adds the GPU part of today’s GPUs (issue 38): g6.xlarge, 1 NVIDIA L4', () => {
    // L4: max 72 W (NVIDIA), min 72 × 46/407 = 8.1376… → 8.14 W; at 50 %: 8.14 + 0.5 · 63.86 = 40.07 W;
    // × PUE 1.135 = 45.47945 W → 0.04547945 kWh in 1 h.
    const vm = calculateInstance(
      'aws',
      { instance: 'g6.xlarge', region: 'us-east-1', duration: 1 },
      defaultDatasets,
    );
    expect(vm.calculation_details).toMatchObject({
      gpu_count: 1,
      gpu_model: 'Nvidia L4',
      energy_used_gpu: 0.04547945,
    });
    expect(vm.notices).toBeUndefined();
  });

  it('says GPU power is not in the estimate where the datasets have no figures (inf2.xlarge)', () => {
    for (const instance of ['inf2.xlarge']) {
      const vm = calculateInstance('aws', { instance, region: 'us-east-1', duration: 1 }, defaultDatasets);
      expect(vm.gpu_estimate).toBeUndefined();
      expect(vm.calculation_details.energy_used_gpu).toBeUndefined();
      expect(vm.notices?.map((n) => n.code)).toEqual(['gpu_power_not_estimated']);
      expect(vm.notices?.[0]?.message).toContain('GPU power is not in the estimate');
    }
  });

  it('leaves an instance without GPUs as it was: no GPU keys, no notices', () => {
    const vm = calculateInstance(
      'aws',
      { instance: 'm5.large', region: 'us-east-1', duration: 1 },
      defaultDatasets,
    );
    expect(Object.keys(vm)).toEqual([
      'total_co2e',
      'total_co2e_unit',
      'memory_estimate',
      'cpu_estimate',
      'embodied_cpu_estimate',
      'calculation_details',
    ]);
    expect(Object.keys(vm.calculation_details)).not.toContain('gpu_count');
    expect(Object.keys(vm.calculation_details)).not.toContain('charged_memory');
  });

  it('lists the types that have a GPU part', () => {
    const aws = listCapabilities(defaultDatasets).cloud?.providers.find((p) => p.provider === 'aws');
    expect(aws?.gpu_instances).toContain('p3.2xlarge');
    expect(aws?.gpu_instances).toContain('g5.4xlarge');
    expect(aws?.gpu_instances).toContain('g6.xlarge');
    expect(aws?.gpu_instances).not.toContain('inf2.xlarge');
    expect(aws?.gpu_instances).not.toContain('m5.large');
    const gcp = listCapabilities(defaultDatasets).cloud?.providers.find((p) => p.provider === 'gcp');
    expect(gcp?.gpu_instances).toEqual([
      'a2-highgpu-1g',
      'a2-highgpu-2g',
      'a2-highgpu-4g',
      'a2-highgpu-8g',
      'a2-megagpu-16g',
      // Issue 38: A3 (H100, H200) and G2 (L4) from their platforms' specs.
      'a3-edgegpu-8g',
      'a3-highgpu-1g',
      'a3-highgpu-2g',
      'a3-highgpu-4g',
      'a3-highgpu-8g',
      'a3-megagpu-8g',
      'a3-ultragpu-8g',
      ...['12', '16', '24', '32', '4', '48', '8', '96'].map((size) => `g2-standard-${size}`),
    ]);
  });
});

describe('calculateInstance under ccfAppDatasets (the CCF application profile)', () => {
  it("charges only the memory above the processors' baseline, at the region's PUE", () => {
    // m5.large: (384 − 81.32) · 8 / 384 GB charged; AWS PUE 1.135.
    const vm = calculateInstance(
      'aws',
      { instance: 'm5.large', region: 'us-east-1', duration: 1 },
      ccfAppDatasets,
    );
    expect(vm.calculation_details.charged_memory).toBe(302.68 / 48);
    expect(vm.calculation_details.instance_memory).toBe(8.589934592); // 8 GiB, as reported by default
    expect(vm.calculation_details.energy_used_memory).toBeCloseTo((302.68 / 48) * 0.000392 * 1.135, 17);
    expect(vm.calculation_details.power_usage_effectiveness).toBe(1.135);
    // CCF's grid (year 2024) for us-east-1: 0.379069 kg/kWh.
    expect(vm.cpu_estimate.emission_factor?.factor).toBe(0.379069);
  });

  it("takes GCP's per-region PUE (us-central1 1.11) and the provider's elsewhere", () => {
    const at = (region: string) =>
      calculateInstance('gcp', { instance: 'n2-standard-2', region, duration: 1 }, ccfAppDatasets)
        .calculation_details.power_usage_effectiveness;
    expect(at('us-central1')).toBe(1.11);
    expect(at('europe-west4')).toBe(1.07);
    expect(at('asia-south1')).toBe(1.1);
  });
});
