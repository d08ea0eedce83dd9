import { describe, expect, it } from 'vitest';
import { cli, serveCli } from './harness';

/**
 * `--datasets <preset>` on serve and cloud, through the CLI (the presets themselves: tests/datasets/presets.test.ts).
 * Azure east_asia networking, 1000 GB: the hosted API's 2021 factor 0.00091125 kg/GB (0.001 kWh/GB × PUE 1.125 ×
 * CCF 2021 HK grid 0.81) → 0.91125 kg.
 */

describe('--datasets takes preset names', () => {
  it('serve --datasets hosted-api-2021 answers the hosted 2021 figure on the hosted path', async () => {
    const { url, stop } = await serveCli(['--datasets', 'hosted-api-2021']);
    try {
      const response = await fetch(`${url}/compute/v1/azure/networking`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ region: 'east_asia', data: 1000, data_unit: 'GB' }),
      });
      expect(response.status).toBe(200);
      const body = await response.json();
      expect(body.co2e).toBe(0.91125);
      expect(body.emission_factor.year).toBe(2021);
    } finally {
      expect((await stop()).code).toBe(0);
    }
  });

  it('cloud --datasets ccf-grid uses CCF’s 2024 grid; an unknown name is a usage error listing the presets', async () => {
    // 1 vCPU-hour at 50 % on AWS us-east-1: 0.00212 kWh × 1.135 × CCF 2024 grid 0.379069 = 0.0009121158278 kg
    const input = 'calculator,provider,cpu_count,region,duration\ncpu,aws,1,us_east_1,1\n';
    const run = await cli(['cloud', '-', '--datasets', 'ccf-grid', '--format', 'jsonl'], { stdin: input });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout.trim().split('\n')[0] as string).co2e).toBe(0.0009121158278);
    const bad = await cli(['cloud', '-', '--datasets', 'ccf_grid'], { stdin: input });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--datasets ccf_grid: no such file, and not a preset (presets: default,');
  });

  it('cloud and serve --datasets ccf-app use the CCF application profile (ccfAppDatasets)', async () => {
    // GCP us-central1, 1 vCPU-hour at 50 %: CCF's code watts (0.68 + 0.5 × 3.43) = 2.395 Wh × its us-central1 PUE
    // 1.11 × CCF's 2024 grid 0.456 = 0.0012122532 kg (ccf-grid, with the default watts and PUE: 0.001246476)
    const input = 'calculator,provider,cpu_count,region,duration\ncpu,gcp,1,us-central1,1\n';
    const run = await cli(['cloud', '-', '--datasets', 'ccf-app', '--format', 'jsonl'], { stdin: input });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout.trim().split('\n')[0] as string).co2e).toBe(0.0012122532);
    const { url, stop } = await serveCli(['--datasets', 'ccf-app']);
    try {
      const response = await fetch(`${url}/compute/v1/gcp/cpu`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ cpu_count: 1, region: 'us-central1', duration: 1 }),
      });
      expect(response.status).toBe(200);
      expect((await response.json()).co2e).toBe(0.0012122532);
    } finally {
      expect((await stop()).code).toBe(0);
    }
  });
});
