import { describe, expect, it } from 'vitest';
import { calculateCpu } from '../../src/index';
import { ccfGridDatasets, defaultDatasets } from '../../src/embedded/index';
import type { CloudProvider } from '../../src/datasets/tables';

/**
 * The grid zones corrected from the data centre's location and its balancing authority (datasets/SOURCES.md,
 * "Corrected grid zones"). Expected 2022 figures are Electricity Maps' yearly averages in g/kWh as published
 * (@tgwf/co2 0.19.0), divided by 1000.
 */
const CORRECTED: Array<[CloudProvider, string, string, number, string]> = [
  ['aws', 'us-west-2', 'US-NW-BPAT', 88, 'US-NW-PACW'],
  ['aws', 'us-gov-west-1', 'US-NW-BPAT', 88, 'US-NW-PACW'],
  ['gcp', 'us-central2', 'US-CENT-SWPP', 487, 'US-MIDW-MISO'],
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

  it('AWS GovCloud (US-West) moves with us-west-2 to Bonneville (issue 22 item 4): 0.0024062 kWh × 0.088', () => {
    const estimate = calculateCpu(
      'aws',
      { cpu_count: 1, region: 'us-gov-west-1', duration: 1 },
      defaultDatasets,
    );
    expect(estimate.co2e).toBe(0.0002117456);
  });

  it('CCF’s own grid set keeps CCF’s own US figures (by NERC region)', () => {
    expect(ccfGridDatasets.cloudRegions.get('azure', 'westus2')?.grid_zone).toBe('US-NERC-WECC');
    expect(ccfGridDatasets.cloudRegions.get('gcp', 'us-east1')?.grid_zone).toBe('us-east1');
  });
});

/**
 * Regions CCF does not list, added with the zone of their documented location (datasets/SOURCES.md, "Added
 * regions"). Expected 2022 figures are Electricity Maps' yearly averages in g/kWh (@tgwf/co2 0.19.0), ÷ 1000.
 */
const ADDED: Array<[CloudProvider, string, string, number]> = [
  ['aws', 'eusc-de-east-1', 'DE', 475],
  ['azure', 'austriaeast', 'AT', 248],
  ['azure', 'belgiumcentral', 'BE', 197],
  ['azure', 'denmarkeast', 'DK-DK2', 166],
  ['azure', 'taiwannorth', 'TW', 535],
  ['gcp', 'asia-southeast3', 'TH', 497],
  ['aws', 'ap-east-2', 'TW', 535],
  ['aws', 'ap-south-2', 'IN-SO', 487],
  ['aws', 'ap-southeast-4', 'AU-VIC', 535],
  ['aws', 'ap-southeast-5', 'MY-WM', 645],
  ['aws', 'ap-southeast-6', 'NZ', 96],
  ['aws', 'ap-southeast-7', 'TH', 497],
  ['aws', 'ca-west-1', 'CA-AB', 455],
  ['aws', 'eu-central-2', 'CH', 122],
  ['aws', 'eu-south-2', 'ES', 220],
  ['aws', 'il-central-1', 'IL', 530],
  ['aws', 'mx-central-1', 'MX', 377],
  ['azure', 'chilecentral', 'CL-SEN', 322],
  ['azure', 'indonesiacentral', 'ID', 649],
  ['azure', 'israelcentral', 'IL', 530],
  ['azure', 'italynorth', 'IT-NO', 365],
  ['azure', 'malaysiawest', 'MY-WM', 645],
  ['azure', 'mexicocentral', 'MX', 377],
  ['azure', 'newzealandnorth', 'NZ', 96],
  ['azure', 'polandcentral', 'PL', 876],
  ['azure', 'spaincentral', 'ES', 220],
  ['gcp', 'africa-south1', 'ZA', 704],
  ['gcp', 'europe-north2', 'SE-SE3', 25],
  ['gcp', 'me-central1', 'QA', 490],
  ['gcp', 'me-central2', 'SA', 553],
  ['gcp', 'me-west1', 'IL', 530],
  ['gcp', 'northamerica-south1', 'MX', 377],
];

describe('added regions', () => {
  for (const [provider, region, zone, grams] of ADDED) {
    it(`${provider} ${region}: ${zone}`, () => {
      const row = defaultDatasets.cloudRegions.get(provider, region);
      expect(row?.grid_zone).toBe(zone);
      expect(row?.location).toBe(zone.slice(0, 2));
      expect(row?.grid_factors['2022']).toBe(grams / 1000);
      expect(Object.keys(row?.grid_factors ?? {})).toEqual(['2021', '2022', '2023', '2024', '2025']);
      for (const source of Object.values(row?.grid_sources ?? {})) expect(source).toContain(`zone ${zone}`);
    });
  }

  it('answers in the request spelling: AWS ap_south_2 CPU is the Southern grid’s 0.487 kg/kWh', () => {
    // 1 vCPU-hour at 50 %: 0.0024062 kWh (as above) × 0.487 kg/kWh.
    const estimate = calculateCpu(
      'aws',
      { cpu_count: 1, region: 'ap_south_2', duration: 1 },
      defaultDatasets,
    );
    expect(estimate.co2e).toBe(0.0011718194);
  });

  it('CCF’s grid set has no figure for them and lists each as unsupported, with the reason', () => {
    for (const [provider, region] of ADDED) {
      expect(ccfGridDatasets.cloudRegions.get(provider, region)).toBeUndefined();
      const listed = ccfGridDatasets.cloudRegions.unsupported?.(provider).find((r) => r.region === region);
      expect(listed?.reason).toMatch(
        /^CCF's grid emission factors \(trunk b7a049c7\) have no figure for it$/,
      );
    }
  });

  it('regions without a documented site are unsupported in both grid sets, not guessed', () => {
    for (const datasets of [defaultDatasets, ccfGridDatasets]) {
      const unsupported = datasets.cloudRegions.unsupported?.('azure') ?? [];
      for (const region of ['usgovarizona', 'usgovtexas', 'usgovvirginia', 'usdodcentral', 'usdodeast']) {
        expect(unsupported.find((r) => r.region === region)?.reason).toMatch(/^Azure Government/);
        expect(datasets.cloudRegions.get('azure', region)).toBeUndefined();
      }
    }
    expect(defaultDatasets.cloudRegions.unsupported?.('aws')).toEqual([]);
  });
});
