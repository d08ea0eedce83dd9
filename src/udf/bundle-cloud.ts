/**
 * Entry of `dist/udf/co2e-udf-cloud.js`: the cloud calculators and the cloud tables only, as the global `co2e`.
 *
 * @packageDocumentation
 */
import { cloudDatasets } from '../datasets/cloud';
import { cloudUdf } from './cloud-udf';

/**
 * Cloud estimates over the default cloud datasets.
 *
 * @example
 * ```js
 * co2e.cloud('instance', 'gcp', { instance: 'e2-standard-2', region: 'europe_west1', duration: 24 });
 * ```
 */
export const cloud = cloudUdf(cloudDatasets);
