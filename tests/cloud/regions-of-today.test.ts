import { describe, expect, it } from 'vitest';
import { calculateCpu } from '../../src/index';
import { cloudDatasets as defaultDatasets } from '../../src/embedded/cloud';

/**
 * Two regions opened since 2023, worked by hand (issue 38 item 4): 1 vCPU for 1 h at the default 50 % utilisation,
 * the provider's average watts × its PUE, × the Electricity Maps yearly average of the region's zone (@tgwf/co2
 * 0.19.0, g/kWh ÷ 1000).
 */
const CASES = [
  // provider, region (as a bill may spell it), year, kg CO2e
  // AWS: (0.74 + 0.5 × (3.5 − 0.74)) W = 2.12 W × PUE 1.135 = 2.4062 Wh = 0.0024062 kWh
  // mx-central-1 (Querétaro, zone MX): 2022 × 0.377 kg/kWh = 0.0009071374; 2025 × 0.385 = 0.000926387
  ['aws', 'mx-central-1', 2022, 0.0009071374],
  ['aws', 'mx_central_1', 2025, 0.000926387],
  // GCP: (0.71 + 0.5 × (4.26 − 0.71)) W = 2.485 W × PUE 1.1 = 2.7335 Wh = 0.0027335 kWh
  // europe-north2 (Stockholm, bidding zone SE-SE3): 2022 × 0.025 = 0.0000683375; 2025 × 0.020 = 0.00005467
  ['gcp', 'europe-north2', 2022, 0.0000683375],
  ['gcp', 'europe-north2', 2025, 0.00005467],
] as const;

describe('regions of today: hand-worked CPU estimates', () => {
  it.each(CASES)('%s %s in %i: 1 vCPU-hour is %f kg', (provider, region, year, kg) => {
    const estimate = calculateCpu(provider, { cpu_count: 1, region, duration: 1, year }, defaultDatasets);
    expect(estimate.co2e).toBe(kg);
    expect(estimate.emission_factor?.year).toBe(year);
  });
});
