import { decimal, mul } from '../core/decimal';
import { hoursRatio, toHours } from '../core/units';
import type { CloudBatch, CloudCalculator } from './batch';
import type * as z from 'zod/mini';
import { exactQuantity, usePhaseForms, type UsePhaseSpec, type WithQuantities } from './use-phase-calculator';
import { decidedProduct } from './fast-activity';
import { USE_PHASE_PARTS } from './resolve';
import { kwhPerVcpuHour } from './factors/use-phase';
import { CpuRequest, readCpuRequest } from './cpu.schema';

/** Published CPU factors (`published_factors.cpu`) are per CPU-hour at 50 % utilisation; at any other, computed. */
const PUBLISHED_CPU_UTILIZATION = 0.5;

/** A CPU request after its schema, its quantities numbers or exact decimals. */
export type CpuInput = WithQuantities<z.output<typeof CpuRequest>, 'cpu_count' | 'duration'>;

/**
 * `calculateCpu` as data: the use-phase frame builds it from this, and the kWh view (`electricity.ts`) reads its
 * energy per unit and published factor from it too.
 */
export const CPU_USE_PHASE = {
  kind: 'cpu',
  datasets: { calculator: 'calculateCpu', parts: USE_PHASE_PARTS },
  schema: CpuRequest,
  read: readCpuRequest,
  activity: (input) =>
    mul(exactQuantity(input.cpu_count), toHours(exactQuantity(input.duration), input.duration_unit)),
  fastActivity: (input) => decidedProduct(input.duration, hoursRatio(input.duration_unit), input.cpu_count),
  unit: 'CPU-hour',
  energyPerUnit: (coefficients, input) =>
    kwhPerVcpuHour(coefficients, decimal(input.average_vcpu_utilization)),
  variant: (input) => input.average_vcpu_utilization,
  published: (input) => (input.average_vcpu_utilization === PUBLISHED_CPU_UTILIZATION ? 'cpu' : undefined),
  naming: (input) => ({ identity: `u=${input.average_vcpu_utilization}` }),
} satisfies UsePhaseSpec<CpuInput, typeof CpuRequest>;

const cpu = /* @__PURE__ */ usePhaseForms(CPU_USE_PHASE);

/**
 * Use-phase emissions of virtual CPUs: activity `cpu_count × hours` in `CPU-hour`, factor
 * `(Wmin + u·(Wmax − Wmin)) · PUE / 1000 · grid(region, year)` kg per CPU-hour.
 *
 * @example
 * ```ts
 * import { calculateCpu } from 'co2e-engine';
 * import { defaultDatasets } from 'co2e-engine/datasets';
 * const estimate = calculateCpu('aws', { cpu_count: 4, region: 'us_east_1', duration: 1 }, defaultDatasets);
 * estimate.co2e; // kg CO2e
 * ```
 * @throws {@link EmissionsError} `unsupported_provider`, `unknown_region`, `no_emission_factors_found` (year),
 *   `invalid_request` (anything else malformed).
 */
export const calculateCpu: CloudCalculator<CpuRequest> = cpu.calculate;

/** `calculateCpu` for a request already resolved (engine-internal: the billing reader). */
export const cpuResolved = cpu.resolved;

/**
 * {@link calculateCpu} for each request, in order; a bad request becomes its error body and the rest are computed.
 *
 * @example
 * ```ts
 * calculateCpuBatch('gcp', [{ cpu_count: 2, region: 'europe_west1', duration: 3 }], defaultDatasets);
 * ```
 * @throws {@link EmissionsError} `unsupported_provider`; `invalid_request` when `requests` is not an array.
 */
export const calculateCpuBatch: CloudBatch<CpuRequest> = cpu.batch;
