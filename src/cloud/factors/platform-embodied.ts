import {
  type Decimal,
  add,
  compare,
  decimal,
  div,
  mul,
  sub,
  toFixed,
  toPlainString,
  ZERO,
} from '../../core/decimal';

/**
 * Embodied emissions of a host platform from its parts: the Teads method as Cloud Carbon Footprint applies it in
 * ccf-coefficients (`ccfcoef/constants.py` and the providers' `embodied_coefficients`, Apache-2.0). A mono-socket
 * rack server with 16 GB of DRAM and no local disk is 1,000 kg CO2e; each part beyond it adds its own figure.
 * ccf-coefficients rounds each added part to 0.01 kg, half to even (Python's `round`: 66.625 → 66.62); so does this.
 */

/** The parts of a host platform that the Teads method counts (the whole server, not one instance). */
export interface PlatformSpecs {
  /** DRAM of the whole platform, GB as the provider publishes it (CCF takes the provider's figure as written). */
  memory_gb: number;
  /** Physical CPU sockets. */
  cpu_sockets: number;
  /** Local hard disk drives. */
  hdd_count: number;
  /** Local solid-state drives (NVMe or SATA). */
  ssd_count: number;
  /** GPU cards. */
  gpu_count: number;
}

/** The figure of each part, kg CO2e, each rounded to 0.01 kg as ccf-coefficients rounds them. */
export interface PlatformEmbodied {
  base: Decimal;
  additional_memory: Decimal;
  additional_storage: Decimal;
  additional_cpus: Decimal;
  additional_gpus: Decimal;
  /** The sum of the parts above: the platform's embodied kg CO2e. */
  total: Decimal;
}

/** ccf-coefficients' constants (`ccfcoef/constants.py`), kg CO2e. */
export const PLATFORM_EMBODIED_CONSTANTS = {
  /** A mono-socket, low-DRAM commodity rack server without local storage. */
  base_kg: 1000,
  /** DRAM included in the base server. */
  dram_threshold_gb: 16,
  /** Dell PowerEdge R740 LCA: 533 kg for 12 × 32 GB DIMMs (384 GB), per GB. */
  dram_kg: 533,
  dram_reference_gb: 384,
  /** Per CPU socket beyond the first. */
  cpu_kg: 100,
  hdd_kg: 50,
  ssd_kg: 100,
  gpu_kg: 150,
} as const;

const C = PLATFORM_EMBODIED_CONSTANTS;
const HALF_CENT = decimal('0.005');
/** To 0.01, half to even (Python's `round`, which ccf-coefficients uses): exact ties go to the even cent. */
function cents(value: Decimal): Decimal {
  const halfUp = toFixed(value, 2);
  // A tie is a value whose 200-fold is an odd whole number (…x.xx5 exactly).
  const doubled = toPlainString(mul(value, decimal(200)));
  if (doubled.includes('.') || Number(doubled.at(-1)) % 2 === 0) return decimal(halfUp);
  const down = toFixed(sub(value, HALF_CENT), 2);
  return decimal(Number(down.at(-1)) % 2 === 0 ? down : halfUp);
}
const count = (value: number): Decimal => decimal(value);

/**
 * The embodied emissions of a host platform from its published specs: 1,000 kg + DRAM above 16 GB at 533/384 kg per
 * GB + 100 kg per CPU socket beyond the first + 50 kg per HDD + 100 kg per SSD + 150 kg per GPU. Shared by vCPU and
 * spread over 35,040 h, it gives the same embodied factor as a published figure would
 * (`src/cloud/factors/embodied.ts`).
 *
 * @example
 * ```ts
 * // AWS m7i: 768 GiB, 2 sockets, no local disk, no GPU
 * platformEmbodied({ memory_gb: 768, cpu_sockets: 2, hdd_count: 0, ssd_count: 0, gpu_count: 0 }).total;
 * // 1000 + (768 − 16) · 533/384 = 1043.79 + 100 = 2143.79 kg
 * ```
 * @throws {@link RangeError} when a count is negative or not a whole number, or the memory is negative or not finite.
 */
export function platformEmbodied(specs: PlatformSpecs): PlatformEmbodied {
  for (const field of ['cpu_sockets', 'hdd_count', 'ssd_count', 'gpu_count'] as const) {
    const value = specs[field];
    if (!Number.isInteger(value) || value < 0)
      throw new RangeError(`platform ${field} must be a whole number ≥ 0, not ${value}`);
  }
  if (!Number.isFinite(specs.memory_gb) || specs.memory_gb < 0)
    throw new RangeError(`platform memory_gb must be a finite number ≥ 0, not ${specs.memory_gb}`);
  const aboveThreshold = sub(decimal(specs.memory_gb), count(C.dram_threshold_gb));
  const additional_memory =
    compare(aboveThreshold, ZERO) > 0
      ? cents(div(mul(aboveThreshold, count(C.dram_kg)), count(C.dram_reference_gb)))
      : ZERO;
  const extraSockets = Math.max(0, specs.cpu_sockets - 1);
  const additional_cpus = mul(count(extraSockets), count(C.cpu_kg));
  const additional_storage = add(
    mul(count(specs.hdd_count), count(C.hdd_kg)),
    mul(count(specs.ssd_count), count(C.ssd_kg)),
  );
  const additional_gpus = mul(count(specs.gpu_count), count(C.gpu_kg));
  const base = count(C.base_kg);
  const total = add(
    add(add(add(base, additional_memory), additional_storage), additional_cpus),
    additional_gpus,
  );
  return { base, additional_memory, additional_storage, additional_cpus, additional_gpus, total };
}
