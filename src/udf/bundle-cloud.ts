/**
 * Entry of `dist/udf/co2e-udf-cloud.js`: the cloud calculators and the cloud tables only, as the global `co2e`.
 *
 * @packageDocumentation
 */
import { lazyTableDatasets } from '../datasets/lazy';
import type { CloudDatasets } from '../datasets/types';
import { cloudUdf } from './cloud-udf';
import { udfCloudTables } from '../embedded/udf-tables';

/**
 * Cloud estimates over the default cloud datasets.
 *
 * @example
 * ```js
 * co2e.cloud('instance', 'gcp', { instance: 'e2-standard-2', region: 'europe_west1', duration: 24 });
 * ```
 */
export const cloud = cloudUdf(lazyTableDatasets(udfCloudTables) as CloudDatasets);
