import { deepFreeze } from '../core/freeze';
import ccfAppCoefficientsJson from '../../datasets/cloud/coefficients-ccf-app.json';
import ccfAppInstancesJson from '../../datasets/cloud/instances-ccf-app.json';
import { ccfGridRegionsTable } from './ccf-grid';
import { lazyTableDatasets } from '../datasets/lazy';
import type { CloudCoefficientsTable, CloudInstancesTable } from '../datasets/tables';
import type { CloudInstanceDatasets } from '../datasets/types';

// JSON imports widen literal types; the tables are validated against their schemas in tests/datasets/ccf-app.test.ts.
/** The CCF application's coefficients (code watts, GCP per-region PUE, GPU watts; trunk b7a049c7, Apache-2.0). */
export const ccfAppCoefficientsTable = /* @__PURE__ */ deepFreeze(
  ccfAppCoefficientsJson as CloudCoefficientsTable,
);
/** The CCF application's instance tables (its platforms, embodied figures, GPUs and memory-above-baseline rule). */
export const ccfAppInstancesTable = /* @__PURE__ */ deepFreeze(ccfAppInstancesJson as CloudInstancesTable);

/**
 * Cloud datasets with the Cloud Carbon Footprint application's own constants (its code at trunk b7a049c7): watts per
 * vCPU of the code (Azure 0.74/3.54, GCP 0.68/4.11), GCP's per-region PUE, CCF's grid factors (year 2024), and the
 * app's instance tables, which charge only the memory above the processors' baseline and give each type the CPU watts
 * of its processors where CCF knows them (`min_watts`/`max_watts`). For comparing with CCF or reproducing its
 * figures; `cloudDatasets` stays the default. Storage "TB" here is 10^12 bytes, where CCF divides bytes by 2^40.
 *
 * @example
 * ```ts
 * import { calculateMemory } from 'co2e-engine';
 * import { ccfAppDatasets } from 'co2e-engine/datasets/cloud';
 * // 90 GB-h · 0.000392 kWh · PUE 1.11 (us-central1) · 0.456 kg/kWh (CCF's us-central1)
 * calculateMemory('gcp', { region: 'us-central1', data: 90, duration: 1 }, ccfAppDatasets).co2e; // 0.0178573248
 * ```
 */
export const ccfAppDatasets = /* @__PURE__ */ lazyTableDatasets({
  cloudCoefficients: ccfAppCoefficientsTable,
  cloudRegions: ccfGridRegionsTable,
  cloudInstances: ccfAppInstancesTable,
}) as CloudInstanceDatasets;
