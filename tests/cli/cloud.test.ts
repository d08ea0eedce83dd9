import { describe, expect, it } from 'vitest';
import { cli, parseCsv, tempFile } from './harness';

/**
 * `co2e-engine cloud FILE`: the calculator and provider per row. Values by hand from CCF coefficients and
 * Electricity Maps 2022 grid factors (us-east-1: 0.434 kg/kWh).
 */

const HEADER =
  'resource,calculator,provider,region,instance,instance_count,cpu_count,data,data_unit,storage_type,duration,duration_unit';

describe('cloud CSV: GPU instances (issue 22 item 3, issue 21 item 6)', () => {
  it('includes the GPU part in co2e, and names what it leaves out in the notices column', async () => {
    const file = tempFile(
      'gpus.csv',
      [
        HEADER,
        'train,instance,aws,us_east_1,p3.2xlarge,,,,,,1,h',
        'infer,instance,aws,us_east_1,inf2.xlarge,,,,,,1,h',
        'web,instance,aws,us_east_1,m5.large,,,,,,1,h',
      ].join('\n'),
    );
    const { code, stdout } = await cli(['cloud', file]);
    expect(code).toBe(0);
    const rows = parseCsv(stdout);
    expect(rows.map((row) => row.notices)).toEqual(['', 'gpu_power_not_estimated', '']);
    // p3.2xlarge 1 h in us-east-1 (0.434 kg/kWh): CPU 8 · (0.74 + 0.5 · 2.76) W · 1.135 = 0.0192496 kWh → 0.0083543264;
    // memory 61 GiB = 65.498251264 GB · 0.000392 · 1.135 → 0.01264740316733243392; GPU (35 + 0.5 · 271) W · 1.135 =
    // 0.1935175 kWh → 0.083986595; embodied 3543.79 · 8 / (72 · 35040) = 0.0112372843734145104…; total
    // 0.1162256089407469443… kg.
    expect(rows[0]?.co2e).toBe('0.11622560894074695');
  });
});

describe('cloud CSV', () => {
  it('dispatches each row to its calculator, reports bad rows, sums by provider and calculator', async () => {
    const file = tempFile(
      'usage.csv',
      [
        HEADER,
        // 4 vCPU × 0.5 h = 2 CPU-hour × (0.74 + 0.5 × 2.76) / 1000 × 1.135 × 0.434 = 2 × 0.0010442908 = 0.0020885816
        'web,cpu,aws,us_east_1,,,4,,,,30,min',
        // t2.micro 1 h: cpu 0.0024062 kWh × 0.434 = 0.0010442908; memory 0.00047772921233408 kWh × 0.434
        // = 0.00020733447815299072; embodied 1477.54 / (48 × 35040) = 0.000878484113394216133942…;
        // total = 0.0021301093915472068539… kg
        'vm,instance,aws,us_east_1,t2.micro,,,,,,1,h',
        // 100 GB × 0.001 × 1.135 × 0.434 = 0.049259
        'egress,networking,AWS,us-east-1,,,,100,GB,,,',
        'gpu,gpu,aws,us_east_1,,,,,,,1,h',
        'orphan,cpu,,us_east_1,,,1,,,,1,h',
        'mixed,cpu,aws,us_east_1,,,1,,,ssd,1,h',
        'typo,storage,aws,us_east_1,,,,1,TB,tape,1,h',
      ].join('\n'),
    );
    const { code, stdout, stderr } = await cli(['cloud', file]);
    expect(code).toBe(1);
    const rows = parseCsv(stdout);
    expect(
      rows.map((row) => [row.resource, row.co2e, row.activity_value, row.activity_unit, row.error_code]),
    ).toEqual([
      ['web', '0.0020885816', '2', 'CPU-hour', ''],
      ['vm', '0.002130109391547207', '1', 'instance-hour', ''],
      ['egress', '0.049259', '100', 'GB', ''],
      ['gpu', '', '', '', 'invalid_request'],
      ['orphan', '', '', '', 'invalid_request'],
      ['mixed', '', '', '', 'invalid_request'],
      ['typo', '', '', '', 'invalid_request'],
    ]);
    expect(rows[0]?.factor_name).toBe('AWS (us-east-1) CPU');
    expect(rows[1]?.factor_name).toBe(
      'Electricity supplied from grid: AWS (us-east-1), zone US-MIDA-PJM; AWS t2.micro Embodied CPU',
    );
    expect(rows[1]?.factor_source).toBe('Electricity Maps; CCF');
    expect(rows[1]?.factor_id).toMatch(/^[0-9a-f]{32}; [0-9a-f]{32}$/);
    expect(rows[3]?.error_message).toBe(
      "'gpu' is not a calculator; one of cpu, memory, storage, networking, embodied, instance.",
    );
    expect(rows[4]?.error_message).toBe("'provider' is required; one of aws, azure, gcp.");
    expect(rows[5]?.error_message).toBe("Unknown field 'storage_type'.");
    expect(rows[6]?.error_message).toBe("'tape' is not a storage type. Valid storage types: ssd, hdd");

    // 0.0020885816 + 0.002130109391547207 + 0.049259 = 0.053477690991547207 (summed as the decimals shown)
    expect(stderr).toContain('co2e-engine cloud: 7 rows, 4 failed');
    expect(stderr).toContain('total co2e: 0.00005348 t (0.05348 kg; rows that succeeded)');
    expect(stderr).toContain('by provider:\n  aws  0.05348 kg  (3 rows)\n');
    expect(stderr).toContain('by calculator:\n  networking   0.04926 kg  (1 row)\n');
    // One line per error code: its count and the first row's message.
    expect(stderr).toContain(
      "failed, by error code (count, first example):\n  invalid_request  4 rows  line 5: 'gpu' is not a calculator;",
    );
  });

  it('an unknown provider is the calculator’s error', async () => {
    const { code, stdout } = await cli([
      'cloud',
      tempFile('ibm.csv', `${HEADER}\nx,cpu,ibm,us_east_1,,,1,,,,1,h\n`),
    ]);
    expect(code).toBe(1);
    expect(parseCsv(stdout)[0]?.error_code).toBe('unsupported_provider');
  });

  it('reads JSON Lines', async () => {
    const line = JSON.stringify({
      calculator: 'networking',
      provider: 'azure',
      region: 'westeurope',
      data: 100,
      team: 'web',
    });
    const { code, stdout } = await cli(['cloud', tempFile('usage.ndjson', `${line}\n`)]);
    expect(code).toBe(0);
    // 100 GB × 0.001 × PUE 1.185 × grid 0.347 = 0.0411195
    expect(JSON.parse(stdout)).toMatchObject({
      team: 'web',
      co2e: 0.0411195,
      activity_unit: 'GB',
      error_code: null,
    });
  });
});
