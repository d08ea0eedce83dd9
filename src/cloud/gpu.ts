import { type Decimal, add, decimal, mul, sub } from '../core/decimal';
import type { CloudCoefficients, CloudInstance } from '../datasets/types';

/**
 * The GPU part of a virtual machine (issue 22): GPUs × (Wmin + u·(Wmax − Wmin)) per GPU, as CCF estimates GPU
 * instances (`AWSComputeEstimatesBuilder`: the GPU's min/max watts at the utilisation, × GPU-hours, × PUE).
 */

/** A condition of an estimate that does not stop it, e.g. a part left out for want of figures. */
export interface CloudNotice {
  /** Stable code: `gpu_power_not_estimated`. */
  code: string;
  message: string;
  severity: 'info' | 'warning';
}

/** GPU power of an instance: count, model and kWh per hour of running, PUE included. */
export interface GpuPower {
  count: number;
  model: string;
  kwhPerHour: Decimal;
}

const KILOWATTS_PER_WATT = decimal('0.001');

/**
 * The GPU part of `instance` at GPU utilisation `utilization` (0..1): its power when the instance has GPUs and the
 * coefficients have watts for their model; a notice when it has GPUs (or other accelerators) without figures;
 * neither for an instance without GPUs.
 *
 * @example
 * ```ts
 * // p3.2xlarge: 1 Nvidia Tesla V100 (35/306 W) at 50 %, PUE 1.135: (35 + 0.5 · 271) · 1.135 / 1000 = 0.1935175 kWh/h
 * gpuPower(p32xlarge, awsCoefficients, decimal(0.5), decimal(1.135)).power?.kwhPerHour;
 * ```
 */
export function gpuPower(
  instance: CloudInstance,
  coefficients: CloudCoefficients,
  utilization: Decimal,
  pue: Decimal,
): { power?: GpuPower; notice?: CloudNotice } {
  const model = instance.gpu_model;
  if (model === undefined) return {};
  const count = instance.gpu_count ?? 0;
  const watts = coefficients.gpu_watts?.[model];
  if (count > 0 && watts !== undefined) {
    const perGpu = add(
      decimal(watts.min_watts),
      mul(utilization, sub(decimal(watts.max_watts), decimal(watts.min_watts))),
    );
    return {
      power: {
        count,
        model,
        kwhPerHour: mul(mul(mul(decimal(count), perGpu), KILOWATTS_PER_WATT), pue),
      },
    };
  }
  const what =
    count > 0
      ? `${count} ${model} GPU${count === 1 ? '' : 's'}, and the datasets have no watts for that model`
      : model === 'unknown'
        ? 'GPUs or other accelerators that the datasets do not count'
        : `${model} GPUs that the datasets do not count`;
  return {
    notice: {
      code: 'gpu_power_not_estimated',
      severity: 'warning',
      message: `${instance.instance} has ${what}: GPU power is not in the estimate (CPU, memory and embodied only)`,
    },
  };
}
