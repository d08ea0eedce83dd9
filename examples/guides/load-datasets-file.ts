import { calculateSpend } from 'co2e-engine';
import { defaultDatasets } from 'co2e-engine/datasets';
import { loadDatasetsFile } from 'co2e-engine/node';

// my-data.json as written by `co2e-engine datasets build` (above), merged over the embedded datasets.
const datasets = loadDatasetsFile('my-data.json', defaultDatasets);
const { estimate, calculation_details } = calculateSpend(
  {
    activity: { classification_type: 'isic4', classification_code: '6201' }, // computer programming
    spend_year: 2019,
    spend_region: 'FR',
    money: 1000,
    money_unit: 'eur', // no margins supplied: the defaults of data/margins.csv are used
  },
  datasets,
);
console.log(
  estimate.co2e,
  calculation_details.margin_sources.trade_margin,
  calculation_details.margin_datasets,
);
