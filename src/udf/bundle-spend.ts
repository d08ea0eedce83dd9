/**
 * Entry of `dist/udf/co2e-udf-spend.js`: the spend calculator and the EXIOBASE spend tables only, as the global
 * `co2e`.
 *
 * @packageDocumentation
 */
import { lazyTableDatasets } from '../datasets/lazy';
import { spendSupplements } from '../embedded/spend-supplements';
import type { SpendDatasets } from '../datasets/types';
import { spendUdf } from './spend-udf';
import { udfSpendTables } from '../embedded/udf-tables';

/**
 * Spend estimates over the default spend datasets.
 *
 * @example
 * ```js
 * co2e.spend({ activity: { classification_type: 'isic4', classification_code: '4711' },
 *   spend_year: 2019, spend_region: 'DE', money: 1000, money_unit: 'eur' });
 * ```
 */
export const spend = spendUdf(lazyTableDatasets(udfSpendTables, spendSupplements) as SpendDatasets);
