import { describe, expect, it } from 'vitest';
import { defaultDatasets, defaultTables } from '../../src/embedded/index';
import {
  calculateCpu,
  calculateEmbodied,
  calculateInstance,
  calculateMemory,
  calculateSpend,
  createTableDatasets,
  DatasetError,
  mergeDatasets,
  type DatasetInfo,
  type SpendRequest,
  type ClassificationTypeSpelling,
} from '../../src/index';
import { parseTableCsv } from '../../src/loaders/index';

const info = (id: string, source: string): DatasetInfo => ({
  id,
  version: '2024.1',
  source,
  source_dataset: `${source} dataset`,
  licence: 'internal',
  attribution: source,
});
const SUPPLIER = info('acme-supplier-factors', 'ACME suppliers');
const UTILITY = info('acme-ppa-grid', 'ACME utility');

const spendMeta = {
  currency: 'eur',
  factor_year: 2019,
  price_basis: 'basic',
  gwp: 'ar5',
  product_classification: 'exiobase3p',
} as const;
const supplierFactors = parseTableCsv(
  'spendFactors',
  [
    'product,region,kgco2e,name,activity_id',
    'p01.b,DE,0.9,Wheat (our mill),arable_farming-type_wheat',
    'acme-steel,DE,1.25,ACME steel hot rolled,acme-steel-hot-rolled',
  ].join('\n'),
  { meta: { dataset: SUPPLIER, ...spendMeta } },
);
const utilityGrid = parseTableCsv(
  'cloudRegions',
  'provider,region,location,grid_zone,year,grid_factor,grid_source\naws,us-east-1,US,US-MIDA-PJM,2022,0.5,ACME PPA 2022\n',
  { meta: { dataset: UTILITY, default_year: 2022, unit: 'kg/kWh', gwp: 'ar5' } },
);
const overrides = createTableDatasets({ spendFactors: supplierFactors, cloudRegions: utilityGrid });
const merged = mergeDatasets(defaultDatasets, overrides);

const spend = (activity: SpendRequest['activity'], spend_region = 'DE'): SpendRequest => ({
  activity,
  spend_year: 2019,
  spend_region,
  money: 1000,
  money_unit: 'eur',
  tax_margin: 0,
  trade_margin: 0,
  transport_margin: 0,
});
const wheatDe = spend({ activity_id: 'arable_farming-type_wheat' });
const steelDe = spend({ activity_id: 'acme-steel-hot-rolled' });
const cpuUsEast = { cpu_count: 4, region: 'us_east_1', duration: 1, year: 2022 };

describe('mergeDatasets: one spend factor and one grid factor overridden', () => {
  it('changes the overridden spend estimate to the new factor, reported with its own source and id', () => {
    // Default: 1000 EUR × 1.1683 kg/EUR = 1168.3 kg; overridden: 1000 × 0.9 = 900 kg.
    expect(calculateSpend(wheatDe, defaultDatasets).estimate.co2e).toBe(1168.3);
    const result = calculateSpend(wheatDe, merged);
    expect(result.estimate.co2e).toBe(900);
    const factor = result.estimate.emission_factor;
    expect([factor?.factor, factor?.name, factor?.source, factor?.source_dataset]).toEqual([
      0.9,
      'Wheat (our mill)',
      'ACME suppliers',
      'ACME suppliers dataset',
    ]);
    // The same id as when the supplier table is used alone: the id belongs to the factor, not to the merge.
    const alone = calculateSpend(wheatDe, { ...defaultDatasets, spendFactors: overrides.spendFactors });
    expect(factor?.id).toBe(alone.estimate.emission_factor?.id);
    expect(factor?.id).not.toBe(calculateSpend(wheatDe, defaultDatasets).estimate.emission_factor?.id);
  });

  it('adds a supplier-specific factor that the defaults lack', () => {
    expect(() => calculateSpend(steelDe, defaultDatasets)).toThrow(
      /No emission factor has activity_id 'acme-steel-hot-rolled'/,
    );
    // 1000 EUR × 1.25 kg/EUR = 1250 kg
    expect(calculateSpend(steelDe, merged).estimate.co2e).toBe(1250);
  });

  it('changes the overridden grid year of the region, with the utility as the grid source', () => {
    // 4 vCPU × 1 h × (0.74 + 0.5 × (3.5 − 0.74)) W / 1000 × PUE 1.135 = 0.0096248 kWh;
    // default grid 0.434 kg/kWh → 0.00417716... exactly 0.0041771632 kg; overridden 0.5 → 0.0048124 kg.
    expect(calculateCpu('aws', cpuUsEast, defaultDatasets).co2e).toBe(0.0041771632);
    const cpu = calculateCpu('aws', cpuUsEast, merged);
    expect(cpu.co2e).toBe(0.0048124);
    expect(cpu.emission_factor?.source_dataset).toBe(
      'Cloud Carbon Footprint methodology; grid: ACME utility dataset',
    );
    expect(cpu.emission_factor?.id).not.toBe(
      calculateCpu('aws', cpuUsEast, defaultDatasets).emission_factor?.id,
    );

    const vm = calculateInstance(
      'aws',
      { instance: 't2.micro', region: 'us_east_1', duration: 1, year: 2022 },
      merged,
    );
    // CPU electricity 0.0024062 kWh × 0.5 kg/kWh = 0.0012031 kg
    expect(vm.cpu_estimate.co2e).toBe(0.0012031);
    expect(vm.cpu_estimate.emission_factor?.source).toBe('ACME utility');
    expect(vm.cpu_estimate.emission_factor?.factor).toBe(0.5);
  });

  it('leaves every other estimate exactly as it was', () => {
    const unchanged: Array<[string, (d: typeof merged) => unknown]> = [
      ['wheat in BR', (d) => calculateSpend(spend({ activity_id: 'arable_farming-type_wheat' }, 'BR'), d)],
      [
        'retail in DE',
        (d) => calculateSpend(spend({ classification_type: 'isic4', classification_code: '4711' }), d),
      ],
      [
        'computer services in US, spent in USD in 2023',
        (d) =>
          calculateSpend(
            {
              ...spend({ classification_type: 'isic4', classification_code: '6201' }, 'US'),
              money_unit: 'usd',
              spend_year: 2023,
            },
            d,
          ),
      ],
      [
        'retail in DE, defaults for margins',
        (d) =>
          calculateSpend(
            {
              activity: { classification_type: 'nace2', classification_code: '47.11' },
              spend_year: 2022,
              spend_region: 'DE',
              money: 50,
              money_unit: 'gbp',
            },
            d,
          ),
      ],
      ['us-east-1 in 2021', (d) => calculateCpu('aws', { ...cpuUsEast, year: 2021 }, d)],
      [
        'us-east-1 without a year (default 2022 is overridden, so 2023 asked)',
        (d) => calculateMemory('aws', { region: 'us-east-1', data: 16, duration: 3, year: 2023 }, d),
      ],
      ['us-west-2 in 2022', (d) => calculateCpu('aws', { ...cpuUsEast, region: 'us_west_2' }, d)],
      [
        'gcp europe-west1',
        (d) => calculateCpu('gcp', { cpu_count: 2, region: 'europe_west1', duration: 5 }, d),
      ],
      [
        'azure vm',
        (d) =>
          calculateInstance('azure', { instance: 'Standard_D2s_v3', region: 'westeurope', duration: 2 }, d),
      ],
      [
        'embodied',
        (d) => calculateEmbodied('aws', { instance: 'm5.large', instance_count: 3, duration: 24 }, d),
      ],
    ];
    for (const [name, run] of unchanged) expect(run(merged), name).toEqual(run(defaultDatasets));
  });

  it('changes a mean over several products that includes the overridden factor, naming both datasets', () => {
    const mean = spend({ classification_type: 'isic4', classification_code: '0111' }); // p01.b wheat, p01.c, p01.d, p01.e
    const before = calculateSpend(mean, defaultDatasets).estimate;
    const after = calculateSpend(mean, merged).estimate;
    expect(after.co2e).toBeLessThan(before.co2e); // wheat 1.1683 → 0.9, the other products as they were
    // In the order of the products: wheat (p01.b, ours) first.
    expect(after.emission_factor?.source_dataset).toBe(
      `ACME suppliers dataset; ${defaultTables.spendFactors.dataset.source_dataset}`,
    );
    expect(after.emission_factor?.source).toBe('ACME suppliers; EXIOBASE');
    expect(after.emission_factor?.id).not.toBe(before.emission_factor?.id);
  });
});

describe('mergeDatasets keys and settings', () => {
  it('returns the providers themselves where only one dataset has a part', () => {
    const result = mergeDatasets(defaultDatasets, createTableDatasets({ spendFactors: supplierFactors }));
    expect(result.fx).toBe(defaultDatasets.fx);
    expect(result.cloudRegions).toBe(defaultDatasets.cloudRegions);
    expect(result.spendFactors).not.toBe(defaultDatasets.spendFactors);
    expect(mergeDatasets(defaultDatasets)).toEqual(defaultDatasets);
  });

  it('exchange rates per (currency, year): a later year or currency adds, a repeated one wins', () => {
    const fx = createTableDatasets({
      fx: {
        dataset: info('treasury', 'Treasury'),
        rates: { gbp: { '2019': 0.8, '2031': 0.7 }, xts: { '2019': 2 } },
      },
    }).fx;
    const result = mergeDatasets(defaultDatasets, { fx }).fx;
    expect(result.rate('gbp', 2019)).toBe(0.8);
    expect(result.rate('gbp', 2018)).toBe(defaultDatasets.fx.rate('gbp', 2018));
    expect(result.rate('eur', 2019)).toBe(defaultDatasets.fx.rate('eur', 2019));
    expect(result.years('gbp')).toEqual([...defaultDatasets.fx.years('gbp'), 2031]);
    expect(result.currencies).toEqual([...defaultDatasets.fx.currencies, 'xts'].sort());
    // 100 GBP in 2019 → EUR at eur per USD / gbp per USD = 0.8933 (H.10) / 0.8 = 0.8933 × 1.25
    const converted = calculateSpend(
      {
        ...spend({ classification_type: 'isic4', classification_code: '4711' }),
        money: 100,
        money_unit: 'gbp',
      },
      mergeDatasets(defaultDatasets, { fx }),
    );
    expect(converted.calculation_details.exchange_rate).toBe(1.116625);
  });

  it('inflation per (region, year), margins per (region, product)', () => {
    const inflation = createTableDatasets({
      inflation: {
        dataset: info('infl', 'Stats office'),
        country: { DE: { '2023': 10 } },
        sector: { DE: { p52: { '2023': 1 } } },
      },
    }).inflation;
    const margins = createTableDatasets({
      margins: {
        dataset: info('margins', 'Stats office'),
        margins: [
          { region: 'DE', product: 'p52', tax_margin: 0.19, trade_margin: 0.2, transport_margin: 0.01 },
        ],
      },
    }).margins;
    const result = mergeDatasets(defaultDatasets, { inflation, margins });
    expect(result.inflation.countryRate('DE', 2023)).toBe(10);
    expect(result.inflation.countryRate('DE', 2022)).toBe(defaultDatasets.inflation.countryRate('DE', 2022));
    expect(result.inflation.sectorRate('DE', 'p52', 2023)).toBe(1);
    expect(result.margins.get('DE', 'p52')).toEqual({
      region: 'DE',
      product: 'p52',
      tax_margin: 0.19,
      trade_margin: 0.2,
      transport_margin: 0.01,
    });
    expect(result.margins.get('FR', 'p52')).toBe(defaultDatasets.margins.get('FR', 'p52'));
    // 1000 EUR × (1 − 0.19 − 0.2 − 0.01) = 600 EUR basic price × 0.0272 kg/EUR = 16.32 kg
    const retail = calculateSpend(
      {
        ...spend({ classification_type: 'isic4', classification_code: '4711' }),
        tax_margin: undefined,
        trade_margin: undefined,
        transport_margin: undefined,
      },
      result,
    );
    expect(retail.calculation_details.margin_sources).toEqual({
      tax_margin: 'default',
      trade_margin: 'default',
      transport_margin: 'default',
    });
    expect(retail.calculation_details.margin_datasets).toEqual(['margins@2024.1']);
    expect(retail.estimate.co2e).toBe(16.32);
  });

  it('classification mappings per (type, code), reported in a mean factor id by their own dataset', () => {
    const mine = (id: string) =>
      createTableDatasets({
        classifications: {
          dataset: info(id, 'ACME procurement'),
          product_classification: 'exiobase3p',
          products: { 'acme-steel': 'ACME steel' },
          mappings: { unspsc: { '30102200': ['acme-steel'], '3010': ['acme-steel', 'p52'] } },
          weights: {},
          weights_description: 'none',
        },
      }).classifications;
    const a = mergeDatasets(defaultDatasets, overrides, { classifications: mine('acme-a') });
    const b = mergeDatasets(defaultDatasets, overrides, { classifications: mine('acme-b') });
    expect(a.classifications.types).toEqual([...defaultDatasets.classifications.types, 'unspsc'].sort());
    // A type the embedded datasets lack is named with a cast, as docs/api/calculate-spend.md says.
    const UNSPSC = 'unspsc' as ClassificationTypeSpelling;
    // 1000 EUR × 1.25 kg/EUR
    expect(
      calculateSpend(spend({ classification_type: UNSPSC, classification_code: '30102200' }), a).estimate
        .co2e,
    ).toBe(1250);
    // Unweighted mean (no weight for acme-steel): (1.25 + 0.0272) / 2 = 0.6386 kg/EUR × 1000 EUR
    const meanA = calculateSpend(spend({ classification_type: UNSPSC, classification_code: '3010' }), a);
    expect(meanA.estimate.co2e).toBe(638.6);
    expect(meanA.notices.map((notice) => notice.code)).toContain('unweighted_mean');
    const meanB = calculateSpend(spend({ classification_type: UNSPSC, classification_code: '3010' }), b);
    expect(meanA.estimate.emission_factor?.id).not.toBe(meanB.estimate.emission_factor?.id);
    // A default mapping's mean keeps its id: its mapping is still the default dataset's.
    const retail = spend({ classification_type: 'isic4', classification_code: '47' });
    expect(calculateSpend(retail, a).estimate).toEqual(calculateSpend(retail, defaultDatasets).estimate);
  });

  it('instances per (provider, instance), coefficients per provider, with their own sources', () => {
    const instances = createTableDatasets({
      cloudInstances: {
        dataset: info('acme-lca', 'ACME hardware LCA'),
        default_year: 2021,
        gwp: 'ar4',
        years: [2021],
        instances: [
          {
            provider: 'aws',
            instance: 'M5.LARGE',
            vcpu: 2,
            memory_gib: 8,
            platform_vcpu: 96,
            platform_embodied_kgco2e: 3504,
          },
        ],
      },
    }).cloudInstances;
    const coefficients = createTableDatasets({
      cloudCoefficients: {
        dataset: info('acme-watts', 'ACME metering'),
        providers: { aws: { ...defaultTables.cloudCoefficients.providers.aws!, min_watts: 1, max_watts: 3 } },
      },
    }).cloudCoefficients;
    const result = mergeDatasets(defaultDatasets, {
      cloudInstances: instances,
      cloudCoefficients: coefficients,
    });
    // 3 instances × 24 h × 3504 kg × 2 / 96 vCPU / 35040 h = 0.15 kg
    const embodied = calculateEmbodied(
      'aws',
      { instance: 'm5.large', instance_count: 3, duration: 24 },
      result,
    );
    expect(embodied.co2e).toBe(0.15);
    expect(embodied.emission_factor?.source).toBe('ACME hardware LCA');
    expect(result.cloudInstances.list('aws').filter((name) => name.toLowerCase() === 'm5.large')).toEqual([
      'M5.LARGE',
    ]);
    // 1 vCPU × 1 h × (1 + 0.5 × 2) W / 1000 × 1.135 × 0.434 kg/kWh = 0.00098518 kg
    const cpu = calculateCpu('aws', { cpu_count: 1, region: 'us_east_1', duration: 1 }, result);
    expect(cpu.co2e).toBe(0.00098518);
    expect(cpu.emission_factor?.source).toBe('ACME metering');
    const gcp = { cpu_count: 1, region: 'europe_west1', duration: 1 };
    expect(calculateCpu('gcp', gcp, result)).toEqual(calculateCpu('gcp', gcp, defaultDatasets));
  });

  it('layers several overrides in order: the last wins', () => {
    const second = createTableDatasets({
      spendFactors: {
        ...supplierFactors,
        dataset: info('second', 'Second'),
        factors: [{ ...supplierFactors.factors[0]!, kgco2e: 0.8 }],
      },
    });
    const result = mergeDatasets(defaultDatasets, overrides, second);
    expect(calculateSpend(wheatDe, result).estimate.co2e).toBe(800);
    expect(calculateSpend(steelDe, result).estimate.co2e).toBe(1250);
    expect(calculateSpend(wheatDe, result).estimate.emission_factor?.source).toBe('Second');
    expect(result.spendFactors.info.id).toBe(
      'exiobase-3-oefdb+exiobase-3-oefdb-regions+acme-supplier-factors+second',
    );
  });

  it('a grid year that only the override has is added, the region keeps its other years', () => {
    const grid = createTableDatasets({
      cloudRegions: {
        ...utilityGrid,
        regions: [
          {
            ...utilityGrid.regions[0]!,
            grid_factors: { '2030': 0.1 },
            grid_sources: { '2030': 'ACME plan' },
          },
        ],
      },
    }).cloudRegions;
    const result = mergeDatasets(defaultDatasets, { cloudRegions: grid });
    const region = result.cloudRegions.get('aws', 'us-east-1');
    expect(Object.keys(region?.grid_factors ?? {})).toEqual(['2021', '2022', '2023', '2024', '2025', '2030']);
    expect(region?.grid_sources['2030']).toBe('ACME plan');
    expect(region?.grid_datasets?.['2030']?.id).toBe('acme-ppa-grid');
    expect(region?.grid_datasets?.['2022']?.id).toBe('electricitymaps-yearly');
    expect(result.cloudRegions.list('aws')).toEqual(defaultDatasets.cloudRegions.list('aws'));
  });

  it('refuses an override whose table-wide settings differ from the base', () => {
    const usd = createTableDatasets({ spendFactors: { ...supplierFactors, currency: 'usd' } });
    expect(() => mergeDatasets(defaultDatasets, usd)).toThrow(DatasetError);
    expect(() => mergeDatasets(defaultDatasets, usd)).toThrow(
      'spendFactors at dataset "acme-supplier-factors": currency "usd" differs from "eur" of the base dataset "exiobase-3-oefdb+exiobase-3-oefdb-regions"; a merged spendFactors table has one currency, so convert the override to it first',
    );
    const year = createTableDatasets({ spendFactors: { ...supplierFactors, factor_year: 2022 } });
    expect(() => mergeDatasets(defaultDatasets, year)).toThrow(/factor year 2022 differs from 2019/);
    const ar4 = createTableDatasets({ cloudRegions: { ...utilityGrid, gwp: 'ar4' } });
    expect(() => mergeDatasets(defaultDatasets, ar4)).toThrow(/gwp "ar4" differs from "ar5"/);
  });
});
