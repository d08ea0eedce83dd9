import { calculateSpend, createTableDatasets, type SpendRequest } from 'co2e-engine';
import { defaultDatasets } from 'co2e-engine/datasets';
import { loadTableFile } from 'co2e-engine/node';

// Our treasury's annual average rates, units per 1 USD: data/treasury-fx.csv, with its dataset description in
// data/treasury-fx.meta.json beside it.
const fx = loadTableFile('fx', 'data/treasury-fx.csv');
const treasury = { ...defaultDatasets, ...createTableDatasets({ fx }) };

const request: SpendRequest = {
  activity: { classification_type: 'isic4', classification_code: '4711' },
  spend_year: 2019,
  spend_region: 'DE',
  money: 1000,
  money_unit: 'gbp',
  tax_margin: 0,
  trade_margin: 0,
  transport_margin: 0,
};
for (const datasets of [defaultDatasets, treasury]) {
  const { estimate, calculation_details } = calculateSpend(request, datasets);
  console.log(datasets.fx.info.id, calculation_details.exchange_rate, estimate.co2e);
}
