/**
 * The embedded datasets that `loadDatasets` starts from, and the presets it applies, loaded on first use rather
 * than when `co2e-engine/node` is imported: most of this entry (file and zip loaders, downloads) never needs the
 * embedded tables, and parsing them costs tens of milliseconds.
 *
 * In the sources (tests, scripts, the CLI bundle) this module imports them as usual. The package build
 * (tsup.config.ts, `lazyEmbeddedDatasets`) replaces it with one that requires the built `co2e-engine/datasets`
 * entry on the first call: the same module instance an `import` of that entry gives (Node's `require` of an ES
 * module, Node 20.19 and later), so classes and caches are shared.
 */
import { defaultDatasets } from '../embedded/index';
import { DATASET_PRESET_NAMES, isDatasetPresetName, withDatasetPreset } from '../embedded/presets';

/** What `loadDatasets` needs of `co2e-engine/datasets`. */
export interface EmbeddedDatasets {
  readonly defaultDatasets: typeof defaultDatasets;
  readonly DATASET_PRESET_NAMES: typeof DATASET_PRESET_NAMES;
  readonly isDatasetPresetName: typeof isDatasetPresetName;
  readonly withDatasetPreset: typeof withDatasetPreset;
}

const EMBEDDED: EmbeddedDatasets = {
  defaultDatasets,
  DATASET_PRESET_NAMES,
  isDatasetPresetName,
  withDatasetPreset,
};

/** The embedded datasets and presets (loaded by the first call in the built package). */
export const embeddedDatasets = (): EmbeddedDatasets => EMBEDDED;
