import { describe, expect, it } from 'vitest';
import { calculateCpu } from '../../src/index';
import { ccfGridDatasets, defaultDatasets } from '../../src/datasets/index';
import type { CloudProvider } from '../../src/datasets/tables';

/**
 * The grid zones corrected from the data centre's location and its balancing authority (datasets/SOURCES.md,
 * "Corrected grid zones"). Expected 2022 figures are Electricity Maps' yearly averages in g/kWh as published
 * (@tgwf/co2 0.19.0), divided by 1000.
 */
const CORRECTED: Array<[CloudProvider, string, string, number, string]> = [
  ['aws', 'us-west-2', 'US-NW-BPAT', 88, 'US-NW-PACW'],
  ['gcp', 'us-west1', 'US-NW-BPAT', 88, 'US-NW-PACW'],
  ['gcp', 'us-east1', 'US-CAR-SC', 603, 'US-CAR-SCEG'],
  ['azure', 'westus2', 'US-NW-GCPD', 37, 'US-NW-PACE'],
  ['azure', 'westus3', 'US-SW-AZPS', 474, 'US-NW-PACE'],
  ['azure', 'northcentralus', 'US-MIDA-PJM', 434, 'US-MIDW-MISO'],
  ['azure', 'eastus3', 'US-SE-SOCO', 463, 'US-MIDA-PJM'],
  ['azure', 'westcentralus', 'US-NW-WACM', 792, 'US-NW-PACE'],
];

describe('corrected grid zones', () => {
  for (const [provider, region, zone, grams, ccfZone] of CORRECTED) {
    it(`${provider} ${region}: ${zone} (CCF: ${ccfZone})`, () => {
      const row = defaultDatasets.cloudRegions.get(provider, region);
      expect(row?.grid_zone).toBe(zone);
      expect(row?.grid_zone).not.toBe(ccfZone);
      expect(row?.grid_factors['2022']).toBe(grams / 1000);
      expect(row?.grid_sources?.['2022']).toContain(`zone ${zone}`);
    });
  }

  it('the estimates move with the zone: AWS us-west-2 CPU is now Bonneville’s 0.088 kg/kWh', () => {
    // 1 vCPU-hour at 50 %: (0.74 + 0.5 × (3.5 − 0.74)) W × 1.135 PUE / 1000 = 0.0024062 kWh; × 0.088 kg/kWh.
    const estimate = calculateCpu('aws', { cpu_count: 1, region: 'us-west-2', duration: 1 }, defaultDatasets);
    expect(estimate.co2e).toBe(0.0002117456);
  });

  it('CCF’s own grid set keeps CCF’s own US figures (by NERC region)', () => {
    expect(ccfGridDatasets.cloudRegions.get('azure', 'westus2')?.grid_zone).toBe('US-NERC-WECC');
    expect(ccfGridDatasets.cloudRegions.get('gcp', 'us-east1')?.grid_zone).toBe('us-east1');
  });
});
