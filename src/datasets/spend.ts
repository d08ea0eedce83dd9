/**
 * `co2e-engine/datasets/spend`: only the embedded spend tables (EXIOBASE factors and concordances, inflation, FX,
 * and the USEEIO alternative). The USEEIO tables live in a module of their own (./useeio), so a bundle that uses
 * `spendDatasets` does not carry them.
 *
 * @packageDocumentation
 */
import exiobaseClassificationsJson from '../../datasets/spend/exiobase-classifications.json';
import exiobaseFactorsJson from '../../datasets/spend/exiobase-factors.oefdb.json';
import exiobaseMarginsJson from '../../datasets/spend/exiobase-margins.json';
import fxJson from '../../datasets/spend/fx-imf.json';
import inflationJson from '../../datasets/spend/inflation-worldbank.json';
import { lazyTableDatasets } from './lazy';
import { spendSupplements } from './spend-supplements';
import type {
  ClassificationsTable,
  FxTable,
  InflationTable,
  MarginsTable,
  SpendFactorsTable,
} from './tables';
import type { SpendDatasets } from './types';

// JSON imports widen literal types; the tables are validated against their schemas in tests/datasets.
/** The embedded spend tables: EXIOBASE 3 factors via OEFDB, concordances, margins, World Bank CPI, IMF FX. */
export const spendTables = {
  spendFactors: exiobaseFactorsJson as SpendFactorsTable,
  classifications: exiobaseClassificationsJson as ClassificationsTable,
  margins: exiobaseMarginsJson as MarginsTable,
  inflation: inflationJson as InflationTable,
  fx: fxJson as FxTable,
};

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
  spendTables,
  spendSupplements,
) as SpendDatasets;

export { useeioSpendDatasets, useeioTables } from './useeio';
