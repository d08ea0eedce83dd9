import type { CloudCoefficients } from '../datasets/types';

/**
 * The PUE of `region`: the provider's figure for that region where the coefficients have one (`pue_by_region`, e.g.
 * CCF's GCP trailing-twelve-month PUE in `ccfAppDatasets`), else the provider's `pue`.
 *
 * @example
 * ```ts
 * pueAt(ccfAppGcpCoefficients, 'us-central1'); // 1.11
 * pueAt(ccfAppGcpCoefficients, 'asia-south1'); // 1.1
 * ```
 */
export const pueAt = (coefficients: CloudCoefficients, region: string): number =>
  coefficients.pue_by_region?.[region] ?? coefficients.pue;
