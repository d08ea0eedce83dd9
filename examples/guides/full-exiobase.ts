import { calculateSpend, createTableDatasets } from 'co2e-engine';
import { defaultDatasets, defaultTables } from 'co2e-engine/datasets';
import { loadExiobaseRelease } from 'co2e-engine/node';

// IOT_2019_pxp.zip as downloaded from the EXIOBASE 3 release on Zenodo, left zipped: only impacts/M.txt and x.txt
// are read from it.
const release = loadExiobaseRelease('IOT_2019_pxp.zip', {
  year: 2019,
  version: '3.8.2',
  products: defaultTables.classifications.products,
  impact: 'GHG emissions AR5 (GWP100) | GWP100 (IPCC, 2010)', // AR5, as the embedded factors
  negative: 'omit', // leave out the few negative multipliers, listed in release.omitted
});
console.log(release.regions.join(' '), release.spendFactors.factors.length, release.omitted.length);

const exiobase = {
  ...defaultDatasets,
  ...createTableDatasets({
    spendFactors: release.spendFactors,
    // The same concordances, weighted by this release's output.
    classifications: {
      ...defaultTables.classifications,
      weights: release.weights,
      weights_description: release.weightsDescription,
    },
  }),
};
const { estimate } = calculateSpend(
  {
    activity: { classification_type: 'isic4', classification_code: '6201' }, // computer programming
    spend_year: 2019,
    spend_region: 'FR', // the embedded table has no factors for France
    money: 1000,
    money_unit: 'eur',
    tax_margin: 0,
    trade_margin: 0,
    transport_margin: 0,
  },
  exiobase,
);
console.log(estimate.co2e, estimate.emission_factor?.source_dataset);
