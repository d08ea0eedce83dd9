import { describe, expect, it } from 'vitest';
import { calculateCpu } from '../../src/index';
import { cloudDatasets as defaultDatasets } from '../../src/datasets/cloud';

/**
 * Two regions opened since 2023, worked by hand (issue 38 item 4): 1 vCPU for 1 h at the default 50 % utilisation,
 * the provider's average watts × its PUE, × the Electricity Maps yearly average of the region's zone (@tgwf/co2
 * 0.19.0, g/kWh ÷ 1000).
 */
describe('regions of today: hand-worked CPU estimates', () => {
  it('AWS mx-central-1 (Querétaro, zone MX): 2022 and 2025', () => {
    // (0.74 + 0.5 × (3.5 − 0.74)) W = 2.12 W × PUE 1.135 = 2.4062 Wh = 0.0024062 kWh
    // 2022: × 0.377 kg/kWh = 0.0009071374 kg; 2025: × 0.385 = 0.000926387 kg
    const y2022 = calculateCpu('aws', { cpu_count: 1, region: 'mx-central-1', duration: 1 }, defaultDatasets);
    expect(y2022.co2e).toBe(0.0009071374);
    expect(y2022.emission_factor?.year).toBe(2022);
    const y2025 = calculateCpu(
      'aws',
      { cpu_count: 1, region: 'mx_central_1', duration: 1, year: 2025 },
      defaultDatasets,
    );
    expect(y2025.co2e).toBe(0.000926387);
    expect(y2025.emission_factor?.year).toBe(2025);
  });

  it('GCP europe-north2 (Stockholm, bidding zone SE-SE3): 2022 and 2025', () => {
    // (0.71 + 0.5 × (4.26 − 0.71)) W = 2.485 W × PUE 1.1 = 2.7335 Wh = 0.0027335 kWh
    // 2022: × 0.025 kg/kWh = 0.0000683375 kg; 2025: × 0.020 = 0.00005467 kg
    const y2022 = calculateCpu(
      'gcp',
      { cpu_count: 1, region: 'europe-north2', duration: 1 },
      defaultDatasets,
    );
    expect(y2022.co2e).toBe(0.0000683375);
    const y2025 = calculateCpu(
      'gcp',
      { cpu_count: 1, region: 'europe-north2', duration: 1, year: 2025 },
      defaultDatasets,
    );
    expect(y2025.co2e).toBe(0.00005467);
    expect(y2025.emission_factor?.year).toBe(2025);
  });
});
