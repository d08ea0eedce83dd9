import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDatasets } from '../../src/embedded/index';
import { startServer, type TestServer } from './server';
import { RETAIL_DE_WITH_MARGINS } from '../fixtures/requests';

/**
 * Every route of SPEC.md's endpoint table over real HTTP, with values worked out by hand from the embedded
 * datasets (CCF coefficients, Electricity Maps 2022 grid factors, EXIOBASE 2019 factors), and the wire quirk:
 * the per-resource cloud endpoints send data_quality_flags as a string, spend and instance as an array.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ datasets: defaultDatasets });
});
afterAll(() => server.close());

const FLAGS_TEXT = "['notable_methodological_variance']";

describe('per-resource cloud routes', () => {
  /** A route, its request, and the answer worked out by hand: co2e, activity, and any emission factor fields named. */
  interface Case {
    request: Record<string, unknown>;
    co2e: number;
    activity: [number, string];
    factor?: Record<string, unknown>;
    contentType?: string;
  }
  const CASES: Array<[string, string, Case]> = [
    [
      '/compute/aws/cpu',
      '4 vCPU for 30 min in us-east-1',
      // activity = 4 × 0.5 h = 2 CPU-hour
      // factor = (0.74 + 0.5 × (3.5 − 0.74)) / 1000 × PUE 1.135 × grid 0.434 = 0.00212 × 1.135 × 0.434 = 0.0010442908
      // co2e = 2 × 0.0010442908 = 0.0020885816
      {
        request: { cpu_count: 4, region: 'us_east_1', duration: 30, duration_unit: 'min' },
        contentType: 'application/json; charset=utf-8',
        co2e: 0.0020885816,
        activity: [2, 'CPU-hour'],
        factor: { factor: 0.0010442908, name: 'AWS (us-east-1) CPU' },
      },
    ],
    [
      '/compute/aws/memory',
      '16 GB for 2 h',
      // activity = 16 GB × 2 h = 32 GB-hour; factor = 0.000392 × 1.135 × 0.434 = 0.00019309528
      // co2e = 32 × 0.00019309528 = 0.00617904896
      {
        request: { region: 'us-east-1', data: 16, duration: 2 },
        co2e: 0.00617904896,
        activity: [32, 'GB-hour'],
      },
    ],
    [
      '/compute/gcp/storage',
      '2 TB SSD for 30 days',
      // activity = 2 TB × 720 h = 1440 TB-hour; factor = 1.2 / 1000 × PUE 1.1 × grid 0.197 = 0.00026004
      // co2e = 1440 × 0.00026004 = 0.3744576
      {
        request: {
          region: 'europe_west1',
          storage_type: 'ssd',
          data: 2,
          data_unit: 'TB',
          duration: 30,
          duration_unit: 'day',
        },
        co2e: 0.3744576,
        activity: [1440, 'TB-hour'],
      },
    ],
    [
      '/compute/azure/networking',
      '100 GB',
      // factor = 0.001 × PUE 1.185 × grid 0.347 = 0.000411195; co2e = 100 × 0.000411195 = 0.0411195
      { request: { region: 'westeurope', data: 100 }, co2e: 0.0411195, activity: [100, 'GB'] },
    ],
    [
      '/compute/aws/embodied',
      '3 × m5.large for 24 h',
      // activity = 3 × 24 = 72 instance-hour; m5.large: 2 of its platform's 96 vCPU, platform 1610.79 kg, 35040 h
      // co2e = 72 × 1610.79 × 2 / (96 × 35040) = 231953.76 / 3363840 = 0.068955051369863013698…
      {
        request: { instance: 'm5.large', instance_count: 3, duration: 24 },
        // 72 × the published factor 0.0009577090468036529, rounded once (issue 39)
        co2e: 0.068955051369863,
        activity: [72, 'instance-hour'],
        factor: { year: 2021 },
      },
    ],
  ];

  it.each(CASES)('POST %s: %s', async (route, _, expected) => {
    const { status, headers, body } = await server.post(route, expected.request);
    expect(status).toBe(200);
    if (expected.contentType !== undefined) expect(headers.get('content-type')).toBe(expected.contentType);
    expect(body.co2e).toBe(expected.co2e);
    const [activity_value, activity_unit] = expected.activity;
    expect(body.activity_data).toEqual({ activity_value, activity_unit });
    for (const [field, value] of Object.entries(expected.factor ?? {}))
      expect(body.emission_factor[field]).toBe(value);
    expect(body.emission_factor.data_quality_flags).toBe(FLAGS_TEXT);
  });

  it('sends emission_factor null when the audit trail is disabled', async () => {
    const disabled = await server.post('/compute/aws/cpu', {
      cpu_count: 1,
      region: 'us_east_1',
      duration: 1,
      audit_trail: 'disabled',
    });
    expect(disabled.status).toBe(200);
    expect(disabled.body.emission_factor).toBe(null);
    expect(disabled.body.audit_trail).toBe('disabled');
  });
});

describe('instance and spend routes send data_quality_flags as a JSON array', () => {
  it('POST /compute/aws/instance: t2.micro for 1 h (DESIGN.md check values)', async () => {
    // energy_used_cpu = 1 vCPU × 1 h × 0.00212 kW × 1.135 = 0.0024062 kWh
    // energy_used_memory = 1 GiB = 1.073741824 GB × 1 h × 0.000392 × 1.135 = 0.00047772921233408 kWh
    const { status, body } = await server.post('/compute/aws/instance', {
      instance: 't2.micro',
      region: 'us_east_1',
      duration: 1,
      duration_unit: 'h',
    });
    expect(status).toBe(200);
    expect(body.calculation_details.energy_used_cpu).toBe(0.0024062);
    expect(body.calculation_details.energy_used_memory).toBe(0.00047772921233408);
    expect(body.cpu_estimate.emission_factor.data_quality_flags).toEqual([]);
    expect(body.embodied_cpu_estimate.emission_factor.data_quality_flags).toEqual([
      'notable_methodological_variance',
    ]);
    expect(Object.keys(body)).toEqual([
      'total_co2e',
      'total_co2e_unit',
      'memory_estimate',
      'cpu_estimate',
      'embodied_cpu_estimate',
      'calculation_details',
    ]);
  });

  it('POST /compute/aws/instance: p3.2xlarge has its GPU part, inf2.xlarge a notice (issue 22 item 3, 21 item 6)', async () => {
    // 1 V100 at 50 %: (35 + 0.5 · 271) W · 1.135 = 0.1935175 kWh in 1 h; · 0.434 kg/kWh = 0.083986595 kg.
    const p3 = await server.post('/compute/aws/instance', {
      instance: 'p3.2xlarge',
      region: 'us_east_1',
      duration: 1,
    });
    expect(p3.status).toBe(200);
    expect(p3.body.calculation_details.energy_used_gpu).toBe(0.1935175);
    expect(p3.body.gpu_estimate.co2e).toBe(0.083986595);
    expect(p3.body.gpu_estimate.emission_factor.data_quality_flags).toEqual([]);
    const g6 = await server.post('/compute/aws/instance', {
      instance: 'inf2.xlarge',
      region: 'us_east_1',
      duration: 1,
    });
    expect(g6.status).toBe(200);
    expect(g6.body.gpu_estimate).toBeUndefined();
    expect(g6.body.notices[0].code).toBe('gpu_power_not_estimated');
  });

  it('POST /procurement/spend: 1000 EUR retail trade in DE, 2019, margins supplied', async () => {
    // activity = 1000 × (1 − 0.19 − 0.1 − 0.02) / (1 + 0) = 690 EUR (2019 is the factor year: no inflation)
    // co2e = 690 × 0.0272 (EXIOBASE DE, p52 retail trade) = 18.768
    const { status, body } = await server.post('/procurement/spend', RETAIL_DE_WITH_MARGINS);
    expect(status).toBe(200);
    expect(body.estimate.co2e).toBe(18.768);
    expect(body.estimate.activity_data).toEqual({ activity_value: 690, activity_unit: 'eur' });
    expect(body.estimate.emission_factor.data_quality_flags).toEqual([]);
    expect(body.calculation_details.inflation_applied).toBe(0);
    expect(body.notices).toEqual([]);
  });
});

describe('batch routes: results in request order, a bad element is its error body', () => {
  const cpu = { cpu_count: 4, region: 'us_east_1', duration: 30, duration_unit: 'min' };

  it('POST /compute/aws/cpu/batch with good, bad and good elements', async () => {
    const { status, body } = await server.post('/compute/aws/cpu/batch', [
      cpu,
      { ...cpu, cpu_count: -1 },
      { ...cpu, duration: 60 }, // twice the activity of the first: 4 CPU-hour × 0.0010442908 = 0.0041771632
    ]);
    expect(status).toBe(200);
    expect(body).toHaveLength(3);
    expect(body[0].co2e).toBe(0.0020885816);
    expect(body[0].emission_factor.data_quality_flags).toBe(FLAGS_TEXT);
    expect(body[1]).toEqual({
      error: 'bad_request',
      error_code: 'invalid_request',
      message: "'cpu_count' must not be negative.",
      path: 'requests[1].cpu_count',
    });
    expect(body[2].co2e).toBe(0.0041771632);
    expect(body[2].emission_factor.data_quality_flags).toBe(FLAGS_TEXT);
  });

  it.each([
    ['memory', { region: 'us_east_1', data: 16, duration: 2 }, { region: 'mars' }, 0.00617904896],
    [
      'storage',
      { region: 'us_east_1', storage_type: 'hdd', data: 1000, duration: 1 },
      { storage_type: 'tape' },
      0.0003201835,
    ],
    ['networking', { region: 'us_east_1', data: 100 }, { data: 'a lot' }, 0.049259],
    [
      'embodied',
      { instance: 't2.micro', instance_count: 48, duration: 35040 },
      { instance: 'z9.huge' },
      1477.54,
    ],
  ])('POST /compute/aws/%s/batch', async (calculator, good, bad, co2e) => {
    // memory: as above, 32 GB-hour × 0.00019309528 = 0.00617904896
    // storage: 1000 GB = 1 TB × 1 h × 0.65 / 1000 × 1.135 × 0.434 = 0.00065 × 0.49259 = 0.0003201835
    // networking: 100 × 0.001 × 1.135 × 0.434 = 0.049259
    // embodied: 48 × 35040 instance-hours of a 1-vCPU slice of a 48-vCPU platform = the platform's 1477.54 kg
    const { status, body } = await server.post(`/compute/aws/${calculator}/batch`, [
      good,
      { ...good, ...bad },
    ]);
    expect(status).toBe(200);
    expect(body).toHaveLength(2);
    expect(body[0].co2e).toBe(co2e);
    expect(body[0].emission_factor.data_quality_flags).toBe(FLAGS_TEXT);
    expect(body[1].path).toMatch(/^requests\[1\]\./);
  });

  it('POST /compute/gcp/instance/batch keeps the arrays', async () => {
    const { status, body } = await server.post('/compute/gcp/instance/batch', [
      { instance: 'e2-standard-2', region: 'europe_west1', duration: 24 },
      { instance: 'e2-standard-2', region: 'atlantis', duration: 24 },
    ]);
    expect(status).toBe(200);
    expect(body[0].embodied_cpu_estimate.emission_factor.data_quality_flags).toEqual([
      'notable_methodological_variance',
    ]);
    expect(body[1].error_code).toBe('unknown_region');
    expect(body[1].path).toBe('requests[1].region');
  });

  it('POST /procurement/spend/batch', async () => {
    const good = RETAIL_DE_WITH_MARGINS;
    const { status, body } = await server.post('/procurement/spend/batch', [
      { ...good, activity: { classification_type: 'isic4', classification_code: '9999' } },
      good,
    ]);
    expect(status).toBe(200);
    expect(body[0].error_code).toBe('unknown_classification_code');
    expect(body[0].path).toBe('requests[0].activity.classification_code');
    expect(body[1].estimate.co2e).toBe(18.768);
  });

  it('an empty batch is an empty array', async () => {
    const { status, body } = await server.post('/compute/aws/cpu/batch', []);
    expect(status).toBe(200);
    expect(body).toEqual([]);
  });
});
