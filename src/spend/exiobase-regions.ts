import { deepFreeze } from '../core/freeze';
/**
 * EXIOBASE 3 regions of the ISO 3166-1 alpha-2 countries (DESIGN.md §7b): the 44 countries EXIOBASE models on their
 * own, and every other country in one of its five rest-of-world regions, by EXIOBASE's own grouping as published in
 * `country_converter` (K. Stadler, EXIOBASE's lead author; column `EXIO3` of `country_converter/country_data.tsv`,
 * commit 4d579e756168d0b6515a40a7406d058d413d676a; Stadler 2017, J. Open Source Softw. 2(16):332,
 * doi:10.21105/joss.00332). Only the code-to-region facts are carried, written out here; 249 ISO codes plus `XK`
 * (Kosovo, user-assigned, as the World Bank and iso-codes use it).
 */

/** The 44 countries EXIOBASE 3 models on their own (ISO alpha-2; Greece `GR`, United Kingdom `GB`). */
export const EXIOBASE_COUNTRIES: readonly string[] = /* @__PURE__ */ deepFreeze(
  `AT AU BE BG BR CA CH CN CY CZ DE DK EE ES FI FR GB GR HR HU ID IE IN IT JP KR LT LU LV MT MX NL NO
PL PT RO RU SE SI SK TR TW US ZA`.split(/\s+/),
);
/** The five rest-of-world regions and their names. */
export const REST_OF_WORLD_REGIONS = /* @__PURE__ */ deepFreeze({
  WA: 'Rest of World Asia and Pacific',
  WE: 'Rest of World Europe',
  WF: 'Rest of World Africa',
  WL: 'Rest of World America',
  WM: 'Rest of World Middle East',
} as const);
export type RestOfWorldRegion = keyof typeof REST_OF_WORLD_REGIONS;

/** The countries of each rest-of-world region. */
export const REST_OF_WORLD_COUNTRIES: Readonly<Record<RestOfWorldRegion, readonly string[]>> =
  /* @__PURE__ */ deepFreeze({
    WA: `AF AM AQ AS AZ BD BN BT BV CC CK CX FJ FM GE GS GU HK HM IO KG KH KI KP KZ LA LK MH MM MN MO MP MV
MY NC NF NP NR NU NZ PF PG PH PK PN PW SB SG TH TJ TK TL TM TO TV UM UZ VN VU WF WS`.split(/\s+/),
    WE: `AD AL AX BA BY FO GG GI IM IS JE LI MC MD ME MK RS SJ SM UA VA XK`.split(/\s+/),
    WF: `AO BF BI BJ BW CD CF CG CI CM CV DJ DZ EH ER ET GA GH GM GN GQ GW KE KM LR LS LY MA MG ML MR MU MW
MZ NA NE NG RE RW SC SD SH SL SN SO SS ST SZ TD TF TG TN TZ UG YT ZM ZW`.split(/\s+/),
    WL: `AG AI AR AW BB BL BM BO BQ BS BZ CL CO CR CU CW DM DO EC FK GD GF GL GP GT GY HN HT JM KN KY LC MF
MQ MS NI PA PE PM PR PY SR SV SX TC TT UY VC VE VG VI`.split(/\s+/),
    WM: `AE BH EG IL IQ IR JO KW LB OM PS QA SA SY YE`.split(/\s+/),
  });

/** Spellings ledgers use for two EXIOBASE countries (Eurostat's `UK` and `EL`). */
export const REGION_ALIASES: Readonly<Record<string, string>> = /* @__PURE__ */ deepFreeze({
  UK: 'GB',
  EL: 'GR',
});

const regionOfCountry = new Map<string, string>([
  ...EXIOBASE_COUNTRIES.map((country) => [country, country] as const),
  ...Object.entries(REST_OF_WORLD_COUNTRIES).flatMap(([region, countries]) =>
    countries.map((country) => [country, region] as const),
  ),
]);

/**
 * The EXIOBASE region of a country (upper-case ISO alpha-2, aliases `UK`/`EL` accepted): the country itself for the
 * 44, else `WA`, `WE`, `WF`, `WL` or `WM`; undefined for a code that is no ISO country.
 *
 * @example
 * ```ts
 * exiobaseRegionOf('VN'); // 'WA'
 * exiobaseRegionOf('DE'); // 'DE'
 * ```
 */
export function exiobaseRegionOf(country: string): string | undefined {
  const code = REGION_ALIASES[country] ?? country;
  return regionOfCountry.get(code);
}

/** Every country code with an EXIOBASE region, sorted (249 ISO 3166-1 codes and `XK`). */
export const EXIOBASE_REGION_COUNTRIES: readonly string[] = [...regionOfCountry.keys()].sort();

/**
 * The currency (lowercase ISO 4217) of each of the 44 EXIOBASE countries today, for coverage listings (the newest
 * exchange-rate year of a region's own money). The rest-of-world regions have none.
 */
export const EXIOBASE_COUNTRY_CURRENCIES: Readonly<Record<string, string>> = {
  AT: 'eur',
  AU: 'aud',
  BE: 'eur',
  BG: 'bgn',
  BR: 'brl',
  CA: 'cad',
  CH: 'chf',
  CN: 'cny',
  CY: 'eur',
  CZ: 'czk',
  DE: 'eur',
  DK: 'dkk',
  EE: 'eur',
  ES: 'eur',
  FI: 'eur',
  FR: 'eur',
  GB: 'gbp',
  GR: 'eur',
  HR: 'eur',
  HU: 'huf',
  ID: 'idr',
  IE: 'eur',
  IN: 'inr',
  IT: 'eur',
  JP: 'jpy',
  KR: 'krw',
  LT: 'eur',
  LU: 'eur',
  LV: 'eur',
  MT: 'eur',
  MX: 'mxn',
  NL: 'eur',
  NO: 'nok',
  PL: 'pln',
  PT: 'eur',
  RO: 'ron',
  RU: 'rub',
  SE: 'sek',
  SI: 'eur',
  SK: 'eur',
  TR: 'try',
  TW: 'twd',
  US: 'usd',
  ZA: 'zar',
};
