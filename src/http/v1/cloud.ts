import { CLOUD_CALCULATOR_IDS, CLOUD_CALCULATORS, type CloudCalculatorId } from '../../cloud/calculators';
import { type ElectricityResource, electricityEstimate, hasElectricityView } from '../../cloud/electricity';
import { runBatch } from '../../core/batch';
import type { ErrorBody } from '../../core/errors';
import type { CalculationOptions, Estimate, FactorMetadata } from '../../core/estimate';
import type { CloudProvider } from '../../datasets/tables';
import type { CloudDatasets } from '../../datasets/types';
import { toWireEstimate, type WireEstimate } from '../wire';

/**
 * The hosted API's v1 cloud answers (`/compute/v1/{provider}/…`): cpu, memory, storage and networking give the
 * electricity used as `activity_data` (kWh, PUE included) with the grid's kg per kWh as the factor, and a
 * `source_trail` naming where the factor came from; instance and embodied answer as the unversioned routes do
 * (the hosted v1 instance answer already had that shape). co2e is the library's on every route.
 */

/** One element of a v1 `source_trail`: where a factor came from, as the hosted v1 API listed it. */
export interface SourceTrailEntry {
  data_category: 'emission_factor';
  name: string;
  source: string;
  source_dataset: string;
  /** The factor's year as a string, as v1 sent it. */
  year: string;
  region: string;
  /** The region's English name where the region code is a country's (`DE` → `Germany`), else the code. */
  region_name: string;
}

/** A v1 per-resource estimate: the wire estimate (kWh activity for use-phase routes) and its source trail. */
export type V1Estimate = WireEstimate & { source_trail: SourceTrailEntry[] };

/**
 * The English region names, made on the first region named: the first instance loads ICU's region names (about
 * 20 ms), which every CLI command would otherwise pay at start-up, the HTTP server being in its bundle. Null in a
 * runtime without Intl.DisplayNames: the code then stands for the name.
 */
let regionNames: Intl.DisplayNames | null | undefined;

function englishRegionNames(): Intl.DisplayNames | null {
  if (regionNames === undefined) {
    try {
      regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
    } catch {
      regionNames = null;
    }
  }
  return regionNames;
}

/**
 * `DE` → `Germany`; `HK-HKG` → `Hong Kong SAR China` (its country part); a code no country has → itself.
 *
 * @example
 * ```ts
 * regionName('ZA'); // 'South Africa'
 * regionName('GLOBAL'); // 'GLOBAL'
 * ```
 */
export function regionName(code: string): string {
  const country = /^([A-Z]{2})(?:-|$)/.exec(code)?.[1];
  const names = country === undefined ? null : englishRegionNames();
  if (names === null) return code;
  try {
    return names.of(country as string) ?? code;
  } catch {
    return code;
  }
}

/**
 * The v1 source trail of a factor: one entry, named from the factor's metadata.
 *
 * @example
 * ```ts
 * sourceTrail(estimate.emission_factor!)[0].region_name; // 'Germany' for a DE grid factor
 * ```
 */
export function sourceTrail(metadata: FactorMetadata): SourceTrailEntry[] {
  return [
    {
      data_category: 'emission_factor',
      name: metadata.name,
      source: metadata.source,
      source_dataset: metadata.source_dataset,
      year: String(metadata.year),
      region: metadata.region,
      region_name: regionName(metadata.region),
    },
  ];
}

type V1Single = (
  provider: CloudProvider,
  request: unknown,
  datasets: CloudDatasets,
  options: CalculationOptions | undefined,
) => unknown;

const electricity =
  (resource: ElectricityResource): V1Single =>
  (provider, request, datasets, options) => {
    const { estimate, metadata } = electricityEstimate(resource, provider, request, datasets, options);
    const answer: V1Estimate = { ...toWireEstimate(estimate), source_trail: sourceTrail(metadata) };
    return answer;
  };

/** The library's answer, in the unversioned wire form where the calculator has one (instance has none). */
const library =
  (calculator: CloudCalculatorId): V1Single =>
  (provider, request, datasets, options) => {
    const { calculate, wireFlags } = CLOUD_CALCULATORS[calculator];
    const result = (calculate as (...args: unknown[]) => Estimate)(provider, request, datasets, options);
    return wireFlags ? toWireEstimate(result) : result;
  };

/**
 * The v1 calculator of each cloud route: one request in, the answer's body out. A calculator with an electricity
 * view (cpu, memory, storage, networking) answers it; the others (instance, embodied) answer as the unversioned
 * routes do.
 *
 * @example
 * ```ts
 * V1_CLOUD.cpu('aws', { cpu_count: 2, region: 'eu_central_1', duration: 1 }, defaultDatasets, undefined);
 * // { co2e: 0.00228589, …, activity_data: { activity_value: 0.0048124, activity_unit: 'kWh' }, source_trail: [ … ] }
 * ```
 */
export const V1_CLOUD: Readonly<Record<CloudCalculatorId, V1Single>> = /* @__PURE__ */ Object.freeze(
  Object.fromEntries(
    CLOUD_CALCULATOR_IDS.map((calculator) => [
      calculator,
      hasElectricityView(calculator) ? electricity(calculator) : library(calculator),
    ]),
  ) as Record<CloudCalculatorId, V1Single>,
);

/**
 * A v1 cloud batch: each element as {@link V1_CLOUD} answers it alone, in order; a failed element is its error
 * body (`{ error, error_code, message, path }`, path `requests[i]…`).
 *
 * @example
 * ```ts
 * v1CloudBatch('memory', 'aws', [{ region: 'us_east_1', data: 8, duration: 1 }, {}], defaultDatasets, undefined);
 * // [{ co2e: …, activity_data: { activity_value: 0.00355936, activity_unit: 'kWh' }, … }, { error: 'bad_request', … }]
 * ```
 */
export function v1CloudBatch(
  calculator: CloudCalculatorId,
  provider: CloudProvider,
  requests: readonly unknown[],
  datasets: CloudDatasets,
  options: CalculationOptions | undefined,
): Array<unknown | ErrorBody> {
  // The library's batch on no elements: what fails a whole batch (a missing dataset part) fails it here too.
  (CLOUD_CALCULATORS[calculator].batch as (...args: unknown[]) => unknown)(provider, [], datasets);
  return runBatch(requests, (request) => V1_CLOUD[calculator](provider, request, datasets, options));
}
