import { ERRORS } from '@grnsft/if-core/utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CloudCpu,
  CloudEmbodied,
  CloudInstance,
  CloudMemory,
  CloudNetworking,
  CloudStorage,
  Spend,
} from '../../src/impact-framework/index';
import { calculateCpu, calculateEmbodied, calculateSpend } from '../../src/index';
import { defaultDatasets } from '../../src/embedded/index';

/**
 * The Impact Framework plugins called as IF calls them (plugin(config, parameterMetadata, mapping).execute(inputs)),
 * with values worked out by hand from the embedded datasets, and every error path: IF's own error classes, the
 * parameter's IF name and the observation's index. The real runner (if-run 1.1.0 on the packed tarball) is
 * tests/package/impact-framework.test.ts.
 */

const { InputValidationError, ConfigError } = ERRORS;
const HOUR = { timestamp: '2026-03-02T00:00:00Z', duration: 3600 };
const AWS = { ...HOUR, 'cloud/vendor': 'aws', 'cloud/region': 'eu-central-1' };
/** 1000 EUR of ISIC 4711 (retail) in DE over a day of 2023. */
const SPEND_RETAIL_DE = {
  timestamp: '2023-05-01T00:00:00Z',
  duration: 86400,
  'spend/money': 1000,
  'spend/currency': 'EUR',
  'spend/region': 'DE',
  'spend/classification-type': 'isic4',
  'spend/classification-code': '4711',
};
const datasets = defaultDatasets as Parameters<typeof calculateCpu>[2];

describe('outputs, worked by hand', () => {
  it('CloudCpu: 2 vCPU × 1 h at 50 % in eu-central-1', async () => {
    // 2 × (0.74 + 0.5 × 2.76) W / 1000 × PUE 1.135 = 0.0048124 kWh; × grid 0.475 kg/kWh = 0.00228589 kg = 2.28589 g
    const [out] = await CloudCpu().execute([{ ...AWS, 'vcpus-allocated': 2, 'cpu/utilization': 50 }]);
    expect(out).toMatchObject({ 'cpu/energy': 0.0048124, 'cpu/carbon': 2.28589 });
    expect(out!['cpu/factor-id']).toMatch(/^[0-9a-f]{32}$/);
    expect(out).toMatchObject(AWS); // the inputs stay
  });

  it('CloudMemory: 8 GB × 1 h → 0.00355936 kWh, 1.690696 g', async () => {
    // 8 × 0.000392 × 1.135 = 0.00355936 kWh; × 0.475 = 0.001690696 kg
    const [out] = await CloudMemory().execute([{ ...AWS, 'memory/capacity': 8 }]);
    expect(out).toMatchObject({ 'memory/energy': 0.00355936, 'memory/carbon': 1.690696 });
  });

  it('CloudStorage: 50 GB SSD × 1 h in af-south-1 → 0.0000681 kWh, 0.0479424 g', async () => {
    // 0.05 TB × 1.2 Wh / 1000 × 1.135 = 0.0000681 kWh; × grid 0.704 (ZA, 2022) = 0.0000479424 kg
    const [out] = await CloudStorage().execute([
      { ...AWS, 'cloud/region': 'af-south-1', 'storage/capacity': 50, 'storage/type': 'SSD' },
    ]);
    expect(out).toMatchObject({ 'storage/energy': 0.0000681, 'storage/carbon': 0.0479424 });
  });

  it('CloudNetworking: 60 GB in + 40 GB out in westeurope → 0.1185 kWh, 41.1195 g', async () => {
    // 100 GB × 0.001 kWh/GB × PUE 1.185 = 0.1185 kWh; × 0.347 = 0.0411195 kg
    const [out] = await CloudNetworking().execute([
      {
        ...HOUR,
        'cloud/vendor': 'azure',
        'cloud/region': 'westeurope',
        'network/data-in': 60,
        'network/data-out': 40,
      },
    ]);
    expect(out).toMatchObject({ 'network/energy': 0.1185, 'network/carbon': 41.1195 });
    const [only] = await CloudNetworking().execute([
      { ...HOUR, 'cloud/vendor': 'azure', 'cloud/region': 'westeurope', 'network/data-out': 100 },
    ]);
    expect(only!['network/carbon']).toBe(41.1195);
    const [blankIn] = await CloudNetworking().execute([
      {
        ...HOUR,
        'cloud/vendor': 'azure',
        'cloud/region': 'westeurope',
        'network/data-in': null,
        'network/data-out': 100,
      },
    ]);
    expect(blankIn!['network/carbon']).toBe(41.1195);
  });

  it('CloudInstance: t2.micro 1 h at 50 % — the DESIGN.md check energies, carbon = operational + embodied', async () => {
    const [out] = await CloudInstance().execute([
      { ...AWS, 'cloud/instance-type': 't2.micro', 'cpu/utilization': 50 },
    ]);
    // CPU 2.12 W × 1.135 / 1000 = 0.0024062 kWh; memory 1.073741824 GB × 0.000392 × 1.135 = 0.00047772921233408
    expect(out).toMatchObject({
      'cpu/energy': 0.0024062,
      'memory/energy': 0.00047772921233408,
      energy: 0.00288392921233408,
      'grid/carbon-intensity': 475,
    });
    // operational = 0.00288392921233408 kWh × 475 g/kWh = 1.369866375858688 g
    expect(out!['carbon-operational']).toBe(1.369866375858688);
    expect(out!.carbon).toBeCloseTo(1.369866375858688 + (out!['carbon-embodied'] as number), 12);
  });

  it('CloudEmbodied: the library’s embodied estimate for one instance, in g', async () => {
    const [out] = await CloudEmbodied().execute([
      { ...HOUR, 'cloud/vendor': 'aws', 'cloud/instance-type': 'm5.large', duration: 7200 },
    ]);
    const library = calculateEmbodied(
      'aws',
      { instance: 'm5.large', instance_count: 1, duration: 2 },
      defaultDatasets as never,
    );
    expect(out!['carbon-embodied']).toBeCloseTo(library.co2e * 1000, 12);
    expect(out!['embodied/factor-id']).toBe(library.emission_factor!.id);
  });

  it('Spend: 1000 EUR retail in DE, the year from the timestamp; the notices named', async () => {
    const [out] = await Spend().execute([{ ...SPEND_RETAIL_DE }]);
    const library = calculateSpend(
      {
        activity: { classification_type: 'isic4', classification_code: '4711' },
        spend_year: 2023,
        spend_region: 'DE',
        money: 1000,
        money_unit: 'eur',
      },
      defaultDatasets as never,
    );
    expect(out!.carbon).toBeCloseTo(library.estimate.co2e * 1000, 9);
    expect(out!['spend/factor-id']).toBe(library.estimate.emission_factor!.id);
    expect(out!['spend/notices']).toBe(library.notices.map((notice) => notice.code).join(', '));
    const [given] = await Spend().execute([{ ...SPEND_RETAIL_DE, 'spend/year': 2019 }]);
    expect(given!.carbon).not.toBe(out!.carbon);
    // An unquoted code in YAML is a number: the same code.
    const [numeric] = await Spend().execute([{ ...SPEND_RETAIL_DE, 'spend/classification-code': 4711 }]);
    expect(numeric!.carbon).toBe(out!.carbon);
    const error = await Spend()
      .execute([{ ...SPEND_RETAIL_DE, 'spend/classification-code': { code: 4711 } }])
      .catch((e) => e);
    expect(error).toBeInstanceOf(InputValidationError);
    expect(error.message).toBe('"spend/classification-code" parameter is not a non-empty string at index 0.');
  });
});

describe('Spend: an unquoted classification code that YAML may have cut short', () => {
  const observation = {
    timestamp: '2023-05-01T00:00:00Z',
    'spend/money': 1000,
    'spend/currency': 'EUR',
    'spend/region': 'DE',
    'spend/classification-type': 'isic4',
  };
  it.each([
    // ISIC 011 (growing of non-perennial crops) written unquoted is the number 11, ISIC 11 (beverages).
    ['isic4', 11, "the number 11, and YAML drops leading zeros: quote the code ('11' or '011') at index 1."],
    // NACE 01.11 written 0111 unquoted is 111, which would read as 11.1 (no such code).
    ['NACE2', 111, "the number 111, and YAML drops leading zeros: quote the code ('0111') at index 1."],
  ])('%s %d is refused', async (type, code, problem) => {
    const good = { ...observation, 'spend/classification-code': '4711' };
    const error = await Spend()
      .execute([
        good,
        { ...observation, 'spend/classification-type': type, 'spend/classification-code': code },
      ])
      .catch((e) => e);
    expect(error).toBeInstanceOf(InputValidationError);
    expect(error.message).toBe(`"spend/classification-code" parameter is ${problem}`);
    expect(error.message.length).toBeLessThanOrEqual(200);
  });

  it('a number no leading zero could change is the code (4711), and quoted codes are as written', async () => {
    const [numeric, quoted, crops, beverages] = await Spend().execute([
      { ...observation, 'spend/classification-code': 4711 },
      { ...observation, 'spend/classification-code': '4711' },
      { ...observation, 'spend/classification-code': '011' },
      { ...observation, 'spend/classification-code': '11' },
    ]);
    expect(numeric!.carbon).toBe(quoted!.carbon);
    expect(crops!['spend/factor-id']).not.toBe(beverages!['spend/factor-id']);
  });
});

describe('docs/impact-framework.md', () => {
  it('the first AWS observation of the example comes out as the page shows', async () => {
    const [out] = await CloudInstance({ datasets: 'default' }).execute([
      { ...AWS, 'cloud/instance-type': 't3a.large', 'cpu/utilization': 8 },
    ]);
    // 2 × (0.74 + 0.08 × 2.76) W × 1.135 / 1000 = 2 × 0.9608 × 1.135 / 1000 = 0.002181016 kWh
    // (0.002181016 + 0.00382183369867264) × 475 g/kWh = 2.851353606869504 g
    expect(out).toMatchObject({
      'cpu/energy': 0.002181016,
      'memory/energy': 0.00382183369867264,
      energy: 0.00600284969867264,
      'carbon-operational': 2.851353606869504,
      'carbon-embodied': 0.9577090468036529,
      carbon: 3.809062653673157,
      'grid/carbon-intensity': 475,
      'grid/factor-id': '5a41e84a5b99a5cbd1f6d84dc177cf0e',
      'embodied/factor-id': '93c63ab6aeea73719e2052856ac712ce',
    });
  });
});

describe('config', () => {
  it('datasets picks the preset: hosted-api-2021 gives its 2021 grid', async () => {
    const [hosted] = await CloudCpu({ datasets: 'hosted-api-2021' }).execute([
      { ...AWS, 'vcpus-allocated': 2, 'cpu/utilization': 50 },
    ]);
    // The preset states 0.00079987 kg per CPU-hour for eu-central-1 (2021): 2 CPU-hours = 1.59974 g
    expect(hosted!['cpu/carbon']).toBe(1.59974);
    expect(hosted!['cpu/energy']).toBe(0.0048124);
  });

  it('year picks the factor year', async () => {
    const [out] = await CloudCpu({ year: 2024 }).execute([
      { ...AWS, 'vcpus-allocated': 2, 'cpu/utilization': 50 },
    ]);
    expect(out!['cpu/carbon']).toBe(
      calculateCpu('aws', { cpu_count: 2, region: 'eu-central-1', duration: 1, year: 2024 }, datasets).co2e *
        1000,
    );
  });

  it.each([
    [{ dataset: 'default' }, /Unknown config 'dataset'; known: datasets, year\./],
    [{ datasets: 'defualt' }, /Did you mean: default/],
    [{ datasets: [] }, /'datasets' must be a preset name or file/],
    [{ year: '2024' }, /'year' must be a whole number/],
  ])('%j is IF’s ConfigError', async (config, message) => {
    const error = await CloudCpu(config)
      .execute([{ ...AWS, 'vcpus-allocated': 1, 'cpu/utilization': 1 }])
      .catch((e) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(message);
    expect(error.message.length).toBeLessThanOrEqual(200);
  });

  it('an IF mapping renames parameters in and out', async () => {
    const [out] = await CloudCpu({}, {}, { 'vcpus-allocated': 'cores', 'cpu/energy': 'cpu-kwh' }).execute([
      { ...AWS, cores: 2, 'cpu/utilization': 50 },
    ]);
    expect(out!['cpu-kwh']).toBe(0.0048124);
  });
});

describe('a bad observation is IF’s InputValidationError naming the parameter and the index', () => {
  const good = { ...AWS, 'vcpus-allocated': 2, 'cpu/utilization': 50 };
  it.each([
    [{ 'cloud/region': undefined }, '"cloud/region" parameter is required at index 1.'],
    [{ 'cloud/vendor': 3 }, '"cloud/vendor" parameter is not a non-empty string at index 1.'],
    [{ duration: 0 }, '"duration" parameter is not greater than 0 at index 1.'],
    [{ duration: '1h' }, '"duration" parameter is not a finite number at index 1.'],
    [{ 'cpu/utilization': 101 }, '"cpu/utilization" parameter is above 100 (a percentage) at index 1.'],
    [{ 'cpu/utilization': -1 }, '"cpu/utilization" parameter is negative at index 1.'],
    [{ 'vcpus-allocated': undefined }, '"vcpus-allocated" parameter is required at index 1.'],
    [{ 'cloud/region': 'mars-1' }, '("cloud/region" parameter) at index 1.'],
    [{ 'cloud/vendor': 'ibm' }, '("cloud/vendor" parameter) at index 1.'],
  ])('%j', async (change, message) => {
    const error = await CloudCpu()
      .execute([good, { ...good, ...change }, good])
      .catch((e) => e);
    expect(error).toBeInstanceOf(InputValidationError);
    expect(error.message).toContain(message);
    expect(error.message.length).toBeLessThanOrEqual(200);
  });

  it.each([
    [
      CloudInstance,
      { ...AWS, 'cloud/instance-type': 'nope', 'cpu/utilization': 5 },
      '("cloud/instance-type" parameter) at index 0.',
    ],
    [
      CloudStorage,
      { ...AWS, 'storage/capacity': 1, 'storage/type': 'tape' },
      '("storage/type" parameter) at index 0.',
    ],
    [CloudMemory, { ...AWS, 'memory/capacity': -1 }, '"memory/capacity" parameter is negative at index 0.'],
    [
      CloudNetworking,
      { ...AWS },
      '"network/data-in" parameter is required (or network/data-out) at index 0.',
    ],
    // A blank `network/data-in:` in YAML is null: no data either.
    [
      CloudNetworking,
      { ...AWS, 'network/data-in': null },
      '"network/data-in" parameter is required (or network/data-out) at index 0.',
    ],
    [
      CloudNetworking,
      { ...AWS, 'network/data-in': null, 'network/data-out': null },
      '"network/data-in" parameter is required (or network/data-out) at index 0.',
    ],
    [
      CloudEmbodied,
      { ...HOUR, 'cloud/vendor': 'aws' },
      '"cloud/instance-type" parameter is required at index 0.',
    ],
    [
      Spend,
      { duration: 1, 'spend/money': 1 },
      '"spend/year" parameter is required (or a valid timestamp) at index 0.',
    ],
  ])('%#: each plugin checks its own parameters', async (plugin, observation, message) => {
    const error = await plugin()
      .execute([observation])
      .catch((e) => e);
    expect(error).toBeInstanceOf(InputValidationError);
    expect(error.message).toContain(message);
  });
});

describe('invariants', () => {
  it('CloudCpu: carbon is the library’s co2e in g, and energy × grid = carbon, for any vCPUs, hours and load', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 96 }),
        fc.integer({ min: 1, max: 48 }),
        fc.integer({ min: 0, max: 1000 }),
        async (vcpus, hours, tenths) => {
          const [out] = await CloudCpu().execute([
            { ...AWS, duration: hours * 3600, 'vcpus-allocated': vcpus, 'cpu/utilization': tenths / 10 },
          ]);
          const library = calculateCpu(
            'aws',
            {
              cpu_count: vcpus,
              region: 'eu-central-1',
              duration: hours,
              average_vcpu_utilization: tenths / 1000,
            },
            datasets,
          );
          expect(out!['cpu/carbon']).toBeCloseTo(library.co2e * 1000, 10);
          expect((out!['cpu/energy'] as number) * 475).toBeCloseTo(out!['cpu/carbon'] as number, 10);
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe('metadata outputs', () => {
  // Each plugin on observations that exercise all its parts (a GPU instance, a spend with notices): IF keeps only
  // the outputs a plugin declares in aggregation and `explain`, so every key it writes must be declared, and every
  // declared output must be written by one of them.
  const GCP_GPU = {
    ...HOUR,
    'cloud/vendor': 'gcp',
    'cloud/region': 'us-central1',
    'cloud/instance-type': 'a2-highgpu-1g',
    'cpu/utilization': 50,
  };
  it.each([
    [
      'CloudInstance',
      CloudInstance,
      [{ ...AWS, 'cloud/instance-type': 't3a.large', 'cpu/utilization': 8 }, GCP_GPU],
    ],
    ['CloudCpu', CloudCpu, [{ ...AWS, 'vcpus-allocated': 2, 'cpu/utilization': 50 }]],
    ['CloudMemory', CloudMemory, [{ ...AWS, 'memory/capacity': 8 }]],
    ['CloudStorage', CloudStorage, [{ ...AWS, 'storage/capacity': 50, 'storage/type': 'ssd' }]],
    ['CloudNetworking', CloudNetworking, [{ ...AWS, 'network/data-in': 60, 'network/data-out': 40 }]],
    ['CloudEmbodied', CloudEmbodied, [{ ...HOUR, 'cloud/vendor': 'aws', 'cloud/instance-type': 'm5.large' }]],
    ['Spend', Spend, [SPEND_RETAIL_DE]],
  ] as const)('%s declares exactly the keys it writes', async (_name, plugin, observations) => {
    const instance = plugin();
    const outputs = await instance.execute(observations.map((observation) => ({ ...observation })));
    const written = new Set(
      outputs.flatMap((output, index) => Object.keys(output).filter((key) => !(key in observations[index]!))),
    );
    expect([...written].sort()).toEqual(Object.keys(instance.metadata.outputs).sort());
  });

  it('CloudInstance: a2-highgpu-1g 1 h at 50 % → gpu/energy 0.24915 kWh', async () => {
    // one A100: (46 + 0.5 × (407 − 46)) W = 226.5 W × 1 h × GCP PUE 1.1 / 1000 = 0.24915 kWh
    const [out] = await CloudInstance().execute([{ ...GCP_GPU }]);
    expect(out!['gpu/energy']).toBe(0.24915);
  });
});
