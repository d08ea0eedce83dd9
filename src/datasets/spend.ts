/**
 * `co2e-engine/datasets/spend`: only the embedded spend tables (EXIOBASE factors and concordances, inflation, FX,
 * and the USEEIO alternative).
 *
 * @packageDocumentation
 */
import exiobaseClassificationsJson from '../../datasets/spend/exiobase-classifications.json';
import exiobaseFactorsJson from '../../datasets/spend/exiobase-factors.oefdb.json';
import exiobaseMarginsJson from '../../datasets/spend/exiobase-margins.json';
import fxJson from '../../datasets/spend/fx-imf.json';
import inflationJson from '../../datasets/spend/inflation-worldbank.json';
import useeioClassificationsJson from '../../datasets/spend/useeio-classifications.json';
import useeioFactorsJson from '../../datasets/spend/useeio-factors.json';
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

/** US EPA USEEIO v1.3 spend factors (US, 2022 USD, purchaser's price) and their NAICS/ISIC concordance. */
export const useeioTables = {
  spendFactors: useeioFactorsJson as SpendFactorsTable,
  classifications: useeioClassificationsJson as ClassificationsTable,
};

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

/**
 * The spend defaults with USEEIO factors in place of EXIOBASE's (inflation, FX and margins stay).
 *
 * @example
 * ```ts
 * calculateSpend({ activity: { classification_type: 'naics2017', classification_code: '445110' },
 *   spend_year: 2022, spend_region: 'US', money: 100, money_unit: 'usd' }, useeioSpendDatasets);
 * ```
 */
export const useeioSpendDatasets = /* @__PURE__ */ lazyTableDatasets({
  ...spendTables,
  ...useeioTables,
}) as SpendDatasets;
