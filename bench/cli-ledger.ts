/**
 * The spend ledger of `npm run bench:cli`: row `index` of a deterministic, varied ledger (codes at several levels,
 * regions, currencies, years, margins), as CSV text and as the request the CLI builds from it.
 */

export const CODES = ['4711', '62', 'F', '5110', '3510', '2410', '7020', '10', '6419', '86', '4321'];
export const PLACES = [
  ['DE', 'eur'],
  ['GB', 'gbp'],
  ['US', 'usd'],
  ['NO', 'nok'],
  ['BR', 'brl'],
] as const;

export const LEDGER_HEADER =
  'id,supplier,classification_type,classification_code,spend_year,spend_region,money,money_unit,tax_margin,trade_margin,transport_margin';

function fields(index: number) {
  const [region, currency] = PLACES[index % PLACES.length] as readonly [string, string];
  return {
    code: CODES[index % CODES.length] as string,
    year: 2019 + (index % 5),
    region,
    currency,
    money: (index % 9973) + 0.5,
  };
}

export function ledgerLine(index: number): string {
  const { code, year, region, currency, money } = fields(index);
  return `${index},"Supplier ${index % 113}, Ltd",isic4,${code},${year},${region},${money},${currency},0.19,0.1,0.02`;
}

export function ledgerRequest(index: number) {
  const { code, year, region, currency, money } = fields(index);
  return {
    activity: { classification_type: 'isic4' as const, classification_code: code },
    spend_year: year,
    spend_region: region,
    money,
    money_unit: currency,
    tax_margin: 0.19,
    trade_margin: 0.1,
    transport_margin: 0.02,
  };
}
