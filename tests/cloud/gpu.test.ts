import { describe, expect, it } from 'vitest';
import { gpuPower } from '../../src/cloud/gpu';
import { pueAt } from '../../src/cloud/pue';
import { decimal, toNumber } from '../../src/core/decimal';
import type { CloudCoefficients, CloudInstance } from '../../src/datasets/types';

/** Golden values worked by hand from CCF's watts per GPU (V100 35/306 W, A100 46/407 W). */
const coefficients = {
  min_watts: 0.74,
  max_watts: 3.5,
  pue: 1.135,
  memory_kwh_per_gb_hour: 0.000392,
  ssd_wh_per_tb_hour: 1.2,
  hdd_wh_per_tb_hour: 0.65,
  networking_kwh_per_gb: 0.001,
  server_lifetime_hours: 35040,
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
