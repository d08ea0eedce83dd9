import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calculateCpu, calculateEmbodied, calculateInstance, calculateMemory } from '../../src/index';
import { defaultDatasets } from '../../src/embedded/index';

/**
 * The Impact Framework plugins as a team runs them: the package packed (`npm pack`), installed from the tarball
 * beside `@grnsft/if` (the version in our devDependencies, 1.1.0) in a fresh project, and IF's own runner,
 * `if-run`, run on examples/impact-framework/manifest.yml (`path: co2e-engine/impact-framework`): AWS, Azure and
 * GCP instances over a day of hourly observations, through CloudInstance and through CloudCpu + CloudMemory +
 * CloudEmbodied with IF's built-in Sum. Every output is checked against the library's estimate for the same
 * observation. Run with `npm run test:package` after `npm run build`.
 */

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MANIFEST = join(ROOT, 'examples', 'impact-framework', 'manifest.yml');
const KEEP = process.env.KEEP_PACKAGE_TEST_DIR === '1';
const IF_VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }
).devDependencies['@grnsft/if'];

if (!existsSync(join(ROOT, 'dist', 'impact-framework.cjs'))) {
  throw new Error('The Impact Framework test packs the built package; run `npm run build` first.');
}

let workDir: string;
let project: string;

async function exec(command: string, args: string[], cwd: string) {
  return run(command, args, { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } });
}

/**
 * if-run on a manifest in the project: the output manifest it wrote. if-run exits 0 either way; a failed run has
 * `execution.status: fail` and the error (`InputValidationError: …`) in `execution.error`.
 */
async function ifRun(manifest: string): Promise<any> {
  const out = join(project, manifest.replace(/\.yml$/, '-out'));
  const bin = join(project, 'node_modules', '.bin', 'if-run');
  const { stdout, stderr } = await exec(bin, ['--manifest', manifest, '--output', out], project);
  if (!existsSync(`${out}.yaml`)) throw new Error(`if-run wrote no ${out}.yaml:\n${stdout}\n${stderr}`);
  // js-yaml as IF itself installs it in the project (an IF dependency; none of ours).
  const yaml = createRequire(join(project, 'package.json'))('js-yaml') as { load(text: string): unknown };
  return yaml.load(readFileSync(`${out}.yaml`, 'utf8'));
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'co2e-engine-if-'));
  const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', workDir], ROOT);
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string }>;
  if (packed === undefined) throw new Error(`npm pack printed no package: ${stdout}`);
  project = join(workDir, 'team');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'team', private: true }));
  await exec(
    'npm',
    [
      'install',
      join(workDir, packed.filename),
      `@grnsft/if@${IF_VERSION}`,
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--package-lock=false',
    ],
    project,
  );
  copyFileSync(MANIFEST, join(project, 'manifest.yml'));
}, 300_000);

afterAll(() => {
  if (workDir !== undefined && !KEEP) rmSync(workDir, { recursive: true, force: true });
});

/** kg → g by moving the decimal point of the number's own digits (independent of the plugin's decimal code). */
function grams(kilograms: number): number {
  const [mantissa, exponent = '0'] = String(kilograms).split('e');
  return Number(`${mantissa}e${Number(exponent) + 3}`);
}

const datasets = defaultDatasets as Parameters<typeof calculateInstance>[2];
type Observation = Record<string, any>;

describe(`if-run (@grnsft/if ${IF_VERSION}) on examples/impact-framework/manifest.yml`, () => {
  let output: any;
  beforeAll(async () => {
    output = await ifRun('manifest.yml');
    expect(output.execution.error).toBeUndefined();
  }, 300_000);

  const child = (name: string): Observation[] => output.tree.children[name].outputs;

  it('runs to success with 24 hourly outputs per instance', () => {
    expect(output.execution.status).toBe('success');
    for (const name of ['aws-t3a-large', 'azure-standard-d2s-v3', 'gcp-n2-standard-4'])
      expect(child(name)).toHaveLength(24);
  });

  it.each(['aws-t3a-large', 'gcp-n2-standard-4'])(
    '%s (CloudInstance): every output is the library’s calculateInstance for the observation',
    (name) => {
      for (const observation of child(name)) {
        const expected = calculateInstance(
          observation['cloud/vendor'],
          {
            instance: observation['cloud/instance-type'],
            region: observation['cloud/region'],
            duration: observation.duration / 3600,
            average_vcpu_utilization: observation['cpu/utilization'] / 100,
          },
          datasets,
        );
        const details = expected.calculation_details;
        expect(observation['cpu/energy']).toBe(details.energy_used_cpu);
        expect(observation['memory/energy']).toBe(details.energy_used_memory);
        expect(observation.energy).toBeCloseTo(details.energy_used_cpu + details.energy_used_memory, 17);
        expect(observation['carbon-embodied']).toBe(grams(expected.embodied_cpu_estimate.co2e));
        expect(observation.carbon).toBe(grams(expected.total_co2e));
        expect(observation['carbon-operational']).toBeCloseTo(
          grams(expected.cpu_estimate.co2e) + grams(expected.memory_estimate.co2e),
          12,
        );
        expect(observation['grid/carbon-intensity']).toBe(
          grams(expected.cpu_estimate.emission_factor!.factor),
        );
        expect(observation['grid/factor-id']).toBe(expected.cpu_estimate.emission_factor!.id);
        expect(observation['embodied/factor-id']).toBe(expected.embodied_cpu_estimate.emission_factor!.id);
      }
    },
  );

  it('azure-standard-d2s-v3 (CloudCpu + CloudMemory + CloudEmbodied, IF Sum): every output is the library’s', () => {
    for (const observation of child('azure-standard-d2s-v3')) {
      const hours = observation.duration / 3600;
      const region = observation['cloud/region'];
      const utilization = observation['cpu/utilization'] / 100;
      const cpu = calculateCpu(
        'azure',
        { cpu_count: 2, region, duration: hours, average_vcpu_utilization: utilization },
        datasets,
      );
      const memory = calculateMemory('azure', { region, data: 8.589934592, duration: hours }, datasets);
      const embodied = calculateEmbodied(
        'azure',
        { instance: 'Standard_D2s_v3', instance_count: 1, duration: hours },
        datasets,
      );
      // The whole instance's energies, for the same hour: a 2-vCPU, 8 GiB machine is the sum of its parts.
      const instance = calculateInstance(
        'azure',
        { instance: 'Standard_D2s_v3', region, duration: hours, average_vcpu_utilization: utilization },
        datasets,
      ).calculation_details;
      expect(observation['cpu/energy']).toBe(instance.energy_used_cpu);
      expect(observation['memory/energy']).toBe(instance.energy_used_memory);
      expect(observation['cpu/carbon']).toBe(grams(cpu.co2e));
      expect(observation['memory/carbon']).toBe(grams(memory.co2e));
      expect(observation['carbon-embodied']).toBe(grams(embodied.co2e));
      expect(observation['embodied/factor-id']).toBe(embodied.emission_factor!.id);
      // IF's Sum adds the doubles: equal to the exact sums to the last digit or two.
      expect(observation.energy).toBeCloseTo(instance.energy_used_cpu + instance.energy_used_memory, 17);
      const operational = grams(cpu.co2e) + grams(memory.co2e);
      expect(observation['carbon-operational']).toBeCloseTo(operational, 12);
      expect(observation.carbon).toBeCloseTo(operational + grams(embodied.co2e), 12);
    }
  });

  it('aggregates energy and carbon over the day and the three instances (IF, from our metadata: sum)', () => {
    const all = ['aws-t3a-large', 'azure-standard-d2s-v3', 'gcp-n2-standard-4'].flatMap(child);
    const sumOf = (key: string) => all.reduce((total, observation) => total + observation[key], 0);
    expect(output.tree.aggregated.carbon).toBeCloseTo(sumOf('carbon'), 9);
    expect(output.tree.aggregated.energy).toBeCloseTo(sumOf('energy'), 12);
  });
});

describe('a bad observation fails the run with IF’s error class and the observation’s index', () => {
  it.each([
    [
      "cpu/utilization: 5, 'cloud/instance-type': t3a.huge",
      'InputValidationError',
      "Instance type 't3a.huge' is not a known aws instance type",
      '("cloud/instance-type" parameter) at index 3.',
    ],
    [
      'cpu/utilization: 150',
      'InputValidationError',
      '"cpu/utilization" parameter is above 100 (a percentage)',
      'at index 3.',
    ],
  ])(
    '%s → %s',
    async (change, errorClass, message, index) => {
      const manifest = readFileSync(MANIFEST, 'utf8').replace(
        "- { timestamp: '2026-03-02T03:00:00Z', duration: 3600, cpu/utilization: 5 }",
        `- { timestamp: '2026-03-02T03:00:00Z', duration: 3600, ${change} }`,
      );
      writeFileSync(join(project, 'bad.yml'), manifest);
      const { execution } = await ifRun('bad.yml');
      expect(execution.status).toBe('fail');
      expect(execution.error).toMatch(new RegExp(`^${errorClass}: `));
      expect(execution.error).toContain(message);
      expect(execution.error).toContain(index);
    },
    120_000,
  );

  it('an unknown dataset preset is IF’s ConfigError', async () => {
    writeFileSync(
      join(project, 'config.yml'),
      readFileSync(MANIFEST, 'utf8').replace('datasets: default', 'datasets: defualt'),
    );
    const { execution } = await ifRun('config.yml');
    expect(execution.status).toBe('fail');
    expect(execution.error).toMatch(/^ConfigError: 'datasets': defualt: no such file, and not a preset/);
    expect(execution.error).toContain('Did you mean: default');
  }, 120_000);
});

/** A manifest of one plugin and one child, its inputs as YAML text so that if-run's own YAML reads them. */
function manifest(method: string, aggregate: string[], defaults: string, inputs: string): string {
  return [
    'name: probe',
    'initialize:',
    '  plugins:',
    `    probe: { method: ${method}, path: co2e-engine/impact-framework }`,
    `aggregation: { metrics: [${aggregate.join(', ')}], type: both }`,
    'tree:',
    '  children:',
    '    probe:',
    '      pipeline: { compute: [probe] }',
    `      defaults: { ${defaults} }`,
    '      inputs:',
    inputs,
    '',
  ].join('\n');
}

describe('what a probe of the plugins found, through if-run', () => {
  it('CloudInstance: gpu/energy is aggregated (two hours of a2-highgpu-1g: 2 × 0.24915 kWh)', async () => {
    // one A100 at 50 %: (46 + 0.5 × (407 − 46)) W × 1 h × GCP PUE 1.1 / 1000 = 0.24915 kWh an hour
    writeFileSync(
      join(project, 'gpu.yml'),
      manifest(
        'CloudInstance',
        ['energy', 'gpu/energy'],
        'cloud/vendor: gcp, cloud/instance-type: a2-highgpu-1g, cloud/region: us-central1',
        [
          "        - { timestamp: '2026-03-02T00:00:00Z', duration: 3600, cpu/utilization: 50 }",
          "        - { timestamp: '2026-03-02T01:00:00Z', duration: 3600, cpu/utilization: 50 }",
        ].join('\n'),
      ),
    );
    const output = await ifRun('gpu.yml');
    expect(output.execution.error).toBeUndefined();
    expect(output.tree.children.probe.outputs.map((o: Observation) => o['gpu/energy'])).toEqual([
      0.24915, 0.24915,
    ]);
    expect(output.tree.children.probe.aggregated['gpu/energy']).toBe(0.4983);
    expect(output.tree.aggregated['gpu/energy']).toBe(0.4983);
  }, 120_000);

  it.each([
    [
      'CloudNetworking, a blank network/data-in and no data-out',
      manifest(
        'CloudNetworking',
        ['network/energy'],
        'cloud/vendor: azure, cloud/region: westeurope',
        "        - timestamp: '2026-03-02T00:00:00Z'\n          duration: 3600\n          network/data-in:",
      ),
      '"network/data-in" parameter is required (or network/data-out) at index 0.',
    ],
    [
      'Spend, an unquoted ISIC 011',
      manifest(
        'Spend',
        ['carbon'],
        'spend/currency: EUR, spend/region: DE, spend/classification-type: isic4',
        "        - { timestamp: '2023-05-01T00:00:00Z', duration: 86400, spend/money: 1000, spend/classification-code: 011 }",
      ),
      `"spend/classification-code" parameter is the number 11, and YAML drops leading zeros: quote the code ('11' or '011') at index 0.`,
    ],
  ])(
    '%s fails the run',
    async (_name, text, message) => {
      writeFileSync(join(project, 'probe.yml'), text);
      const { execution } = await ifRun('probe.yml');
      expect(execution.status).toBe('fail');
      expect(execution.error).toMatch(/^InputValidationError: /);
      expect(execution.error).toContain(message);
    },
    120_000,
  );
});

describe('the plugins imported by a team’s own code, as ES module and as CommonJS', () => {
  // IF loads plugins with require(); a team that wraps or tests them in an ES module imports the entry instead.
  // @grnsft/if-core has no exports map, so Node's ESM loader refuses its folder specifiers ('…/interfaces').
  it.each([
    ['import', "import('co2e-engine/impact-framework').then((m) => console.log(typeof m.CloudInstance))"],
    ['require', "console.log(typeof require('co2e-engine/impact-framework').CloudInstance)"],
  ])('%s gives the plugin factories', async (kind, script) => {
    const flags = kind === 'import' ? ['--input-type=module', '-e'] : ['-e'];
    const { stdout } = await exec(process.execPath, [...flags, script], project);
    expect(stdout.trim()).toBe('function');
  });
});
