import { deepFreeze } from '../core/freeze';
import { ccfAppDatasets } from './ccf-app';
import { cedaSpendDatasets } from './ceda';
import { hostedApi2021Datasets } from './hosted-api-2021';
import { ccfGridDatasets, defaultDatasets, useeioDatasets } from './defaults';
import type { CloudInstanceDatasets, Datasets, SpendDatasets } from '../datasets/types';

/**
 * The embedded factor sets by name, as `--datasets` and {@link withDatasetPreset} take them. A preset is a set of
 * dataset parts (tables); applying it replaces those parts whole (it does not merge into them), so a preset with
 * another GWP basis or default year than the tables before it is no conflict, and the parts it does not name stay
 * as they were.
 */
export const DATASET_PRESET_NAMES = /* @__PURE__ */ deepFreeze([
  'default',
  'hosted-api-2021',
  'ccf-grid',
  'ccf-app',
  'electricitymaps-grid',
  'useeio',
  'ceda',
] as const);

/** A name of {@link DATASET_PRESET_NAMES}. */
export type DatasetPresetName = (typeof DATASET_PRESET_NAMES)[number];

/** What a preset holds: its parts and a one-line description. */
export interface DatasetPreset {
  readonly name: DatasetPresetName;
  readonly description: string;
  /** The parts it replaces. */
  readonly parts: readonly (keyof Datasets)[];
  /** Where its parts come from (only `parts` are read). */
  readonly datasets: Datasets;
}

const CLOUD_PARTS = ['cloudCoefficients', 'cloudRegions', 'cloudInstances'] as const;
const SPEND_PARTS = ['spendFactors', 'classifications', 'margins', 'inflation', 'fx'] as const;

/**
 * The presets. `default` is every embedded default table; the others replace only what distinguishes them, so they
 * combine: `useeio` then `hosted-api-2021` is USEEIO spend factors with the hosted API's 2021 cloud factors, and
 * `useeio` then `ccf-app` is USEEIO spend factors with the CCF application's cloud profile (`ccfAppDatasets`).
 *
 * @example
 * ```ts
 * import { DATASET_PRESETS } from 'co2e-engine/datasets';
 * DATASET_PRESETS['hosted-api-2021'].parts; // ['cloudRegions', 'cloudInstances']
 * ```
 */
export const DATASET_PRESETS: Readonly<Record<DatasetPresetName, DatasetPreset>> = /* @__PURE__ */ deepFreeze(
  {
    default: {
      name: 'default',
      description:
        'every embedded default: CCF coefficients and instances, Electricity Maps grid 2021-2025, EXIOBASE spend',
      parts: [...CLOUD_PARTS, ...SPEND_PARTS],
      get datasets() {
        return defaultDatasets;
      },
    },
    'hosted-api-2021': {
      name: 'hosted-api-2021',
      description:
        "the hosted API's own 2021 cloud factors (68 regions, year 2021, AR4) in place of the grid factors, and " +
        'its embodied basis for AWS types (instance table)',
      // The instance table too: the hosted API's AWS embodied figures are in it (hostedApi2021Datasets).
      parts: ['cloudRegions', 'cloudInstances'],
      get datasets() {
        return hostedApi2021Datasets;
      },
    },
    'ccf-grid': {
      name: 'ccf-grid',
      description: "CCF's own grid factors (2024 vintage, year 2024, AR4) in place of the grid factors",
      parts: ['cloudRegions'],
      get datasets() {
        return ccfGridDatasets;
      },
    },
    'ccf-app': {
      name: 'ccf-app',
      description:
        "the CCF application's own constants and instance tables (code watts, GCP per-region PUE, memory above the " +
        "processors' baseline) with CCF's grid (year 2024, AR4), in place of every cloud table",
      parts: [...CLOUD_PARTS],
      get datasets() {
        return ccfAppDatasets;
      },
    },
    'electricitymaps-grid': {
      name: 'electricitymaps-grid',
      description: 'Electricity Maps yearly grid factors 2021-2025 (the default grid factors)',
      parts: ['cloudRegions'],
      get datasets() {
        return defaultDatasets;
      },
    },
    useeio: {
      name: 'useeio',
      description: 'US EPA USEEIO v1.3 spend factors and their NAICS/ISIC concordance in place of EXIOBASE',
      parts: ['spendFactors', 'classifications'],
      get datasets() {
        return useeioDatasets;
      },
    },
    ceda: {
      name: 'ceda',
      description:
        'Open CEDA 2024 spend factors (CEDA by Watershed; 148 countries + rest of world, 2022 USD, producer price), ' +
        'their NAICS/ISIC/NACE/MCC concordance and BEA US margins in place of EXIOBASE',
      parts: ['spendFactors', 'classifications', 'margins'],
      get datasets() {
        return cedaSpendDatasets;
      },
    },
  } satisfies Record<DatasetPresetName, DatasetPreset>,
);

/**
 * Whether `name` is a preset's name (exactly; names are lower case).
 *
 * @example
 * ```ts
 * isDatasetPresetName('ccf-grid'); // true
 * ```
 */
export const isDatasetPresetName = (name: string): name is DatasetPresetName =>
  Object.prototype.hasOwnProperty.call(DATASET_PRESETS, name);

/**
 * `base` with a preset's parts in place of its own (whole tables, not merged), the other parts kept. Parts are
 * read on first use, so applying a preset builds nothing.
 *
 * @example
 * ```ts
 * import { calculateNetworking } from 'co2e-engine';
 * import { defaultDatasets, withDatasetPreset } from 'co2e-engine/datasets';
 * const hosted = withDatasetPreset(defaultDatasets, 'hosted-api-2021');
 * calculateNetworking('azure', { region: 'east_asia', data: 1000 }, hosted).co2e; // 0.91125
 * ```
 * @throws RangeError for a name that is not a preset.
 */
export function withDatasetPreset<B extends Datasets>(
  base: B,
  name: DatasetPresetName,
): B & CloudInstanceDatasets & SpendDatasets {
  if (!isDatasetPresetName(name))
    throw new RangeError(`No dataset preset '${String(name)}'; presets: ${DATASET_PRESET_NAMES.join(', ')}.`);
  const preset = DATASET_PRESETS[name];
  const parts = new Set<string>(preset.parts);
  const view: Datasets = {};
  for (const part of new Set([...Object.keys(base), ...preset.parts]) as Set<keyof Datasets>) {
    const from: Datasets = parts.has(part) ? preset.datasets : base;
    Object.defineProperty(view, part, { enumerable: true, get: () => from[part] });
  }
  return Object.freeze(view) as B & CloudInstanceDatasets & SpendDatasets;
}
