/**
 * The US EPA USEEIO alternative to the EXIOBASE spend factors, in a module of its own: `spendDatasets` never reads
 * it, so an app that imports `spendDatasets` (or anything else of `co2e-engine/datasets/spend`) does not ship its
 * tables (about 55 KB gzip). Re-exported by `co2e-engine/datasets/spend` and `co2e-engine/datasets`.
 *
 * @packageDocumentation
 */
import { deepFreeze } from '../core/freeze';
import useeioClassificationsJson from '../../datasets/spend/useeio-classifications.json';
import useeioFactorsJson from '../../datasets/spend/useeio-factors.json';
import { lazyTableDatasets } from '../datasets/lazy';
import { exiobaseMarginsTable, fxTable, inflationTable } from './spend-tables';
import type { ClassificationsTable, SpendFactorsTable } from '../datasets/tables';
import type { SpendDatasets } from '../datasets/types';

/** US EPA USEEIO v1.3 spend factors (US, 2022 USD, purchaser's price, NAICS 2017). */
export const useeioFactorsTable = /* @__PURE__ */ deepFreeze(useeioFactorsJson as SpendFactorsTable);
/** The NAICS 2017 / ISIC concordance of the USEEIO factors. */
export const useeioClassificationsTable = /* @__PURE__ */ deepFreeze(
  useeioClassificationsJson as ClassificationsTable,
);

/** US EPA USEEIO v1.3 spend factors (US, 2022 USD, purchaser's price) and their NAICS/ISIC concordance. */
export const useeioTables = /* @__PURE__ */ deepFreeze({
  spendFactors: useeioFactorsTable,
  classifications: useeioClassificationsTable,
});

/**
 * The spend defaults with USEEIO factors in place of EXIOBASE's (inflation, FX and margins stay).
 *
 * @example
 * ```ts
 * import { calculateSpend } from 'co2e-engine';
 * import { useeioSpendDatasets } from 'co2e-engine/datasets/spend';
 * calculateSpend({ activity: { classification_type: 'naics2017', classification_code: '445110' },
 *   spend_year: 2022, spend_region: 'US', money: 100, money_unit: 'usd' }, useeioSpendDatasets);
 * ```
 */
// The tables are named one by one (no spread of `spendTables` and `useeioTables`): a bundler keeps an object
// spread, which may run getters, even in an unused `@__PURE__` call, and with it both objects and their tables.
export const useeioSpendDatasets = /* @__PURE__ */ lazyTableDatasets({
  spendFactors: useeioFactorsTable,
  classifications: useeioClassificationsTable,
  margins: exiobaseMarginsTable,
  inflation: inflationTable,
  fx: fxTable,
}) as SpendDatasets;
