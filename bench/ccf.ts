import { createRequire } from 'node:module';
import type { Datasets } from './workload';

/**
 * Cloud Carbon Footprint's own estimators (`@cloud-carbon-footprint/core`), where they apply (CPU, memory, storage,
 * networking: the same use-phase formulas), fed the bench's varied requests one at a time as its estimators take
 * them (one region per call), with the same coefficients and grid factors. They validate nothing and return only
 * kWh and co2e, no factor metadata: the bare formula's cost. Not a dependency (its install pulls in the AWS SDK):
 * install it with `npm i --no-save @cloud-carbon-footprint/core@1.0.0`, or point BENCH_CCF_CORE at a copy; without it
 * the bench says it was not measured.
 */

type Estimator = {
  estimate(
    data: unknown[],
    region: string,
    factors: Record<string, number>,
    constants: object,
  ): Array<{
    co2e: number;
  }>;
};
type CcfCore = Record<string, new (coefficient?: number) => Estimator>;

export function loadCcf(): CcfCore | undefined {
  const require = createRequire(import.meta.url);
  try {
    return require(process.env.BENCH_CCF_CORE ?? '@cloud-carbon-footprint/core') as CcfCore;
  } catch {
    return undefined;
  }
}

const HOURS: Record<string, number> = { hour: 1, h: 1, min: 1 / 60, sec: 1 / 3600, s: 1 / 3600, day: 24 };
const GIGABYTES: Record<string, number> = { KB: 1e-6, MB: 1e-3, GB: 1, TB: 1000, PB: 1e6 };

/** A batch function over CCF's estimator for `kind`, or undefined where CCF has no such estimator. */
export function ccfBatch(
  ccf: CcfCore,
  datasets: Datasets,
  kind: string,
  provider: 'aws',
): ((requests: readonly Record<string, unknown>[]) => number[]) | undefined {
  const coefficients = datasets.cloudCoefficients.get(provider);
  if (coefficients === undefined || !['cpu', 'memory', 'storage', 'networking'].includes(kind))
    return undefined;
  const constants = {
    minWatts: coefficients.min_watts,
    maxWatts: coefficients.max_watts,
    powerUsageEffectiveness: coefficients.pue,
    replicationFactor: 1,
  };
  // CCF's input: grid factors per region name (kg per kWh here, so co2e comes out in kg), one record per year.
  const factorsByYear = new Map<number, Record<string, number>>();
  for (const name of datasets.cloudRegions.list(provider)) {
    const record = datasets.cloudRegions.get(provider, name);
    if (record === undefined) continue;
    for (const [year, factor] of Object.entries(record.grid_factors)) {
      let byRegion = factorsByYear.get(Number(year));
      if (byRegion === undefined) factorsByYear.set(Number(year), (byRegion = {}));
      byRegion[record.region] = factor;
    }
  }
  const compute = new ccf.ComputeEstimator!();
  const memory = new ccf.MemoryEstimator!(coefficients.memory_kwh_per_gb_hour);
  const ssd = new ccf.StorageEstimator!(coefficients.ssd_wh_per_tb_hour);
  const hdd = new ccf.StorageEstimator!(coefficients.hdd_wh_per_tb_hour);
  const networking = new ccf.NetworkingEstimator!(coefficients.networking_kwh_per_gb);
  const timestamp = new Date(0);
  return (requests) => {
    const results: number[] = new Array(requests.length);
    for (let index = 0; index < requests.length; index++) {
      const r = requests[index] as Record<string, unknown> & { duration: number; data: number };
      const region = datasets.cloudRegions.get(provider, r.region as string)?.region as string;
      const factors =
        factorsByYear.get((r.year as number | undefined) ?? datasets.cloudRegions.defaultYear) ?? {};
      const hours = r.duration * (HOURS[(r.duration_unit as string | undefined) ?? 'hour'] ?? Number.NaN);
      const gigabytes =
        r.data * (GIGABYTES[((r.data_unit as string | undefined) ?? 'GB').toUpperCase()] ?? Number.NaN);
      let estimate: Array<{ co2e: number }>;
      if (kind === 'cpu') {
        const utilization = r.average_vcpu_utilization as number | undefined;
        estimate = compute.estimate(
          [
            {
              timestamp,
              cpuUtilizationAverage: (utilization ?? 0.5) * 100,
              vCpuHours: (r.cpu_count as number) * hours,
              usesAverageCPUConstant: utilization === undefined,
            },
          ],
          region,
          factors,
          constants,
        );
      } else if (kind === 'memory') {
        estimate = memory.estimate(
          [{ timestamp, gigabyteHours: gigabytes * hours }],
          region,
          factors,
          constants,
        );
      } else if (kind === 'storage') {
        const estimator = String(r.storage_type).toLowerCase() === 'ssd' ? ssd : hdd;
        estimate = estimator.estimate(
          [{ timestamp, terabyteHours: (gigabytes / 1000) * hours }],
          region,
          factors,
          constants,
        );
      } else {
        estimate = networking.estimate([{ timestamp, gigabytes }], region, factors, constants);
      }
      results[index] = (estimate[0] as { co2e: number }).co2e;
    }
    return results;
  };
}
