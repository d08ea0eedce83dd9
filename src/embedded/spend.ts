/**
 * `co2e-engine/datasets/spend`: only the embedded spend tables (EXIOBASE factors and concordances, inflation, FX,
 * and the USEEIO alternative). The USEEIO tables live in a module of their own (./useeio), so a bundle that uses
 * `spendDatasets` does not carry them.
 *
 * @packageDocumentation
 */
import { deepFreeze } from '../core/freeze';
import { lazyTableDatasets } from '../datasets/lazy';
import { spendSupplements } from './spend-supplements';
import { exiobaseSpendTables } from './spend-tables';
import type { SpendDatasets } from '../datasets/types';

/** The embedded spend tables: EXIOBASE 3 factors via OEFDB, concordances, margins, World Bank CPI, IMF FX. */
export const spendTables = /* @__PURE__ */ deepFreeze(/* @__PURE__ */ exiobaseSpendTables());

export { exiobaseRegionsFactorsTable } from './spend-supplements';

/**
 * The default spend datasets: EXIOBASE 3 factors (2019, EUR, basic prices; 20 regions, all products in DE BR US NO GB) with ISIC/NACE/NAICS
 * concordances, World Bank CPI inflation and IMF annual exchange rates.
 *
 * @example
 * ```ts
 * import { calculateSpend } from 'co2e-engine';
 * import { spendDatasets } from 'co2e-engine/datasets/spend';
 * calculateSpend({ activity: { classification_type: 'isic4', classification_code: '4711' },
 *   spend_year: 2023, spend_region: 'DE', money: 1000, money_unit: 'eur' }, spendDatasets);
 * ```
 */
export const spendDatasets = /* @__PURE__ */ lazyTableDatasets(
  /* @__PURE__ */ exiobaseSpendTables(),
  spendSupplements,
) as SpendDatasets;

export { useeioSpendDatasets, useeioTables } from './useeio';
export * from './ceda';
// The code that describes the spend tables' regions and coverage, owned by this subpath.
export {
  EXIOBASE_COUNTRIES,
  exiobaseRegionOf,
  REGION_ALIASES,
  REST_OF_WORLD_COUNTRIES,
  REST_OF_WORLD_REGIONS,
  type RestOfWorldRegion,
} from '../spend/exiobase-regions';
export { coverageRows, spendCoverage, type SpendRegionCoverage } from '../spend/coverage';
