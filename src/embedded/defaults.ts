/**
 * The embedded default datasets and their variants, apart from the `co2e-engine/datasets` entry so that the presets
 * (presets.ts) can name them without an import circle.
 */
import { deepFreeze } from '../core/freeze';
import { ccfGridRegionsTable } from './ccf-grid';
import { cloudInstancesTable } from './cloud-instances';
import { cloudCoefficientsTable } from './cloud-with';
import { electricityMapsRegionsTable } from './electricitymaps-grid';
import { lazyTableDatasets } from '../datasets/lazy';
import { spendSupplements } from './spend-supplements';
import {
  exiobaseClassificationsTable,
  exiobaseFactorsTable,
  exiobaseMarginsTable,
  fxTable,
  inflationTable,
} from './spend-tables';
import { useeioClassificationsTable, useeioFactorsTable } from './useeio';
import type { DatasetTables } from '../datasets/create';
import type { ClassificationsTable, CloudRegionsTable, SpendFactorsTable } from '../datasets/tables';
import type { CloudInstanceDatasets, SpendDatasets } from '../datasets/types';

// Every table below is named by its own binding (passed to a pure function), never spread from another object or read
// as a property of one: a bundler keeps an object spread or a property read (either may run a getter) even where its
// result is unused, and with it the tables, so an app importing `defaultDatasets` alone would ship the CCF grid and
// USEEIO too (tests/bundle/treeshake.test.ts).

/** Every default table, with the grid and the spend factors (and their concordance) given. */
function defaultsWith(
  cloudRegions: CloudRegionsTable,
  spendFactors: SpendFactorsTable,
  classifications: ClassificationsTable,
) {
  return {
    cloudCoefficients: cloudCoefficientsTable,
    cloudRegions,
    cloudInstances: cloudInstancesTable,
    spendFactors,
    classifications,
    margins: exiobaseMarginsTable,
    inflation: inflationTable,
    fx: fxTable,
  } satisfies Required<DatasetTables>;
}

/** The embedded tables, for inspection or for building variants with `createTableDatasets`. */
export const defaultTables = /* @__PURE__ */ deepFreeze(
  defaultsWith(electricityMapsRegionsTable, exiobaseFactorsTable, exiobaseClassificationsTable),
);

/** Alternative embedded tables: CCF's own grid factors (one 2024 vintage) and US EPA USEEIO v1.3 spend factors. */
export const alternativeTables = /* @__PURE__ */ deepFreeze({
  ccfGridRegions: ccfGridRegionsTable,
  useeioFactors: useeioFactorsTable,
  useeioClassifications: useeioClassificationsTable,
} as const);

/**
 * The default datasets: CCF coefficients and instances, Electricity Maps yearly grid factors (2021–2025, default
 * 2022), EXIOBASE 3 spend factors (2019, EUR, via OEFDB: the released table and the 20-region working file) with their concordances, World Bank CPI inflation and IMF
 * annual exchange rates.
 *
 * @example
 * ```ts
 * import { calculateCpu } from 'co2e-engine';
 * import { defaultDatasets } from 'co2e-engine/datasets';
 * calculateCpu('aws', { cpu_count: 2, region: 'us_east_1', duration: 1 }, defaultDatasets);
 * ```
 */
export const defaultDatasets = /* @__PURE__ */ lazyTableDatasets(
  defaultTables,
  spendSupplements,
) as CloudInstanceDatasets & SpendDatasets;

/**
 * The defaults with CCF's own grid emission factors (trunk 2024-03 vintage, year 2024 only) in place of
 * Electricity Maps'.
 *
 * @example
 * ```ts
 * calculateCpu('aws', { cpu_count: 2, region: 'us_east_1', duration: 1, year: 2024 }, ccfGridDatasets);
 * ```
 */
export const ccfGridDatasets = /* @__PURE__ */ lazyTableDatasets(
  /* @__PURE__ */ defaultsWith(ccfGridRegionsTable, exiobaseFactorsTable, exiobaseClassificationsTable),
  spendSupplements,
) as CloudInstanceDatasets & SpendDatasets;

/**
 * The defaults with US EPA USEEIO v1.3 spend factors (US only, 2022 USD, purchaser's price, NAICS 2017) in place
 * of EXIOBASE's.
 *
 * @example
 * ```ts
 * calculateSpend({ activity: { classification_type: 'naics2017', classification_code: '445110' },
 *   spend_year: 2022, spend_region: 'US', money: 100, money_unit: 'usd' }, useeioDatasets);
 * ```
 */
export const useeioDatasets = /* @__PURE__ */ lazyTableDatasets(
  /* @__PURE__ */ defaultsWith(electricityMapsRegionsTable, useeioFactorsTable, useeioClassificationsTable),
) as CloudInstanceDatasets & SpendDatasets;
