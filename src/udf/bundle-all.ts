/**
 * Entry of `dist/udf/co2e-udf.js`: every calculator and every default table, as the global `co2e`.
 *
 * @packageDocumentation
 */
import { lazyTableDatasets } from '../datasets/lazy';
import { spendSupplements } from '../embedded/spend-supplements';
import type { CloudInstanceDatasets, SpendDatasets } from '../datasets/types';
import { cloudUdf } from './cloud-udf';
import { spendUdf } from './spend-udf';
import { udfCloudTables, udfSpendTables } from '../embedded/udf-tables';

// The default tables only (not the USEEIO and CCF-grid alternatives), indexed on first use.
const defaultDatasets = lazyTableDatasets(
  { ...udfCloudTables, ...udfSpendTables },
  spendSupplements,
) as CloudInstanceDatasets & SpendDatasets;

/**
 * Cloud estimates over the default datasets.
 *
 * @example
 * ```js
 * co2e.cloud('cpu', 'aws', { cpu_count: 4, region: 'us_east_1', duration: 1 });
 * ```
 */
export const cloud = cloudUdf(defaultDatasets);

/**
 * Spend estimates over the default datasets.
 *
 * @example
 * ```js
 * co2e.spend({ activity: { classification_type: 'isic4', classification_code: '4711' },
 *   spend_year: 2019, spend_region: 'DE', money: 1000, money_unit: 'eur' });
 * ```
 */
export const spend = spendUdf(defaultDatasets);
