/**
 * Open CEDA 2024 ("CEDA by Watershed", CC BY-SA 4.0) as an alternative to the EXIOBASE spend factors, in a module
 * of its own like USEEIO's: `spendDatasets` never reads it, so an app that does not use it does not ship it.
 * 148 countries and the rest of the world × 400 BEA detail sectors, kg CO2e per 2022 US dollar at producer price.
 * Re-exported by `co2e-engine/datasets/spend` and `co2e-engine/datasets`.
 *
 * @packageDocumentation
 */
import cedaClassificationsJson from '../../datasets/spend/ceda-classifications.json';
import cedaFactorsJson from '../../datasets/spend/ceda-factors.json';
import cedaMarginsJson from '../../datasets/spend/ceda-margins.json';
import { deepFreeze } from '../core/freeze';
import { lazyTableDatasets } from '../datasets/lazy';
import { fxTable, inflationTable } from './spend-tables';
import {
  type ClassificationsTable,
  type MarginsTable,
  type SpendFactorsGrid,
  type SpendFactorsTable,
  spendFactorsFromGrid,
} from '../datasets/tables';
import type { SpendDatasets } from '../datasets/types';

/** Open CEDA 2024 as published (rounded to 3 decimals), a grid of 149 regions × 400 sectors, with its licence. */
export const cedaFactorsGrid = /* @__PURE__ */ deepFreeze(cedaFactorsJson as unknown as SpendFactorsGrid);
/** NAICS 2017, ISIC Rev.4, NACE Rev.2 and MCC → CEDA's BEA detail sectors, with US output weights. */
export const cedaClassificationsTable = /* @__PURE__ */ deepFreeze(
  cedaClassificationsJson as ClassificationsTable,
);
/** BEA 2017 US trade and transport margins per CEDA sector (CEDA's purchaser–producer conversion is US-based). */
export const cedaMarginsTable = /* @__PURE__ */ deepFreeze<MarginsTable>(cedaMarginsJson);

let cedaRows: SpendFactorsTable | undefined;
/**
 * The CEDA grid as a spend factors table (one row per factor, 59,537 rows), made on first call.
 *
 * @example
 * ```ts
 * import { cedaFactorsTable } from 'co2e-engine/datasets/spend';
 * cedaFactorsTable().factors.find((row) => row.region === 'US' && row.product === '327310')?.kgco2e; // 8.872
 * ```
 */
export function cedaFactorsTable(): SpendFactorsTable {
  return (cedaRows ??= spendFactorsFromGrid(cedaFactorsGrid));
}

/**
 * The spend defaults with Open CEDA factors, concordances and US margins in place of EXIOBASE's (World Bank
 * inflation and the FX tables stay). "CEDA by Watershed" is every estimate's `source`.
 *
 * @example
 * ```ts
 * import { calculateSpend } from 'co2e-engine';
 * import { cedaSpendDatasets } from 'co2e-engine/datasets/spend';
 * calculateSpend({ activity: { classification_type: 'naics2017', classification_code: '327310' },
 *   spend_year: 2022, spend_region: 'US', money: 1000, money_unit: 'usd',
 *   tax_margin: 0, trade_margin: 0, transport_margin: 0 }, cedaSpendDatasets).estimate.co2e; // 8872
 * ```
 */
export const cedaSpendDatasets = /* @__PURE__ */ lazyTableDatasets({
  get spendFactors() {
    return cedaFactorsTable();
  },
  classifications: cedaClassificationsTable,
  margins: cedaMarginsTable,
  inflation: inflationTable,
  fx: fxTable,
}) as SpendDatasets;
