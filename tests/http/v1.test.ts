import Big from 'big.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  calculateCpu,
  calculateEmbodied,
  calculateInstance,
  calculateMemory,
  calculateNetworking,
  calculateSpend,
  calculateStorage,
} from '../../src/index';
import { defaultDatasets } from '../../src/embedded/index';
import { createHandler } from '../../src/http/index';
import { loadDatasets } from '../../src/node/index';

/**
 * The hosted API's v1 answers on `/compute/v1/…` and `/procurement/v1/…`, replayed field by field from the
 * recorded answers in ../shared/HOSTED-V1.md (copied below as literals, with where each came from). The hosted v1
 * API rounded `co2e` and `activity_value` to 4 significant figures; we send exact values, so the recorded figures
 * are compared with ours rounded to 4 significant figures (`sig4`), and the unrounded beta4 and README figures
 * digit for digit. Energies (kWh) depend only on the CCF coefficients and PUE, which are the same as the hosted
 * API's; co2e depends on the grid factor, which differs (the hosted API used AIB/Climate Transparency grids we do
 * not ship), so co2e is checked against the library instead.
 */

const handler = createHandler({ datasets: defaultDatasets });
const post = async (path: string, body: unknown, h = handler) => {
  const response = await h(
    new Request(`http://localhost${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) as any };
};
const sig4 = (value: number) => Number(value.toPrecision(4));
const datasets = defaultDatasets as Parameters<typeof calculateCpu>[2];

describe('HOSTED-V1.md: the v1 instance batch (t2.micro, eu_central_1, 1 h, utilisation 0.5)', () => {
  it('answers {"results": […]} with the recorded energies, details and units', async () => {
    const request = {
      instance: 't2.micro',
      region: 'eu_central_1',
      duration: 1,
      duration_unit: 'h',
      average_vcpu_utilization: 0.5,
      audit_trail: 'disabled',
    };
    const { status, body } = await post('/compute/v1/aws/instance/batch', [request]);
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['results']);
    expect(body.results).toHaveLength(1);
    const [answer] = body.results;
    expect(Object.keys(answer)).toEqual([
      'total_co2e',
      'total_co2e_unit',
      'memory_estimate',
      'cpu_estimate',
      'embodied_cpu_estimate',
      'calculation_details',
    ]);
    expect(answer.total_co2e_unit).toBe('kg');
    // Recorded: memory 0.0004777 kWh, cpu 0.002406 kWh, embodied 1.0 instance-hour, audit trail disabled.
    expect(answer.memory_estimate.activity_data).toEqual({
      activity_value: 0.00047772921233408,
      activity_unit: 'kWh',
    });
    expect(sig4(answer.memory_estimate.activity_data.activity_value)).toBe(0.0004777);
    expect(sig4(answer.cpu_estimate.activity_data.activity_value)).toBe(0.002406);
    expect(answer.cpu_estimate.activity_data.activity_unit).toBe('kWh');
    expect(answer.embodied_cpu_estimate.activity_data).toEqual({
      activity_value: 1.0,
      activity_unit: 'instance-hour',
    });
    for (const part of ['memory_estimate', 'cpu_estimate', 'embodied_cpu_estimate']) {
      expect(answer[part]).toMatchObject({
        co2e_unit: 'kg',
        emission_factor: null,
        constituent_gases: null,
        audit_trail: 'disabled',
      });
    }
    // calculation_details keeps full doubles. The hosted 0.0024062000000000003 is a float artefact of
    // 2.12 W × 1.135 / 1000; ours is the exact 0.0024062 (they differ in the 17th digit only).
    expect(answer.calculation_details).toEqual({
      instance: 't2.micro',
      instance_memory: 1.073741824,
      memory_unit: 'GB',
      vcpu_cores: 1,
      average_vcpu_utilization: 0.5,
      power_usage_effectiveness: 1.135,
      energy_used_cpu: 0.0024062,
      energy_used_memory: 0.00047772921233408,
      energy_unit: 'kWh',
      // Ours, not the hosted answer's: which embodied figure the estimate used (issue 38), on every path.
      embodied_method: 'published',
    });
    expect(answer.calculation_details.energy_used_cpu).toBeCloseTo(0.0024062000000000003, 17);
    // co2e: the library's (our grid for DE differs from the hosted one).
    expect(answer).toEqual(calculateInstance('aws', request as never, datasets));
  });

  it.each([
    // beta4, unrounded: t3a.large 24 h at 0.16
    ['t3a.large', 24, 0.16, 0.064373568, 0.09172400876814336, 8.589934592, 2],
    // beta4: r5.4xlarge, the same day and load
    ['r5.4xlarge', 24, 0.16, 0.514988544, 1.4675841402902938, 137.438953472, 16],
    // the plugin README: r5.2xlarge, 1 h at 50 %
    ['r5.2xlarge', 1, 0.5, 0.0192496, 0.03057466958938112, 68.719476736, 8],
  ])(
    '%s, %s h at %s: energy_used_cpu %s kWh and energy_used_memory %s kWh to the digit',
    async (instance, duration, utilization, cpuKwh, memoryKwh, memory, vcpus) => {
      const { status, body } = await post('/compute/v1/aws/instance', {
        instance,
        region: 'eu_central_1',
        duration,
        average_vcpu_utilization: utilization,
      });
      expect(status).toBe(200);
      expect(body.calculation_details).toMatchObject({
        energy_used_cpu: cpuKwh,
        energy_used_memory: memoryKwh,
        instance_memory: memory,
        vcpu_cores: vcpus,
        power_usage_effectiveness: 1.135,
      });
      expect(body.cpu_estimate.activity_data).toEqual({ activity_value: cpuKwh, activity_unit: 'kWh' });
      expect(body.memory_estimate.activity_data).toEqual({ activity_value: memoryKwh, activity_unit: 'kWh' });
      expect(body.embodied_cpu_estimate.activity_data).toEqual({
        activity_value: duration,
        activity_unit: 'instance-hour',
      });
    },
  );
});

describe('HOSTED-V1.md: v1 cpu, memory, storage items give energy in kWh', () => {
  it('CPU item: 0.004812 kWh (2 vCPU-hours × 2.12 W × PUE 1.135), and its source_trail', async () => {
    const request = { cpu_count: 2, region: 'eu_central_1', duration: 1, audit_trail: 'disabled' };
    const { body } = await post('/compute/v1/aws/cpu/batch', [request]);
    const [item] = body.results;
    expect(item.activity_data).toEqual({ activity_value: 0.0048124, activity_unit: 'kWh' });
    expect(sig4(item.activity_data.activity_value)).toBe(0.004812);
    expect(item.audit_trail).toBe('disabled');
    // The recorded trail's keys, in order; year a string, region DE named Germany. Source and dataset are ours
    // (the hosted API used AIB's European Residual Mix 2022; we ship Electricity Maps), so co2e differs too.
    expect(item.source_trail).toHaveLength(1);
    expect(Object.keys(item.source_trail[0])).toEqual([
      'data_category',
      'name',
      'source',
      'source_dataset',
      'year',
      'region',
      'region_name',
    ]);
    expect(item.source_trail[0]).toMatchObject({
      data_category: 'emission_factor',
      name: 'Electricity supplied from grid: AWS (eu-central-1), zone DE',
      year: '2022',
      region: 'DE',
      region_name: 'Germany',
    });
    // co2e: the library's for the same request; kWh × the grid's 0.475 kg/kWh = 0.0048124 × 0.475 = 0.00228589.
    expect(item.co2e).toBe(calculateCpu('aws', request as never, datasets).co2e);
    expect(item.co2e).toBe(0.00228589);
  });

  it('memory item: 8 GB · 1 h → 0.003559 kWh (8 × 0.000392 × 1.135 = 0.00355936)', async () => {
    const request = { region: 'eu_central_1', data: 8, data_unit: 'GB', duration: 1 };
    const { body } = await post('/compute/v1/aws/memory', request);
    expect(body.activity_data).toEqual({ activity_value: 0.00355936, activity_unit: 'kWh' });
    expect(sig4(body.activity_data.activity_value)).toBe(0.003559);
    expect(body.co2e).toBe(calculateMemory('aws', request as never, datasets).co2e);
    expect(body.emission_factor).toMatchObject({ factor: 0.475, data_quality_flags: '[]' });
  });

  it('storage item (af_south_1): 0.0000681 kWh, source_trail region ZA named South Africa', async () => {
    // 50 GB SSD · 1 h: 0.05 TB × 1.2 Wh/TB-hour / 1000 × PUE 1.135 = 0.0000681 kWh
    const request = { region: 'af_south_1', storage_type: 'ssd', data: 50, duration: 1 };
    const { body } = await post('/compute/v1/aws/storage', request);
    expect(body.activity_data).toEqual({ activity_value: 0.0000681, activity_unit: 'kWh' });
    expect(body.source_trail[0]).toMatchObject({ region: 'ZA', region_name: 'South Africa', year: '2022' });
    expect(body.co2e).toBe(calculateStorage('aws', request as never, datasets).co2e);
  });

  it.each([
    ['ssd', 8, 0.0000109], // 0.008 TB × 1.2 / 1000 × 1.135 = 0.000010896
    ['hdd', 125, 0.00009222], // 0.125 TB × 0.65 / 1000 × 1.135 = 0.00009221875
  ])('%s %s GB · 1 h → %s kWh', async (storage_type, data, kwh) => {
    const { body } = await post('/compute/v1/aws/storage/batch', [
      { region: 'eu_central_1', storage_type, data, data_unit: 'GB', duration: 1 },
    ]);
    expect(sig4(body.results[0].activity_data.activity_value)).toBe(kwh);
  });

  it('networking: 100 GB × 0.001 kWh/GB × PUE 1.185 = 0.1185 kWh; co2e the library’s', async () => {
    const request = { region: 'westeurope', data: 100 };
    const { body } = await post('/compute/v1/azure/networking', request);
    expect(body.activity_data).toEqual({ activity_value: 0.1185, activity_unit: 'kWh' });
    expect(body.co2e).toBe(calculateNetworking('azure', request, datasets).co2e);
    expect(body.co2e).toBe(0.0411195); // 0.1185 × 0.347
  });
});

describe('v1 where the shapes are the same as the unversioned routes', () => {
  const EMBODIED = { instance: 'm5.large', instance_count: 3, duration: 24 };
  const SPEND = {
    activity: { classification_type: 'isic4', classification_code: '4711' },
    spend_year: 2023,
    spend_region: 'DE',
    money: 1000,
    money_unit: 'eur',
  };

  it.each([
    ['/compute/aws/instance', { instance: 't2.micro', region: 'us_east_1', duration: 1 }],
    ['/compute/aws/embodied', EMBODIED],
    ['/procurement/spend', SPEND],
  ])('single %s: the same bytes on v1', async (path, body) => {
    const plain = await post(path, body);
    const v1 = await post(path.replace(/^\/(\w+)\//, '/$1/v1/'), body);
    expect(v1.status).toBe(200);
    expect(v1.text).toBe(plain.text);
  });

  it.each([
    ['/compute/aws/instance/batch', [{ instance: 't2.micro', region: 'us_east_1', duration: 1 }, {}]],
    ['/compute/aws/embodied/batch', [EMBODIED, { ...EMBODIED, instance: 'nope' }]],
    ['/procurement/spend/batch', [SPEND, {}]],
  ])('batch %s: v1 wraps the same elements in {"results": …}', async (path, body) => {
    const plain = await post(path, body);
    const v1 = await post(path.replace(/^\/(\w+)\//, '/$1/v1/'), body);
    expect(v1.text).toBe(`{"results":${plain.text}}`);
    expect(v1.body.results[1]).toMatchObject({
      error: 'bad_request',
      path: expect.stringMatching(/^requests\[1\]/),
    });
  });

  it('spend on v1 equals the library', async () => {
    const { body } = await post('/procurement/v1/spend', SPEND);
    expect(body).toEqual(
      JSON.parse(JSON.stringify(calculateSpend(SPEND as never, defaultDatasets as never))),
    );
  });
});

describe('v1 errors and limits', () => {
  const CPU = { cpu_count: 1, region: 'us_east_1', duration: 1 };

  it('100 operations per v1 batch, even when the server allows more on its own paths', async () => {
    const roomy = createHandler({ datasets: defaultDatasets, maxBatchSize: 500 });
    expect((await post('/compute/v1/aws/cpu/batch', Array(100).fill(CPU), roomy)).body.results).toHaveLength(
      100,
    );
    const refused = await post('/compute/v1/aws/cpu/batch', Array(101).fill(CPU), roomy);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error: 'bad_request',
      error_code: 'batch_too_large',
      path: 'requests',
    });
    expect(refused.body.message).toContain('100');
    expect((await post('/compute/aws/cpu/batch', Array(101).fill(CPU), roomy)).status).toBe(200);
    // A server limit below 100 still applies on v1.
    const tight = createHandler({ datasets: defaultDatasets, maxBatchSize: 2 });
    expect((await post('/procurement/v1/spend/batch', [{}, {}, {}], tight)).body.error_code).toBe(
      'batch_too_large',
    );
  });

  it('a failed element is {error, error_code, message, path} inside results; the batch is 200', async () => {
    const { status, body } = await post('/compute/v1/aws/memory/batch', [
      { region: 'mars', data: 1, duration: 1 },
      { region: 'us_east_1', data: 1, duration: 1 },
    ]);
    expect(status).toBe(200);
    expect(body.results[0]).toMatchObject({
      error: 'bad_request',
      error_code: 'unknown_region',
      path: 'requests[0].region',
    });
    expect(body.results[1].activity_data.activity_unit).toBe('kWh');
  });

  it('a body that is not an array, an unknown provider and a bad single request are 400 error bodies', async () => {
    expect((await post('/compute/v1/aws/cpu/batch', CPU)).body).toMatchObject({
      error: 'bad_request',
      error_code: 'invalid_request',
    });
    expect((await post('/compute/v1/ibm/cpu', CPU)).body.error_code).toBe('unsupported_provider');
    const bad = await post('/compute/v1/aws/cpu', { ...CPU, cpu_count: -1 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['error', 'error_code', 'message', 'path']);
  });

  it('401 on v1 is the hosted error JSON', async () => {
    const keyed = createHandler({ datasets: defaultDatasets, authorize: (key) => key === 'k' });
    const { status, body } = await post('/compute/v1/aws/cpu', CPU, keyed);
    expect(status).toBe(401);
    expect(body).toEqual({
      error: 'unauthorized',
      error_code: 'unauthorized',
      message: 'Missing API key. Send it as the header `Authorization: Bearer <API_KEY>`.',
    });
  });

  it('a missing dataset part still fails the whole v1 batch once (500), not each element', async () => {
    const { cloudInstances: _, ...withoutInstances } = defaultDatasets as unknown as Record<string, unknown>;
    const partial = createHandler({ datasets: withoutInstances as never, onError: () => {} });
    const { status, body } = await post(
      '/compute/v1/aws/embodied/batch',
      [{ instance: 'm5.large', instance_count: 1, duration: 1 }],
      partial,
    );
    expect(status).toBe(500);
    expect(body.error_code).toBe('missing_dataset');
  });
});

describe('v1 use-phase answers are the library’s co2e, as kWh × kg per kWh', () => {
  it('for any CPU request: co2e equals calculateCpu, and kWh = CPU-hours × (Wmin + u·ΔW)/1000 × PUE', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 0, max: 100 }),
        async (cpu_count, duration, percent) => {
          const request = {
            cpu_count,
            region: 'us_east_1',
            duration,
            average_vcpu_utilization: percent / 100,
          };
          const { body } = await post('/compute/v1/aws/cpu', request);
          const library = calculateCpu('aws', request, datasets);
          expect(body.co2e).toBe(library.co2e);
          const watts = 0.74 + (percent / 100) * (3.5 - 0.74);
          expect(body.activity_data.activity_value).toBeCloseTo(
            ((cpu_count * duration * watts) / 1000) * 1.135,
            12,
          );
          expect(body.activity_data.activity_value * body.emission_factor.factor).toBeCloseTo(body.co2e, 12);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('hosted-api-2021 (factors stated per unit): the factor per kWh is the stated factor ÷ kWh per unit', async () => {
    const hosted = createHandler({ datasets: loadDatasets(['hosted-api-2021']) });
    const request = { cpu_count: 2, region: 'eu_central_1', duration: 1 };
    const { body } = await post('/compute/v1/aws/cpu', request, hosted);
    const plain = await post('/compute/aws/cpu', request, hosted);
    // co2e is the published kWh × kg per kWh, rounded once (issue 39's identity, on v1 too); the factor per kWh is a
    // quotient here, so the product can differ from the unversioned co2e (2 × 0.00079987 = 0.00159974) in the last
    // digit: 0.0048124 × (0.00079987 / 0.0024062) gives 0.0015997399999999999.
    expect(body.co2e).toBe(
      Number(
        new Big(String(body.activity_data.activity_value))
          .times(String(body.emission_factor.factor))
          .toString(),
      ),
    );
    expect(Math.abs(body.co2e - plain.body.co2e) / plain.body.co2e).toBeLessThan(1e-15);
    expect(body.activity_data).toEqual({ activity_value: 0.0048124, activity_unit: 'kWh' });
    // 0.00079987 kg per CPU-hour (CCF 2021, DE-FRA) ÷ 0.0024062 kWh per CPU-hour
    expect(body.emission_factor.factor).toBeCloseTo(plain.body.emission_factor.factor / 0.0024062, 12);
    expect(body.source_trail[0]).toMatchObject({
      name: 'AWS (eu-central-1) CPU',
      year: '2021',
      region: 'DE-FRA',
    });
  });

  it('the embodied route keeps instance-hour on v1', async () => {
    const request = { instance: 'm5.large', instance_count: 1, duration: 2 };
    const { body } = await post('/compute/v1/aws/embodied', request);
    expect(body.co2e).toBe(calculateEmbodied('aws', request, defaultDatasets as never).co2e);
    expect(body.activity_data.activity_unit).toBe('instance-hour');
  });
});

describe('403: a valid key not allowed the operation', () => {
  it('authorize returning "forbidden" answers the hosted 403 error JSON', async () => {
    const plans = createHandler({
      datasets: defaultDatasets,
      authorize: (key, request) =>
        key !== 'k' ? false : new URL(request.url).pathname.startsWith('/compute/') ? 'forbidden' : true,
    });
    const call = (path: string, body: unknown) =>
      plans(
        new Request(`http://localhost${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
          body: JSON.stringify(body),
        }),
      );
    const refused = await call('/compute/v1/aws/cpu', { cpu_count: 1, region: 'us_east_1', duration: 1 });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: 'forbidden',
      error_code: 'forbidden',
      message: 'The API key is valid, but not for this operation.',
    });
    expect((await call('/procurement/v1/spend/batch', [])).status).toBe(200);
  });
});
