import { describe, expect, it } from 'vitest';
import { calculateEmbodied, calculateInstance } from '../../src/index';
import { ccfAppDatasets, cloudDatasets as defaultDatasets } from '../../src/embedded/cloud';

/**
 * Families whose platform specs were read from the providers' pages through the search tool (issue 38, remaining
 * items 1 and 2). Platform figures worked by hand: 1,000 kg + (platform GB − 16) · 533/384 (to 0.01 kg, half to
 * even) + 100 kg per socket beyond the first + 100 kg per SSD.
 */
const FAMILIES = [
  // provider, type, vCPUs, platform vCPUs, platform kg
  // c4d-standard-384: 1,488 GB, 2 sockets: 1,472 · 533/384 = 2,043.166… → 2,043.17; + 1,000 + 100
  ['gcp', 'c4d-standard-4', 4, 384, 3143.17],
  // c4d-highmem-384-lssd: 3,024 GB, 2 sockets, 32 SSD: 3,008 · 533/384 = 4,175.166… → 4,175.17; + 1,000 + 100 + 3,200
  ['gcp', 'c4d-highmem-8-lssd', 8, 384, 8475.17],
  // c4d-highcpu-384-metal: 768 GB, 2 sockets: 752 · 533/384 = 1,043.791… → 1,043.79; + 1,000 + 100
  ['gcp', 'c4d-highcpu-384-metal', 384, 384, 2143.79],
  // n4d-standard-96: 384 GB, 1 socket: 368 · 533/384 = 510.791… → 510.79; + 1,000
  ['gcp', 'n4d-standard-4', 4, 96, 1510.79],
  // n4d-highcpu-96: 192 GB, 1 socket: 176 · 533/384 = 244.291… → 244.29 (n4d-highcpu-48 is 90 GB as Google writes it)
  ['gcp', 'n4d-highcpu-48', 48, 96, 1244.29],
  // c4a-standard-72-lssd: 288 GB, 1 socket, 16 SSD (was 14): 272 · 533/384 = 377.541… → 377.54; + 1,000 + 1,600
  ['gcp', 'c4a-standard-4-lssd', 4, 72, 2977.54],
  // NC80adis_H100_v5: 640 GiB, 1 socket, 1 temp disk (was 2), 2 GPUs: 624 · 533/384 = 866.125 → 866.12; + 1,000 + 100 + 300
  ['azure', 'Standard_NC40ads_H100_v5', 40, 80, 2266.12],
  // ND96isr_H100_v5: 1,900 GiB, 2 sockets, 1 temp + 8 NVMe disks (was 8), 8 GPUs:
  // 1,884 · 533/384 = 1,004,172/384 = 2,615.031… → 2,615.03; + 1,000 + 100 + 900 + 1,200
  ['azure', 'Standard_ND96isr_H100_v5', 96, 96, 5815.03],
] as const;

describe('families checked against the providers’ pages (issue 38)', () => {
  it.each(FAMILIES)('%s %s: embodied from its platform specs', (p, type, vcpu, platform, kg) => {
    const estimate = calculateEmbodied(
      p,
      { instance: type, instance_count: 1, duration: 1 },
      defaultDatasets,
    );
    expect(estimate.co2e).toBeCloseTo((kg * vcpu) / (platform * 35040), 15);
    expect(estimate.calculation_details).toEqual({ embodied_method: 'derived from platform specs' });
  });

  it('c4d and n4d answer calculateInstance under the default profile with the provider’s average watts', () => {
    for (const instance of ['c4d-standard-4', 'n4d-standard-4']) {
      const vm = calculateInstance(
        'gcp',
        { instance, region: 'europe-west1', duration: 1, duration_unit: 'h' },
        defaultDatasets,
      );
      expect(vm.calculation_details.vcpu_cores).toBe(4);
      expect(vm.calculation_details.cpu_min_watts).toBeUndefined();
      expect(vm.total_co2e).toBeGreaterThan(0);
    }
  });

  it('ccf-app refuses c4d and n4d by name: CCF’s 2026 GCP coefficients have no EPYC 5th Gen watts', () => {
    for (const instance of ['c4d-standard-4', 'n4d-highmem-96', 'c4d-standard-384-metal']) {
      let error: unknown;
      try {
        calculateInstance('gcp', { instance, region: 'us-central1', duration: 1 }, ccfAppDatasets);
      } catch (caught) {
        error = caught;
      }
      expect(error, instance).toMatchObject({ error_code: 'unknown_instance' });
      const message = (error as Error).message;
      expect(message).toContain('has no EPYC 5th Gen watts');
      expect(message.length).toBeLessThanOrEqual(200);
    }
  });
});
