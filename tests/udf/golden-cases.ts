import { Big, toNumber } from '../cloud/exact';
import { expectedSpend } from '../spend/expected';

/**
 * The golden cases of tests/cloud/golden.test.ts and tests/spend/golden.test.ts as UDF calls, each with the co2e
 * worked out there by hand (repeated here, not read from the engine), so a UDF bundle is checked against both the
 * library and the hand-worked value.
 */

export interface CloudCase {
  label: string;
  calculator: 'cpu' | 'memory' | 'storage' | 'networking' | 'embodied' | 'instance';
  provider: string;
  request: Record<string, unknown>;
  /** co2e (for `instance`: the CPU sub-estimate's co2e). */
  co2e: number;
}

/**
 * Embodied kg as published: hours × count times the factor TE × vCPU / (platform vCPU × 35040) as a number,
 * multiplied in decimal and rounded once (co2e = activity_value × factor, issue 39).
 */
const embodied = (hours: number, te: string, vcpu: number, platformVcpu: number) =>
  toNumber(new Big(hours).times(toNumber(new Big(te).times(vcpu).div(platformVcpu * 35040))));

export const CLOUD_CASES: readonly CloudCase[] = [
  {
    label: 'cpu AWS us_east_1, 4 vCPU, 1 h',
    calculator: 'cpu',
    provider: 'aws',
    request: { cpu_count: 4, region: 'us_east_1', duration: 1 },
    co2e: 0.0041771632,
  },
  {
    label: 'cpu Azure westeurope, u 0.75, 10 h, 2023',
    calculator: 'cpu',
    provider: 'azure',
    request: { cpu_count: 2, region: 'westeurope', duration: 10, average_vcpu_utilization: 0.75, year: 2023 },
    co2e: 0.02000754,
  },
  {
    label: 'cpu GCP europe_west1, u 1, 3 h, 2024',
    calculator: 'cpu',
    provider: 'gcp',
    request: { cpu_count: 8, region: 'europe_west1', duration: 3, average_vcpu_utilization: 1, year: 2024 },
    co2e: 0.017206992,
  },
  {
    label: 'memory AWS 16 GB, 24 h',
    calculator: 'memory',
    provider: 'aws',
    request: { region: 'us_east_1', data: 16, duration: 24 },
    co2e: 0.07414858752,
  },
  {
    label: 'memory Azure 2 TB, 1 h',
    calculator: 'memory',
    provider: 'azure',
    request: { region: 'westeurope', data: 2, data_unit: 'TB', duration: 1 },
    co2e: 0.32237688,
  },
  {
    label: 'storage AWS SSD 2 TB, 720 h',
    calculator: 'storage',
    provider: 'aws',
    request: { region: 'us_east_1', storage_type: 'ssd', data: 2, data_unit: 'TB', duration: 720 },
    co2e: 0.85119552,
  },
  {
    label: 'storage GCP SSD 1 TB, 30 days',
    calculator: 'storage',
    provider: 'gcp',
    request: {
      region: 'europe_west1',
      storage_type: 'SSD',
      data: 1,
      data_unit: 'tb',
      duration: 30,
      duration_unit: 'day',
    },
    co2e: 0.1872288,
  },
  {
    label: 'networking AWS 100 GB',
    calculator: 'networking',
    provider: 'aws',
    request: { region: 'us_east_1', data: 100 },
    co2e: 0.049259,
  },
  {
    label: 'embodied AWS m5.large × 3, 24 h',
    calculator: 'embodied',
    provider: 'aws',
    request: { instance: 'm5.large', instance_count: 3, duration: 24 },
    co2e: embodied(72, '1610.79', 2, 96),
  },
  {
    label: 'embodied GCP e2-standard-2 over its lifetime',
    calculator: 'embodied',
    provider: 'gcp',
    request: { instance: 'e2-standard-2', instance_count: 1, duration: 1460, duration_unit: 'day' },
    co2e: 76.90375,
  },
  {
    label: 'instance AWS t2.micro, 1 h',
    calculator: 'instance',
    provider: 'aws',
    request: { instance: 't2.micro', region: 'us_east_1', duration: 1, duration_unit: 'h' },
    co2e: 0.0010442908,
  },
  {
    label: 'instance Azure D2s_v3, 10 h, u 0.25',
    calculator: 'instance',
    provider: 'azure',
    request: { instance: 'D2s_v3', region: 'westeurope', duration: 10, average_vcpu_utilization: 0.25 },
    co2e: 0.0125414475,
  },
  {
    label: 'instance GCP e2-standard-2, 2 days, 2024',
    calculator: 'instance',
    provider: 'gcp',
    request: {
      instance: 'e2-standard-2',
      region: 'europe_west1',
      duration: 2,
      duration_unit: 'day',
      year: 2024,
    },
    co2e: 0.040149648,
  },
];

export interface SpendCase {
  label: string;
  request: Record<string, unknown>;
  co2e: number;
}

const SUPPLIED = { tax_margin: 0.19, trade_margin: 0.1, transport_margin: 0.02 } as const;
const MARGINS = { tax: 0.19, trade: 0.1, transport: 0.02 } as const;
const RETAIL = { classification_type: 'isic4', classification_code: '4711' } as const;
const retail = (overrides: Record<string, unknown>) => ({
  activity: RETAIL,
  spend_year: 2019,
  spend_region: 'DE',
  money: 1000,
  money_unit: 'eur',
  ...SUPPLIED,
  ...overrides,
});
const p52 = (currency: string, spendYear: number, region: string, factor: number) =>
  toNumber(expectedSpend({ money: 1000, currency, spendYear, region, factor, margins: MARGINS }).co2e);

export const SPEND_CASES: readonly SpendCase[] = [
  // 1000 × 0.69 × 0.0272 (p52 DE)
  { label: 'ISIC 4711 DE 2019 EUR', request: retail({}), co2e: 18.768 },
  {
    label: 'NACE 47.11 reaches p52 too',
    request: retail({ activity: { classification_type: 'nace2', classification_code: '47.11' } }),
    co2e: 18.768,
  },
  { label: 'USD in DE 2019', request: retail({ money_unit: 'usd' }), co2e: p52('usd', 2019, 'DE', 0.0272) },
  {
    label: 'GBP in GB 2023, deflated',
    request: retail({ money_unit: 'gbp', spend_region: 'GB', spend_year: 2023 }),
    co2e: p52('gbp', 2023, 'GB', 0.0469),
  },
  {
    label: 'NOK in NO 2019',
    request: retail({ money_unit: 'nok', spend_region: 'NO' }),
    co2e: p52('nok', 2019, 'NO', 0.0968),
  },
  {
    label: 'EUR in DE 2023, deflated',
    request: retail({ spend_year: 2023 }),
    co2e: p52('eur', 2023, 'DE', 0.0272),
  },
];
