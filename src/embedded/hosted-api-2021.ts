import hostedApi2021InstancesJson from '../../datasets/cloud/instances-hosted-api-2021.json';
import { cloudTables } from './cloud';
import { hostedApi2021RegionsTable } from './hosted-api-2021-grid';
import { lazyTableDatasets } from '../datasets/lazy';
import type { CloudInstancesTable } from '../datasets/tables';
import type { CloudInstanceDatasets } from '../datasets/types';

export { hostedApi2021RegionsTable };

/**
 * The cloud defaults with the hosted API's 2021 factor set in place of the grid factors: the same factor, id,
 * name and location code (`DE-FRA`) as the hosted API gave for a region in 2021 (CPU at the default 50 %
 * utilisation; other utilisations and `calculateInstance` use the set's 2021 grid factor with CCF's method).
 * Only the set's 68 regions and the year 2021 (the default) exist in it. Embodied figures of AWS types are on the
 * hosted API's basis (the Teads platform totals to 0.1 kg, amortised at 0.0000289 per hour: t2.micro 0.0008894 kg
 * per hour, as the hosted API gave); other types have the default figures.
 *
 * @example
 * ```ts
 * import { calculateCpu } from 'co2e-engine';
 * import { hostedApi2021Datasets } from 'co2e-engine/datasets';
 * calculateCpu('aws', { cpu_count: 1, region: 'eu_central_1', duration: 1 }, hostedApi2021Datasets).co2e; // 0.00079987
 * ```
 */
export const hostedApi2021Datasets = /* @__PURE__ */ lazyTableDatasets({
  ...cloudTables,
  cloudRegions: hostedApi2021RegionsTable,
  // JSON imports widen literal types; the table is validated against its schema in tests/cloud.
  cloudInstances: hostedApi2021InstancesJson as CloudInstancesTable,
}) as CloudInstanceDatasets;
