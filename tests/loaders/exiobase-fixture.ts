/**
 * A small EXIOBASE 3 product-by-product release in the published layout (see src/loaders/parse-exiobase-release.ts):
 * `impacts/M.txt` with the header rows `region` and `sector`, an index column of impact names and one row per
 * impact (kg per million EUR); `x.txt` with `region sector indout` (million EUR). 3 regions × 5 products.
 */
import { zipSync } from 'fflate';

export const CML =
  'GHG emissions (GWP100) | Problem oriented approach: baseline (CML, 2001) | GWP100 (IPCC, 2007)';
export const AR5 = 'GHG emissions AR5 (GWP100) | GWP100 (IPCC, 2010)';

export const REGIONS = ['AT', 'FR', 'WA'] as const;
export type Region = (typeof REGIONS)[number];

/** Product codes and their EXIOBASE names, as in the embedded classifications (note the double space in p52). */
export const PRODUCTS = [
  ['p01.a', 'Paddy rice'],
  ['p01.b', 'Wheat'],
  ['p01.d', 'Vegetables, fruit, nuts'],
  [
    'p52',
    'Retail  trade services, except of motor vehicles and motorcycles; repair services of personal and household goods (52)',
  ],
  ['p72', 'Computer and related services (72)'],
] as const;

export const PRODUCT_NAMES: Record<string, string> = Object.fromEntries(PRODUCTS);

/** Multipliers as written in M.txt, kg CO2e per million EUR, by region, in PRODUCTS order. */
export const CML_ROW: Record<Region, string[]> = {
  AT: ['0', '1265800', '98765.4321', '27000', '132200'],
  FR: ['3473100', '2.5E+05', '730000.000001', '19999.99', '88123.456789'],
  WA: ['5120900', '1000000', '1', '0.5', '123456789012'],
};
export const AR5_ROW: Record<Region, string[]> = {
  AT: ['0', '1168300', '101000', '27200', '133300'],
  FR: ['3758200', '260000', '740000', '20100', '89000'],
  WA: ['4883000', '1100000', '2', '0.25', '123456789013'],
};
/** Total output, million EUR (AT paddy rice: not produced). */
export const OUTPUT: Record<Region, string[]> = {
  AT: ['0', '359.79773658', '1665.26180543', '40000', '12000.5'],
  FR: ['12.25', '5000', '7000', '120000', '30000'],
  WA: ['9000', '20000', '80000', '900000', '150000'],
};

export interface ReleaseTexts {
  multipliers: string;
  output: string;
}

/** Builds M.txt and x.txt; `rows` are the impact rows in file order (name → cells by region). */
export function releaseTexts(
  rows: ReadonlyArray<readonly [string, Record<Region, readonly string[]>]> = [
    [
      'Value Added',
      { AT: ['1', '2', '3', '4', '5'], FR: ['1', '2', '3', '4', '5'], WA: ['1', '2', '3', '4', '5'] },
    ],
    [CML, CML_ROW],
    [AR5, AR5_ROW],
  ],
  output: Record<Region, readonly string[]> = OUTPUT,
): ReleaseTexts {
  const columns = REGIONS.flatMap((region) => PRODUCTS.map(([, name]) => ({ region, name })));
  const header = [
    `region\t${columns.map((c) => c.region).join('\t')}`,
    `sector\t${columns.map((c) => c.name).join('\t')}`,
  ];
  const body = rows.map(
    ([name, cells]) => `${name}\t${REGIONS.flatMap((region) => cells[region]).join('\t')}`,
  );
  const x = REGIONS.flatMap((region) =>
    PRODUCTS.map(([, name], index) => `${region}\t${name}\t${output[region][index]}`),
  );
  return {
    multipliers: `${[...header, ...body].join('\n')}\n`,
    output: `region\tsector\tindout\n${x.join('\n')}\n`,
  };
}

/** The release as a zip, files under `prefix` (e.g. `IOT_2019_pxp/`); level 0 stores them uncompressed. */
export function releaseZip(texts: ReleaseTexts, prefix = 'IOT_2019_pxp/', level: 0 | 6 = 6): Uint8Array {
  const encoder = new TextEncoder();
  return zipSync(
    {
      [`${prefix}x.txt`]: encoder.encode(texts.output),
      [`${prefix}impacts/M.txt`]: encoder.encode(texts.multipliers),
      [`${prefix}impacts/unit.txt`]: encoder.encode('impact\tunit\n'),
      [`${prefix}Y.txt`]: encoder.encode('not read'),
    },
    { level },
  );
}
