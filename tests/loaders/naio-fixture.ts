/**
 * Small naio_10_cp15 files in Eurostat's published layouts, written by the tests: the TSV of the dissemination API
 * (`freq,unit,stk_flow,ind_impv,prd_amo,geo\TIME_PERIOD`, one column per year with a trailing space, values
 * `12.3 `, `12.3 p`, `: `) and its SDMX-CSV (`DATAFLOW,LAST UPDATE,…,TIME_PERIOD,OBS_VALUE,OBS_FLAG`).
 */

/** One cell of the supply table: `value` as Eurostat writes it (`12.3`, `:`), `flag` optional. */
export interface NaioCell {
  geo: string;
  code: string;
  item: string;
  value: string;
  flag?: string;
  unit?: string;
}

/** Four cells of one product: TS_BP, D21X31, OTTM, TS_PP. */
export const product = (
  geo: string,
  code: string,
  [basic, tax, margins, purchaser]: [string, string, string, string],
  flag?: string,
): NaioCell[] =>
  (
    [
      ['TS_BP', basic],
      ['D21X31', tax],
      ['OTTM', margins],
      ['TS_PP', purchaser],
    ] as const
  ).map(([item, value]) => ({ geo, code, item, value, ...(flag && { flag }) }));

/**
 * The cells of the tests' supply table for 2019 (every 2018 cell is `:`):
 * - DE: CPA_A01 800/50/150/1000; CPA_C10-12 1500.5/200.3/299.2/2000; CPA_G46 500/10/−400/110 (a margin product);
 *   CPA_J58 200/10/40/250 and CPA_J62_63 300/30/20/350 (both reach EXIOBASE p72); CPA_M69_70 with D21X31 `:`;
 *   CPA_TOTAL; an industry column (A01) and imports (P7), which are not read.
 * - EL (Greece): CPA_A01 90/5.5/4.5/100, flagged `p`.
 * - FR: CPA_C10-12 beside CPA_C10, CPA_C11, CPA_C12 (the aggregate is left out).
 * - EU27_2020: an aggregate geo.
 * - DE in MIO_NAC, which is not read by default.
 */
export function naioCells(): NaioCell[] {
  return [
    ...product('DE', 'CPA_A01', ['800', '50', '150', '1000']),
    ...product('DE', 'CPA_C10-12', ['1500.5', '200.3', '299.2', '2000']),
    ...product('DE', 'CPA_G46', ['500', '10', '-400', '110']),
    ...product('DE', 'CPA_J58', ['200', '10', '40', '250']),
    ...product('DE', 'CPA_J62_63', ['300', '30', '20', '350']),
    ...product('DE', 'CPA_M69_70', ['100', ':', '5', '110']),
    ...product('DE', 'CPA_TOTAL', ['5000', '300', '100', '5400']),
    { geo: 'DE', code: 'CPA_A01', item: 'A01', value: '700' },
    { geo: 'DE', code: 'CPA_A01', item: 'P7', value: '100' },
    ...product('EL', 'CPA_A01', ['90', '5.5', '4.5', '100'], 'p'),
    ...product('FR', 'CPA_C10-12', ['1000', '150', '250', '1400']),
    ...product('FR', 'CPA_C10', ['600', '60', '140', '800']),
    ...product('FR', 'CPA_C11', ['300', '40', '60', '400']),
    ...product('FR', 'CPA_C12', ['100', '80', '20', '200']),
    ...product('EU27_2020', 'CPA_A01', ['9000', '500', '500', '10000']),
    ...product('DE', 'CPA_A01', ['1', '1', '1', '3']).map((cell) => ({ ...cell, unit: 'MIO_NAC' })),
  ];
}

const key = (cell: NaioCell) => `A,${cell.unit ?? 'MIO_EUR'},TOTAL,${cell.item},${cell.code},${cell.geo}`;

/** The TSV: series sorted by key, 2018 and 2019 columns. */
export function naioTsv(cells: readonly NaioCell[] = naioCells()): string {
  const rows = [...cells]
    .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
    .map((cell) => `${key(cell)}\t: \t${cell.value} ${cell.flag ?? ''}`);
  return ['freq,unit,stk_flow,ind_impv,prd_amo,geo\\TIME_PERIOD\t2018 \t2019 ', ...rows, ''].join('\n');
}

/** The SDMX-CSV of the data browser: one line per observation, 2018 lines empty. */
export function naioSdmxCsv(cells: readonly NaioCell[] = naioCells()): string {
  const header =
    'DATAFLOW,LAST UPDATE,freq,unit,stk_flow,ind_impv,prd_amo,geo,TIME_PERIOD,OBS_VALUE,OBS_FLAG';
  const rows = cells.flatMap((cell) => {
    const dims = `ESTAT:NAIO_10_CP15(1.0),25/04/24 23:00:00,${key(cell)}`;
    return [`${dims},2018,,`, `${dims},2019,${cell.value === ':' ? '' : cell.value},${cell.flag ?? ''}`];
  });
  return [header, ...rows, ''].join('\n');
}
