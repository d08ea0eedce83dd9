import { describe, expect, it } from 'vitest';
import {
  DATASET_PRESET_NAMES,
  DATASET_PRESETS,
  defaultDatasets,
  hostedApi2021RegionsTable,
  isDatasetPresetName,
  withDatasetPreset,
} from '../../src/embedded/index';
import { ccfAppDatasets } from '../../src/embedded/cloud';
import {
  calculateCpu,
  calculateEmbodied,
  calculateInstance,
  calculateNetworking,
  calculateSpend,
  DatasetError,
} from '../../src/index';
import { loadDatasets } from '../../src/node/index';
import { tempFile } from '../cli/harness';

/**
 * Factor sets by name: `loadDatasets` (the library side of `--datasets`) takes preset names and files, in order. A
 * preset replaces the tables it holds whole; a file merges over what came before. Values worked out by hand from
 * the tables: CPU at 50 % on AWS is (0.74 + 0.5 × (3.5 − 0.74)) W = 2.12 W, × PUE 1.135.
 */

const CPU = { cpu_count: 1, region: 'us_east_1', duration: 1 } as const;
const NAICS = {
  activity: { classification_type: 'naics2017', classification_code: '445110' },
  spend_year: 2022,
  spend_region: 'US',
  money: 100,
  money_unit: 'usd',
} as const;
const EAST_ASIA = { region: 'east_asia', data: 1000, data_unit: 'GB' } as const;

/** A temp file of `content` as JSON (the harness removes its folder after the file's tests). */
const file = (name: string, content: unknown) => tempFile(name, JSON.stringify(content));
/** The hosted 2021 table (AR4) wrapped in a dataset file, as the user did. */
const hostedFile = () =>
  file('hosted.json', {
    format: 'co2e-engine-datasets/1',
    layers: [{ cloudRegions: hostedApi2021RegionsTable }],
  });

describe('presets', () => {
  it('has the seven names, each with its parts', () => {
    expect(DATASET_PRESET_NAMES).toEqual([
      'default',
      'hosted-api-2021',
      'ccf-grid',
      'ccf-app',
      'electricitymaps-grid',
      'useeio',
      'ceda',
    ]);
    expect(DATASET_PRESETS.ceda.parts).toEqual(['spendFactors', 'classifications', 'margins']);
    expect(DATASET_PRESETS['hosted-api-2021'].parts).toEqual(['cloudRegions', 'cloudInstances']);
    expect(DATASET_PRESETS.useeio.parts).toEqual(['spendFactors', 'classifications']);
    expect(DATASET_PRESETS['ccf-app'].parts).toEqual(['cloudCoefficients', 'cloudRegions', 'cloudInstances']);
    expect(isDatasetPresetName('ccf-grid')).toBe(true);
    expect(isDatasetPresetName('CCF-grid')).toBe(false);
    expect(isDatasetPresetName('toString')).toBe(false);
    expect(() => withDatasetPreset(defaultDatasets, 'nope' as never)).toThrow(RangeError);
  });

  it('an empty list and `default` are the embedded defaults', () => {
    // Electricity Maps 2022 for us-east-1 (0.434): 0.00212 kWh × 1.135 × 0.434 = 0.0010442908
    expect(calculateCpu('aws', CPU, loadDatasets([])).co2e).toBe(0.0010442908);
    expect(calculateCpu('aws', CPU, loadDatasets(['default'])).co2e).toBe(0.0010442908);
    expect(loadDatasets([])).toBe(defaultDatasets);
  });

  it('hosted-api-2021: the hosted 2021 factors, default year 2021, AR4', () => {
    const hosted = loadDatasets(['hosted-api-2021']);
    // 1000 GB × 0.00091125 kg/GB (0.001 kWh/GB × PUE 1.125 × CCF 2021 HK grid 0.81) = 0.91125
    const networking = calculateNetworking('azure', EAST_ASIA, hosted);
    expect(networking.co2e).toBe(0.91125);
    expect(networking.co2e_calculation_method).toBe('ar4');
    // The defaults give Electricity Maps' HK 2021 grid instead: 1000 × 0.001 × PUE 1.185 × 0.609 = 0.721665
    expect(calculateNetworking('azure', { ...EAST_ASIA, year: 2021 }, defaultDatasets).co2e).toBe(0.721665);
    // Spend parts stay the defaults: 1000 EUR of ISIC 4711 in DE, 2019, margins 0 → 1000 × 0.0272 = 27.2
    const spend = calculateSpend(
      {
        activity: { classification_type: 'isic4', classification_code: '4711' },
        spend_year: 2019,
        spend_region: 'DE',
        money: 1000,
        money_unit: 'eur',
        tax_margin: 0,
        trade_margin: 0,
        transport_margin: 0,
      },
      hosted,
    );
    expect(spend.estimate.co2e).toBe(27.2);
  });

  it('hosted-api-2021: AWS embodied figures on the hosted basis, as hostedApi2021Datasets gives them', () => {
    // The hosted API's t3a.large over 24 h: 1610.4 kg platform total · 2 of 96 vCPUs · 24 h · 0.0000289 = 0.02327028
    // (docs/api/calculate-embodied.md); the default instance table gives 0.022985017123287668.
    const t3aLarge = { instance: 't3a.large', instance_count: 1, duration: 24, duration_unit: 'h' } as const;
    expect(calculateEmbodied('aws', t3aLarge, loadDatasets(['hosted-api-2021'])).co2e).toBe(0.02327028);
    expect(
      calculateEmbodied('aws', t3aLarge, withDatasetPreset(defaultDatasets, 'hosted-api-2021')).co2e,
    ).toBe(0.02327028);
    expect(calculateEmbodied('aws', t3aLarge, defaultDatasets).co2e).not.toBe(0.02327028);
  });

  it('ccf-grid: CCF’s 2024 grid (us-east-1 0.379069) in place of Electricity Maps', () => {
    // 0.00212 × 1.135 × 0.379069 = 0.000912142...: 0.0024062 × 0.379069 = 0.0009121158278
    const result = calculateCpu('aws', CPU, loadDatasets(['ccf-grid']));
    expect(result.co2e).toBe(0.0009121158278);
    expect(result.emission_factor?.year).toBe(2024);
  });

  it('ccf-app: ccfAppDatasets (code watts, GCP per-region PUE, CCF grid, charged memory) for every cloud table', () => {
    const app = loadDatasets(['ccf-app']);
    // GCP us-central1, 1 vCPU-hour at 50 %: (0.68 + 0.5 × (4.11 − 0.68)) W = 2.395 Wh × PUE 1.11 × 0.456 = 0.0012122532
    const cpu = calculateCpu('gcp', { cpu_count: 1, region: 'us-central1', duration: 1 }, app);
    expect(cpu.co2e).toBe(0.0012122532);
    expect(cpu.co2e).toBe(
      calculateCpu('gcp', { cpu_count: 1, region: 'us-central1', duration: 1 }, ccfAppDatasets).co2e,
    );
    expect(cpu.emission_factor?.year).toBe(2024);
    // ccf-grid keeps the default coefficients (docs watts 0.71/4.26, PUE 1.1): 2.485 Wh × 1.1 × 0.456 = 0.001246476
    expect(
      calculateCpu('gcp', { cpu_count: 1, region: 'us-central1', duration: 1 }, loadDatasets(['ccf-grid']))
        .co2e,
    ).toBe(0.001246476);
    // The app's instance table: m5.large is charged for the memory above its processors' baseline only.
    const vm = calculateInstance('aws', { instance: 'm5.large', region: 'us-east-1', duration: 1 }, app);
    expect(vm.calculation_details.charged_memory).toBe(6.305833333333333);
    // Spend parts stay as they were: useeio then ccf-app keeps USEEIO.
    expect(calculateSpend(NAICS, loadDatasets(['useeio', 'ccf-app'])).estimate.co2e).toBe(18.6);
    expect(withDatasetPreset(defaultDatasets, 'ccf-app').cloudInstances).toBe(ccfAppDatasets.cloudInstances);
  });

  it('presets combine in order: useeio then hosted-api-2021; a later grid preset replaces an earlier one', () => {
    const both = loadDatasets(['useeio', 'hosted-api-2021']);
    // USEEIO 445110: 0.186 kg per 2022 USD at purchaser's price → 100 × 0.186 = 18.6
    expect(calculateSpend(NAICS, both).estimate.co2e).toBe(18.6);
    expect(calculateNetworking('azure', EAST_ASIA, both).co2e).toBe(0.91125);
    const back = loadDatasets(['hosted-api-2021', 'electricitymaps-grid']);
    expect(calculateCpu('aws', CPU, back).co2e).toBe(0.0010442908);
    expect(
      calculateSpend(NAICS, loadDatasets(['useeio', 'default'])).estimate.emission_factor?.source,
    ).not.toBe('U.S. Environmental Protection Agency');
  });

  it('a file wrapping the hosted table: refused over the defaults (AR5), with the way out; merged after the preset', () => {
    const wrapped = hostedFile();
    const refuse = () => loadDatasets([wrapped]);
    expect(refuse).toThrow(DatasetError);
    expect(refuse).toThrow('gwp "ar4" differs from "ar5"');
    expect(refuse).toThrow('name a preset with the file');
    const merged = loadDatasets(['hosted-api-2021', wrapped]);
    expect(calculateNetworking('azure', EAST_ASIA, merged).co2e).toBe(0.91125);
  });

  it('a name that is neither a preset nor a file says so and lists the presets', () => {
    const run = () => loadDatasets(['hosted-api-2012']);
    expect(run).toThrow(DatasetError);
    expect(run).toThrow(
      'hosted-api-2012: no such file, and not a preset (presets: default, hosted-api-2021, ccf-grid, ccf-app, electricitymaps-grid, useeio, ceda)',
    );
  });

  it('a preset view reads its parts lazily and is frozen', () => {
    const view = withDatasetPreset(defaultDatasets, 'hosted-api-2021');
    expect(Object.isFrozen(view)).toBe(true);
    expect(view.cloudCoefficients).toBe(defaultDatasets.cloudCoefficients);
    expect(view.cloudInstances).not.toBe(defaultDatasets.cloudInstances);
    expect(view.cloudRegions).not.toBe(defaultDatasets.cloudRegions);
    expect(view.cloudRegions.defaultYear).toBe(2021);
  });
});
