import { calculateSpend, createTableDatasets, mergeDatasets, type SpendRequest } from 'co2e-engine';
import { defaultDatasets } from 'co2e-engine/datasets';
import { loadTableFile } from 'co2e-engine/node';

// Factors our suppliers gave us, in EUR of 2019 at basic prices like the EXIOBASE factors they sit beside.
const supplierFactors = loadTableFile('spendFactors', 'data/supplier-factors.csv');
const datasets = mergeDatasets(defaultDatasets, createTableDatasets({ spendFactors: supplierFactors }));

const spend = (activity: SpendRequest['activity']): SpendRequest => ({
  activity,
  spend_year: 2019,
  spend_region: 'DE',
  money: 1000,
  money_unit: 'eur',
  tax_margin: 0,
  trade_margin: 0,
  transport_margin: 0,
});
const steel = calculateSpend(spend({ activity_id: 'acme-steel-hot-rolled' }), datasets); // new: only ours has it
const wheat = calculateSpend(spend({ activity_id: 'arable_farming-type_wheat' }), datasets); // ours wins over EXIOBASE
const retail = calculateSpend(spend({ classification_type: 'isic4', classification_code: '4711' }), datasets); // as before
for (const { estimate } of [steel, wheat, retail]) {
  console.log(estimate.co2e, estimate.emission_factor?.source, estimate.emission_factor?.name);
}
