import { readFileSync } from 'node:fs';
import { azureHostedSpellings } from './azure-words';
import { withGpus, withGpuWatts } from './cloud-gpus';
import { ADDED_REGIONS_2026, CORRECTED_ZONES_2026 } from './cloud-regions-2026';
import * as z from 'zod';
import { decimal, div, mul, toNumber } from '../../src/core/decimal';
import { instanceKey, regionKey } from '../../src/datasets/create';
import { regionHostedSpelling } from '../../src/datasets/keys';
import { CCF_INSTANCE_FILES, parseCcfInstances } from '../../src/loaders/parse-ccf-instances';
import {
  addAws2026Instances,
  addCcfAppInstances,
  excludeGcp2026,
  type ExcludedInstance,
  gcp2026Specs,
  InstanceTable,
  SOURCE_APP,
  SOURCE_AWS_2026,
  SOURCE_GCP_2026,
} from './cloud-instance-additions';
import {
  CLOUD_PROVIDERS,
  type CloudCoefficientsTable,
  CloudCoefficientsTableSchema,
  type CloudInstancesTable,
  CloudInstancesTableSchema,
  type CloudProvider,
  type CloudRegionsTable,
  CloudRegionsTableSchema,
} from '../../src/datasets/tables';
import {
  assert,
  byProviderThen,
  compareStrings,
  isMain,
  readCsv,
  readJson,
  repoPath,
  sharedPath,
  writeJson,
} from './lib';

/**
 * Builds the embedded cloud datasets in `datasets/cloud/` from `../shared/data` (see its MANIFEST.md §2) and the
 * Electricity Maps yearly averages bundled in `@tgwf/co2`. Deterministic: same inputs, same bytes.
 * Provenance, licences and caveats of every output are described in `datasets/SOURCES.md`.
 */

const CCF_TRUNK = 'b7a049c7'; // cloud-carbon-footprint trunk 2024-03-25 (= core 0.17.3, aws 0.15.0, azure 1.8.0)
const CCF_COEFFICIENTS_COMMIT = 'b0032d9'; // cloud-carbon-footprint/ccf-coefficients 2026-04-24
const CCF_ATTRIBUTION = 'Cloud Carbon Footprint, © 2021 Thoughtworks, Inc., Apache License 2.0';
/** The version SOURCES.md describes; bump both together. */
const TGWF_CO2_VERSION = '0.19.0';
const EM_LICENCE_STATEMENT =
  'The annual grid intensity data is republished from Electricity Maps under the Open Database License (ODbL)';

// ---------------------------------------------------------------------------------------------------------------
// Source shapes (only the fields read here)

const numberRecord = z.record(z.string(), z.number().finite().nonnegative());

const ProviderConstantsSchema = z.object({
  SSDCOEFFICIENT: z.number(),
  HDDCOEFFICIENT: z.number(),
  MEMORY_COEFFICIENT: z.number(),
  NETWORKING_COEFFICIENT: z.number(),
  PUE_AVG: z.number(),
  SERVER_EXPECTED_LIFESPAN: z.number(),
  MIN_WATTS_AVG: z.number().optional(),
  MAX_WATTS_AVG: z.number().optional(),
  MIN_WATTS_MEDIAN: z.number().optional(),
  MAX_WATTS_MEDIAN: z.number().optional(),
});
type ProviderConstants = z.infer<typeof ProviderConstantsSchema>;

const ProviderConstantsFileSchema = z.object({
  ccf_trunk_2024_03: z.object({
    aws: ProviderConstantsSchema,
    azure: ProviderConstantsSchema,
    gcp: ProviderConstantsSchema,
  }),
});

const zoneMap = z.record(z.string(), z.string().nullable());
const RegionsFileSchema = z.object({
  aws: z.object({ regions: z.record(z.string(), z.string()), electricity_maps_zones: zoneMap }),
  azure: z.object({
    regions: z.record(z.string(), z.object({ name: z.string(), options: z.array(z.string()) })),
    electricity_maps_zones: zoneMap,
  }),
  gcp: z.object({
    regions: z.record(z.string(), z.string()),
    dual_regions: z.record(z.string(), z.string()),
    multi_regions: z.record(z.string(), z.string()),
    electricity_maps_zones: zoneMap,
  }),
});
type RegionsFile = z.infer<typeof RegionsFileSchema>;

const GridFileSchema = z.object({
  vintages: z.object({
    ccf_trunk_2024_03: z.object({
      us_nerc: numberRecord,
      aws: numberRecord,
      azure: numberRecord,
      gcp_grid: numberRecord,
    }),
  }),
});

/** One `yearly_YYYY` module of `@tgwf/co2/data/electricity-maps`. */
const ElectricityMapsYearSchema = z.object({
  data: z.record(
    z.string(),
    z.object({
      carbonIntensity: z.object({ value: z.number().finite().nonnegative(), unit: z.literal('gCO2eq/kWh') }),
    }),
  ),
});

// ---------------------------------------------------------------------------------------------------------------
// 1. Coefficients

/** DESIGN.md §3: the constants of the embedded default. */
const DESIGN_COEFFICIENTS: Record<CloudProvider, { min_watts: number; max_watts: number; pue: number }> = {
  aws: { min_watts: 0.74, max_watts: 3.5, pue: 1.135 },
  azure: { min_watts: 0.78, max_watts: 3.76, pue: 1.185 },
  gcp: { min_watts: 0.71, max_watts: 4.26, pue: 1.1 },
};
const DESIGN_SHARED = {
  memory_kwh_per_gb_hour: 0.000392,
  ssd_wh_per_tb_hour: 1.2,
  hdd_wh_per_tb_hour: 0.65,
  networking_kwh_per_gb: 0.001,
  server_lifetime_hours: 35040,
};

/**
 * Watts per vCPU, min/max. Source: CCF methodology, Appendix I: energy coefficients
 * (cloudcarbonfootprint.org/docs/methodology). The CCF code (provider_constants.json) agrees for AWS but uses
 * 0.74/3.54 for Azure (averages) and 0.68/4.11 for GCP (medians); `CODE_WATTS` pins those so this note stays true.
 */
const DOCS_WATTS: Record<CloudProvider, readonly [number, number]> = {
  aws: [0.74, 3.5],
  azure: [0.78, 3.76],
  gcp: [0.71, 4.26],
};
const CODE_WATTS: Record<CloudProvider, readonly [number, number]> = {
  aws: [0.74, 3.5],
  azure: [0.74, 3.54],
  gcp: [0.68, 4.11],
};

function codeWatts(constants: ProviderConstants): [number | undefined, number | undefined] {
  return [
    constants.MIN_WATTS_AVG ?? constants.MIN_WATTS_MEDIAN,
    constants.MAX_WATTS_AVG ?? constants.MAX_WATTS_MEDIAN,
  ];
}

function sameValue(label: string, fromFile: number | undefined, expected: number): number {
  assert(fromFile === expected, `${label}: source has ${String(fromFile)}, DESIGN.md §3 says ${expected}`);
  return expected;
}

function buildCoefficients(): CloudCoefficientsTable {
  const constants = ProviderConstantsFileSchema.parse(
    readJson(sharedPath('ccf/provider_constants.json')),
  ).ccf_trunk_2024_03;
  const providers: CloudCoefficientsTable['providers'] = {};
  for (const provider of CLOUD_PROVIDERS) {
    const c = constants[provider];
    const design = DESIGN_COEFFICIENTS[provider];
    const [codeMin, codeMax] = codeWatts(c);
    assert(
      codeMin === CODE_WATTS[provider][0] && codeMax === CODE_WATTS[provider][1],
      `${provider}: CCF code watts are now ${codeMin}/${codeMax}; update CODE_WATTS and SOURCES.md`,
    );
    const [docsMin, docsMax] = DOCS_WATTS[provider];
    providers[provider] = {
      min_watts: sameValue(`${provider} min watts`, docsMin, design.min_watts),
      max_watts: sameValue(`${provider} max watts`, docsMax, design.max_watts),
      pue: sameValue(`${provider} PUE_AVG`, c.PUE_AVG, design.pue),
      memory_kwh_per_gb_hour: sameValue(
        `${provider} MEMORY_COEFFICIENT`,
        c.MEMORY_COEFFICIENT,
        DESIGN_SHARED.memory_kwh_per_gb_hour,
      ),
      ssd_wh_per_tb_hour: sameValue(
        `${provider} SSDCOEFFICIENT`,
        c.SSDCOEFFICIENT,
        DESIGN_SHARED.ssd_wh_per_tb_hour,
      ),
      hdd_wh_per_tb_hour: sameValue(
        `${provider} HDDCOEFFICIENT`,
        c.HDDCOEFFICIENT,
        DESIGN_SHARED.hdd_wh_per_tb_hour,
      ),
      networking_kwh_per_gb: sameValue(
        `${provider} NETWORKING_COEFFICIENT`,
        c.NETWORKING_COEFFICIENT,
        DESIGN_SHARED.networking_kwh_per_gb,
      ),
      server_lifetime_hours: sameValue(
        `${provider} SERVER_EXPECTED_LIFESPAN`,
        c.SERVER_EXPECTED_LIFESPAN,
        DESIGN_SHARED.server_lifetime_hours,
      ),
    };
  }
  return CloudCoefficientsTableSchema.parse({
    dataset: {
      id: 'ccf-coefficients',
      version: '2024.03-docs',
      source: 'CCF',
      source_dataset: 'Cloud Carbon Footprint methodology',
      licence: 'Apache-2.0',
      attribution:
        `${CCF_ATTRIBUTION}. Watts per vCPU from the CCF methodology documentation (Appendix I); PUE, memory, ` +
        `storage, networking and lifetime coefficients from the CCF code (trunk ${CCF_TRUNK}, 2024-03).`,
    },
    providers,
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Regions and their Electricity Maps zones

const PSEUDO_REGIONS = new Set(['Unknown', 'All Regions', 'Unassigned']);

/**
 * Zones for regions that CCF maps to null or not at all (keys as spelled in regions.json). Chosen by hand from the
 * region's location; geography-level Azure names (`japan`, `norway`, ...) get the country-level zone.
 */
const HAND_ZONES: Record<CloudProvider, Record<string, string>> = {
  aws: {
    'ap-east-1': 'HK', // Hong Kong
    'cn-north-1': 'CN', // Beijing; Electricity Maps has China only as one zone
    'cn-northwest-1': 'CN', // Ningxia
    'me-south-1': 'BH', // Bahrain
    'me-central-1': 'AE', // UAE
  },
  azure: {
    apeast: 'HK', // legacy meter name of East Asia (Hong Kong)
    asia: 'SG', // Azure "Asia Pacific" geography (East Asia HK + Southeast Asia SG): no single zone, SG chosen
    asiapacific: 'SG', // as above
    australia: 'AU',
    brazil: 'BR',
    canada: 'CA',
    eastasia: 'HK', // Hong Kong
    eastasiastage: 'HK',
    france: 'FR',
    india: 'IN',
    japan: 'JP',
    jioindiacentral: 'IN-WE', // Nagpur, Maharashtra: Western regional grid
    jioindiawest: 'IN-WE', // Jamnagar, Gujarat: Western regional grid
    korea: 'KR',
    norway: 'NO',
    qatarcentral: 'QA', // Doha
    southafrica: 'ZA',
    southeastasia: 'SG', // Singapore
    southeastasiastage: 'SG',
    switzerland: 'CH',
    uae: 'AE',
    uaecentral: 'AE', // Abu Dhabi
    uaenorth: 'AE', // Dubai
  },
  gcp: {
    'asia-east2': 'HK', // Hong Kong
  },
};

/**
 * Zones where CCF's choice contradicts the data centre's documented location and the balancing authority that
 * serves it (keys as spelled in regions.json). Each is recorded with its evidence in datasets/SOURCES.md ("Corrected
 * grid zones"); CCF's own US figures (by NERC region) stay in `ccfGridDatasets`.
 */
export const CORRECTED_ZONES: Record<
  CloudProvider,
  Record<string, { zone: string; location: string; why: string }>
> = {
  aws: {
    ...CORRECTED_ZONES_2026.aws,
    'us-west-2': {
      zone: 'US-NW-BPAT',
      location: 'Boardman / Umatilla, Morrow and Umatilla counties, Oregon',
      why: 'served by Umatilla Electric Cooperative, in the Bonneville Power Administration balancing area; PacifiCorp West does not serve it',
    },
  },
  azure: {
    ...CORRECTED_ZONES_2026.azure,
    westus2: {
      zone: 'US-NW-GCPD',
      location: 'Quincy, Grant County, Washington',
      why: 'Grant County PUD is its own balancing authority (GCPD); PacifiCorp East serves Utah and Wyoming, not Washington',
    },
    westus2stage: {
      zone: 'US-NW-GCPD',
      location: 'as westus2',
      why: 'staging name of westus2',
    },
    westus3: {
      zone: 'US-SW-AZPS',
      location: 'Goodyear and El Mirage, Maricopa County (Phoenix area), Arizona',
      why: 'both sites are in Arizona Public Service territory (AZPS balancing authority)',
    },
    NorthCentralUs: {
      zone: 'US-MIDA-PJM',
      location: 'Chicago area, Illinois',
      why: 'northern Illinois is served by ComEd, a PJM member since 2004; MISO covers central and southern Illinois',
    },
    northcentralusstage: {
      zone: 'US-MIDA-PJM',
      location: 'as NorthCentralUs',
      why: 'staging name of NorthCentralUs',
    },
    EastUS3: {
      zone: 'US-SE-SOCO',
      location: 'Atlanta metro, Georgia',
      why: 'Georgia Power, in the Southern Company balancing authority; PJM does not reach Georgia',
    },
    WestCentralUS: {
      zone: 'US-NW-WACM',
      location: 'Cheyenne, Wyoming',
      why: 'Cheyenne Light, Fuel and Power is in the WACM (WAPA Rocky Mountain) balancing authority, not PacifiCorp East',
    },
  },
  gcp: {
    ...CORRECTED_ZONES_2026.gcp,
    'us-west1': {
      zone: 'US-NW-BPAT',
      location: 'The Dalles, Wasco County, Oregon',
      why: 'Northern Wasco County PUD, in the Bonneville Power Administration balancing area; PacifiCorp West does not serve it',
    },
    'us-east1': {
      zone: 'US-CAR-SC',
      location: 'Moncks Corner, Berkeley County, South Carolina',
      why: 'Berkeley Electric Cooperative, supplied by Santee Cooper (balancing authority SC), not Dominion Energy South Carolina (SCEG)',
    },
  },
};

/**
 * Regions CCF's regions.json does not list (issue 11 item 3), chosen by the rule of {@link CORRECTED_ZONES}: the
 * provider's documented location, then the grid that serves it. Each has its evidence row in datasets/SOURCES.md
 * ("Added regions") and a test in tests/cloud/zones.test.ts. Where Electricity Maps has no figure for the zone in
 * some year, the region is listed as unsupported instead (no country fallback for a region CCF never had).
 */
export const ADDED_REGIONS: Record<
  CloudProvider,
  Record<string, { zone: string; location: string; why: string }>
> = {
  aws: {
    ...ADDED_REGIONS_2026.aws,
    'ap-east-2': { zone: 'TW', location: 'Taipei, Taiwan', why: 'Taiwan is one Electricity Maps zone' },
    'ap-south-2': {
      zone: 'IN-SO',
      location: 'Hyderabad, Telangana, India',
      why: 'Telangana is in the Southern regional grid',
    },
    'ap-southeast-4': {
      zone: 'AU-VIC',
      location: 'Melbourne, Victoria, Australia',
      why: 'Victoria region of the National Electricity Market',
    },
    'ap-southeast-5': {
      zone: 'MY-WM',
      location: 'Greater Kuala Lumpur (Selangor), Malaysia',
      why: 'Peninsular (West) Malaysia grid, not the Sabah/Sarawak grids',
    },
    'ap-southeast-6': { zone: 'NZ', location: 'Auckland, New Zealand', why: 'New Zealand is one zone' },
    'ap-southeast-7': { zone: 'TH', location: 'Bangkok area, Thailand', why: 'Thailand is one zone' },
    'ca-west-1': {
      zone: 'CA-AB',
      location: 'Calgary, Alberta, Canada',
      why: 'Alberta Electric System Operator grid',
    },
    'eu-central-2': { zone: 'CH', location: 'Zurich, Switzerland', why: 'Switzerland is one zone' },
    'eu-south-2': {
      zone: 'ES',
      location: 'Aragón, Spain',
      why: 'peninsular Spain (zone ES; the islands are separate zones)',
    },
    'il-central-1': { zone: 'IL', location: 'Tel Aviv area, Israel', why: 'Israel is one zone' },
    'mx-central-1': { zone: 'MX', location: 'Querétaro, Mexico', why: 'Mexico is one zone' },
  },
  azure: {
    ...ADDED_REGIONS_2026.azure,
    chilecentral: {
      zone: 'CL-SEN',
      location: 'Santiago, Chile',
      why: 'Sistema Eléctrico Nacional, as CCF maps GCP southamerica-west1 (Santiago)',
    },
    indonesiacentral: {
      zone: 'ID',
      location: 'Jakarta, Indonesia',
      why: 'Indonesia is one zone, as CCF maps AWS ap-southeast-3 and GCP asia-southeast2 (Jakarta)',
    },
    israelcentral: { zone: 'IL', location: 'Israel (Tel Aviv area)', why: 'Israel is one zone' },
    italynorth: {
      zone: 'IT-NO',
      location: 'Milan, Italy',
      why: 'Northern Italy bidding zone, as CCF maps AWS eu-south-1 and GCP europe-west8 (Milan)',
    },
    malaysiawest: {
      zone: 'MY-WM',
      location: 'Greater Kuala Lumpur, Malaysia',
      why: 'Peninsular (West) Malaysia grid',
    },
    mexicocentral: { zone: 'MX', location: 'Querétaro, Mexico', why: 'Mexico is one zone' },
    newzealandnorth: { zone: 'NZ', location: 'Auckland, New Zealand', why: 'New Zealand is one zone' },
    polandcentral: {
      zone: 'PL',
      location: 'Warsaw, Poland',
      why: 'Poland is one zone, as CCF maps GCP europe-central2 (Warsaw)',
    },
    spaincentral: {
      zone: 'ES',
      location: 'Madrid, Spain',
      why: 'peninsular Spain, as CCF maps GCP europe-southwest1 (Madrid)',
    },
  },
  gcp: {
    ...ADDED_REGIONS_2026.gcp,
    'africa-south1': {
      zone: 'ZA',
      location: 'Johannesburg, South Africa',
      why: 'South Africa is one zone, as CCF maps AWS af-south-1',
    },
    'europe-north2': {
      zone: 'SE-SE3',
      location: 'Stockholm, Sweden',
      why: 'Stockholm is in bidding zone SE3, as CCF maps AWS eu-north-1 (Stockholm)',
    },
    'me-central1': {
      zone: 'QA',
      location: 'Doha, Qatar',
      why: 'Qatar is one zone, as for Azure qatarcentral',
    },
    'me-central2': { zone: 'SA', location: 'Dammam, Saudi Arabia', why: 'Saudi Arabia is one zone' },
    'me-west1': { zone: 'IL', location: 'Tel Aviv, Israel', why: 'Israel is one zone' },
    'northamerica-south1': { zone: 'MX', location: 'Querétaro, Mexico', why: 'Mexico is one zone' },
  },
};

/**
 * Regions users run that no table supports, with the reason: no documented site to choose a zone from. Listed in
 * every regions table's `unsupported` (with the regions a table has no figure for).
 */
export const UNSUPPORTED_REGIONS: Record<CloudProvider, Record<string, string>> = {
  aws: {},
  azure: {
    usgovarizona:
      'Azure Government; the site is documented only as Arizona, which spans three balancing authorities (AZPS, SRP, TEPC)',
    usgovtexas:
      'Azure Government; the site is documented only as Texas, which spans ERCOT and non-ERCOT balancing authorities',
    usgovvirginia:
      'Azure Government; the site is documented only as Virginia, which spans PJM and non-PJM balancing authorities',
    usdodcentral: 'Azure Government (DoD); the location is not published',
    usdodeast: 'Azure Government (DoD); the location is not published',
  },
  gcp: {},
};

interface RegionRef {
  provider: CloudProvider;
  /** Id written to the tables: the provider's spelling, Azure names lowercased. */
  region: string;
  /** Key as spelled in regions.json. */
  sourceKey: string;
  /** The hosted API's spelling (`west_europe`) where `regionHostedSpelling` cannot derive it from `region`. */
  hostedSpelling: string | undefined;
  zone: string;
  zoneBy: 'ccf' | 'hand' | 'corrected' | 'added';
  /** ISO 3166-1 alpha-2 country of the zone. */
  location: string;
}

function countryOf(zone: string): string {
  const country = zone.split('-')[0] ?? '';
  assert(/^[A-Z]{2}$/.test(country), `zone ${zone} does not start with an ISO alpha-2 country`);
  return country;
}

function regionSourceKeys(regions: RegionsFile, provider: CloudProvider): string[] {
  const keys =
    provider === 'azure'
      ? Object.values(regions.azure.regions).map((r) => r.name)
      : Object.values(regions[provider].regions);
  return keys.filter((key) => !PSEUDO_REGIONS.has(key));
}

function listRegions(regions: RegionsFile): RegionRef[] {
  const refs: RegionRef[] = [];
  const azureSpellings = azureHostedSpellings(
    regions.azure,
    regionSourceKeys(regions, 'azure').map((key) => key.toLowerCase()),
  );
  for (const provider of CLOUD_PROVIDERS) {
    const ccfZones = regions[provider].electricity_maps_zones;
    const hand = HAND_ZONES[provider];
    const keys = regionSourceKeys(regions, provider);
    for (const handKey of [...Object.keys(hand), ...Object.keys(CORRECTED_ZONES[provider])]) {
      assert(
        keys.includes(handKey),
        `${provider}/${handKey} (HAND_ZONES or CORRECTED_ZONES) is not a region in regions.json`,
      );
    }
    for (const sourceKey of keys) {
      const ccfZone = ccfZones[sourceKey] ?? undefined;
      const handZone = hand[sourceKey];
      assert(
        !(ccfZone && handZone),
        `${provider}/${sourceKey}: CCF now maps it to ${ccfZone}; remove it from HAND_ZONES`,
      );
      const corrected = CORRECTED_ZONES[provider][sourceKey]?.zone;
      assert(
        corrected === undefined || (ccfZone !== undefined && ccfZone !== corrected),
        `${provider}/${sourceKey}: CCF no longer maps it to another zone; remove it from CORRECTED_ZONES`,
      );
      const zone = corrected ?? ccfZone ?? handZone;
      assert(zone, `${provider}/${sourceKey}: no Electricity Maps zone; add one to HAND_ZONES`);
      const region = provider === 'azure' ? sourceKey.toLowerCase() : sourceKey;
      const hosted = provider === 'azure' ? azureSpellings.get(region) : undefined;
      refs.push({
        provider,
        region,
        sourceKey,
        // Stated only where the derivation from the id would not give it, so the table says no more than needed.
        hostedSpelling: hosted === regionHostedSpelling(region) ? undefined : hosted,
        zone,
        zoneBy: corrected ? 'corrected' : ccfZone ? 'ccf' : 'hand',
        location: countryOf(zone),
      });
    }
    const lowerKeys = new Set(keys.map((key) => key.toLowerCase()));
    for (const [region, { zone }] of Object.entries(ADDED_REGIONS[provider])) {
      assert(!lowerKeys.has(region), `${provider}/${region}: CCF now lists it; remove it from ADDED_REGIONS`);
      // No hosted spelling: the hosted API predates these regions, so its id (any case, `-` or `_`) is the only name.
      refs.push({
        provider,
        region,
        sourceKey: region,
        hostedSpelling: undefined,
        zone,
        zoneBy: 'added',
        location: countryOf(zone),
      });
    }
    for (const region of Object.keys(UNSUPPORTED_REGIONS[provider])) {
      assert(
        !lowerKeys.has(region) && !(region in ADDED_REGIONS[provider]),
        `${provider}/${region} is in UNSUPPORTED_REGIONS and has a zone`,
      );
    }
  }
  return refs;
}

type UnsupportedRegion = NonNullable<CloudRegionsTable['unsupported']>[number];

/** {@link UNSUPPORTED_REGIONS} and the given rows, sorted. */
function unsupportedRegions(more: UnsupportedRegion[]): UnsupportedRegion[] {
  const named = CLOUD_PROVIDERS.flatMap((provider) =>
    Object.entries(UNSUPPORTED_REGIONS[provider]).map(([region, reason]) => ({ provider, region, reason })),
  );
  return [...named, ...more].sort(byProviderThen('region'));
}

// ---------------------------------------------------------------------------------------------------------------
// 2. Electricity Maps yearly averages (default grid)

interface ElectricityMaps {
  version: string;
  /** year → zone → gCO2eq/kWh */
  years: Map<number, Map<string, number>>;
}

async function loadElectricityMaps(): Promise<ElectricityMaps> {
  const packageDir = repoPath('node_modules/@tgwf/co2');
  const { version } = z.object({ version: z.string() }).parse(readJson(`${packageDir}/package.json`));
  assert(
    version === TGWF_CO2_VERSION,
    `@tgwf/co2 is ${version}, expected ${TGWF_CO2_VERSION}; check its data licence and update SOURCES.md`,
  );
  assert(
    readFileSync(`${packageDir}/LICENSE`, 'utf8').includes(EM_LICENCE_STATEMENT),
    '@tgwf/co2 LICENSE no longer states the Electricity Maps ODbL terms; re-check the licence',
  );
  // A non-literal specifier: the package ships no type declarations, the shape is checked with zod instead.
  const specifier: string = '@tgwf/co2/data/electricity-maps';
  const module = (await import(specifier)) as Record<string, unknown>;
  const years = new Map<number, Map<string, number>>();
  for (const key of Object.keys(module).sort(compareStrings)) {
    const match = /^yearly(\d{4})$/.exec(key);
    if (!match) continue;
    const { data } = ElectricityMapsYearSchema.parse(module[key]);
    years.set(
      Number(match[1]),
      new Map(Object.entries(data).map(([zone, entry]) => [zone, entry.carbonIntensity.value])),
    );
  }
  for (const year of [2021, 2022, 2023, 2024]) assert(years.has(year), `Electricity Maps data lacks ${year}`);
  return { version, years };
}

/** g/kWh → kg/kWh, exactly (379 → 0.379). */
const gramsToKilograms = (grams: number): number => toNumber(div(decimal(grams), decimal(1000)));
/** t/kWh → kg/kWh, exactly (0.000379069 → 0.379069). */
const tonnesToKilograms = (tonnes: number): number => toNumber(mul(decimal(tonnes), decimal(1000)));

function buildElectricityMapsRegions(refs: RegionRef[], em: ElectricityMaps): CloudRegionsTable {
  const years = [...em.years.keys()].sort((a, b) => a - b);
  const via = `(via @tgwf/co2 ${em.version})`;
  const fallbacks: string[] = [];
  // An added region whose zone lacks a year is unsupported, not filled from its country.
  const unsupported: UnsupportedRegion[] = [];
  const supported = refs.filter((ref) => {
    if (ref.zoneBy !== 'added') return true;
    const missing = years.filter((year) => !em.years.get(year)!.has(ref.zone));
    if (missing.length === 0) return true;
    unsupported.push({
      provider: ref.provider,
      region: ref.region,
      reason: `Electricity Maps (via @tgwf/co2 ${em.version}) has no ${missing.join(', ')} figure for its zone ${ref.zone}`,
    });
    return false;
  });
  const regions = supported.map((ref) => {
    const grid_factors: Record<string, number> = {};
    const grid_sources: Record<string, string> = {};
    for (const year of years) {
      const data = em.years.get(year)!;
      let zone = ref.zone;
      let note = '';
      if (!data.has(zone)) {
        zone = ref.location;
        note = ` (country zone: ${ref.zone} has no ${year} value)`;
        fallbacks.push(`${ref.provider}/${ref.region} ${year}: ${ref.zone} → ${zone}`);
      }
      const grams = data.get(zone);
      assert(
        grams !== undefined,
        `${ref.provider}/${ref.region}: no ${year} value for ${ref.zone} or ${zone}`,
      );
      grid_factors[String(year)] = gramsToKilograms(grams);
      grid_sources[String(year)] = `Electricity Maps yearly average ${year}, zone ${zone}${note} ${via}`;
    }
    return {
      provider: ref.provider,
      region: ref.region,
      hosted_spelling: ref.hostedSpelling,
      location: ref.location,
      grid_zone: ref.zone,
      grid_factors,
      grid_sources,
    };
  });
  if (fallbacks.length > 0)
    console.log(`  Electricity Maps country fallbacks:\n    ${fallbacks.join('\n    ')}`);
  const first = years[0]!;
  const last = years[years.length - 1]!;
  return CloudRegionsTableSchema.parse({
    dataset: {
      id: 'electricitymaps-yearly',
      version: `${first}-${last}@tgwf-co2-${em.version}`,
      source: 'Electricity Maps',
      source_dataset: `Electricity Maps yearly averages ${first}-${last} (via @tgwf/co2 ${em.version})`,
      licence: 'ODbL-1.0',
      attribution:
        `Grid carbon intensity: Electricity Maps (https://www.electricitymaps.com), yearly lifecycle averages ` +
        `${first}-${last}, republished in CO2.js (@tgwf/co2 ${em.version}, The Green Web Foundation) under the Open ` +
        `Database License (ODbL) 1.0, https://opendatacommons.org/licenses/odbl/1-0/. This table is a derivative ` +
        `database under the same licence. Lifecycle emission factors per Electricity Maps methodology (IPCC 2014, ` +
        `AR5). Region-to-zone mapping from ${CCF_ATTRIBUTION}, with additions and corrections by co2e-engine (datasets/SOURCES.md).`,
    },
    default_year: 2022,
    unit: 'kg/kWh',
    gwp: 'ar5',
    regions: regions.sort(byProviderThen('region')),
    unsupported: unsupportedRegions(unsupported),
  });
}

// ---------------------------------------------------------------------------------------------------------------
// 3. CCF grid emission factors (alternative grid)

function buildCcfRegions(regions: RegionsFile, refs: RegionRef[]): CloudRegionsTable {
  const grid = GridFileSchema.parse(readJson(sharedPath('ccf/grid_emission_factors.json'))).vintages
    .ccf_trunk_2024_03;
  const refByRegion = new Map(refs.map((ref) => [`${ref.provider}/${ref.region}`, ref]));
  const nercByValue = new Map(Object.entries(grid.us_nerc).map(([nerc, value]) => [value, nerc]));

  // Azure keys are Consumption-API strings; resolve every alias to the region's lowercased name.
  const azureAlias = new Map<string, string>();
  for (const { name, options } of Object.values(regions.azure.regions)) {
    for (const alias of [name, ...options]) azureAlias.set(alias.toLowerCase(), name.toLowerCase());
  }
  const gcpAggregates = new Set([
    ...Object.values(regions.gcp.dual_regions),
    ...Object.values(regions.gcp.multi_regions),
  ]);

  const tonnes = new Map<string, { provider: CloudProvider; region: string; value: number }>();
  const add = (provider: CloudProvider, region: string, value: number, key: string) => {
    const id = `${provider}/${region}`;
    const seen = tonnes.get(id);
    assert(
      !seen || seen.value === value,
      `CCF grid: ${id} aliases disagree (${seen?.value} vs ${value} at ${key})`,
    );
    tonnes.set(id, { provider, region, value });
  };
  for (const [key, value] of Object.entries(grid.aws)) if (key !== 'Unknown') add('aws', key, value, key);
  for (const [key, value] of Object.entries(grid.azure)) {
    if (key === 'Unknown') continue;
    const region = azureAlias.get(key.toLowerCase());
    assert(region, `CCF grid: Azure key ${key} is not a region or alias in regions.json`);
    add('azure', region, value, key);
  }
  for (const [key, value] of Object.entries(grid.gcp_grid)) {
    if (key !== 'Unknown' && !gcpAggregates.has(key)) add('gcp', key, value, key);
  }

  const rows = [...tonnes.values()].map(({ provider, region, value }) => {
    const ref = refByRegion.get(`${provider}/${region}`);
    assert(ref, `CCF grid: ${provider}/${region} is not a region of regions.json`);
    let grid_zone: string;
    if (provider === 'gcp') {
      grid_zone = region; // Google publishes one grid intensity per region
    } else if (ref.location === 'US') {
      const nerc = nercByValue.get(value);
      assert(nerc, `CCF grid: US region ${provider}/${region} value ${value} is not a NERC factor`);
      grid_zone = `US-NERC-${nerc}`;
    } else if (provider === 'azure' && (region === 'asia' || region === 'asiapacific')) {
      grid_zone = 'Asia'; // a CCF average over Asian regions, not a country figure
    } else {
      grid_zone = ref.location;
    }
    return {
      provider,
      region,
      hosted_spelling: ref.hostedSpelling,
      location: ref.location,
      grid_zone,
      grid_factors: { '2024': tonnesToKilograms(value) },
      grid_sources: { '2024': `CCF grid emission factors, trunk ${CCF_TRUNK} (2024-03)` },
    };
  });
  const missing = refs.filter((ref) => !tonnes.has(`${ref.provider}/${ref.region}`));
  if (missing.length > 0) {
    console.log(
      `  CCF grid has no factor for: ${missing.map((r) => `${r.provider}/${r.region}`).join(', ')}`,
    );
  }
  const unsupported = missing.map(({ provider, region }) => ({
    provider,
    region,
    reason: `CCF's grid emission factors (trunk ${CCF_TRUNK}) have no figure for it`,
  }));
  return CloudRegionsTableSchema.parse({
    dataset: {
      id: 'ccf-grid-2024',
      version: `2024.03-${CCF_TRUNK}`,
      source: 'CCF',
      source_dataset: `Cloud Carbon Footprint grid emission factors (trunk ${CCF_TRUNK}, 2024-03)`,
      licence: 'Apache-2.0',
      attribution:
        `${CCF_ATTRIBUTION}. Grid factors as compiled by CCF from EPA eGRID2020 (US NERC regions), ` +
        `carbonfootprint.com and EEA (other AWS/Azure regions) and Google region carbon data (GCP). ` +
        `GWP basis is not stated by CCF and the sources are mixed; labelled AR4 nominally, as Climatiq's OEFDB ` +
        `labels CCF-derived factors.`,
    },
    default_year: 2024,
    unit: 'kg/kWh',
    gwp: 'ar4',
    regions: rows.sort(byProviderThen('region')),
    unsupported: unsupportedRegions(unsupported),
  });
}

// ---------------------------------------------------------------------------------------------------------------
// 4. Instances: parsed by the same loader users call (src/loaders/parse-ccf-instances.ts), so both take the same
// decisions; this script adds the dataset description and prints what was dropped and why.

const COEFFICIENTS_DIR = 'ccf/ccf-coefficients';

function buildInstances(): CloudInstancesTable {
  const read = (name: string) => readFileSync(sharedPath(COEFFICIENTS_DIR, name), 'utf8');
  const files = CCF_INSTANCE_FILES;
  const { cloudInstances, dropped, notes } = parseCcfInstances(
    {
      aws: { instances: read(files.aws.instances), embodied: read(files.aws.embodied) },
      azure: { instances: read(files.azure.instances), embodied: read(files.azure.embodied) },
      gcp: { instances: read(files.gcp.instances), embodiedMean: read(files.gcp.embodiedMean) },
    },
    {
      dataset: {
        id: 'ccf-coefficients-instances',
        version: CCF_COEFFICIENTS_COMMIT,
        source: 'CCF',
        source_dataset: 'ccf-coefficients (Teads method, SPECpower)',
        licence: 'Apache-2.0',
        attribution:
          `${CCF_ATTRIBUTION}; ccf-coefficients commit ${CCF_COEFFICIENTS_COMMIT}. Instance specs and embodied ` +
          `emissions are based on the Teads Carbon Footprint dataset and SPECpower_ssj2008 results. Newer types ` +
          `from the CCF app's instance tables (trunk ${CCF_TRUNK}) and ccf-coefficients' 2026 AWS instance list, ` +
          `with platform vCPU and embodied figures derived by co2e-engine's documented rules (datasets/SOURCES.md). GWP basis ` +
          `is not stated by the sources (manufacturer LCAs); labelled AR4 nominally, as Climatiq's OEFDB labels ` +
          `CCF-derived factors.`,
      },
      default_year: 2021,
      gwp: 'ar4',
      years: [2021, 2022, 2023, 2024, 2025],
    },
  );
  console.log(`  instance rows dropped: ${dropped.length}`);
  for (const d of dropped) console.log(`    ${d.provider}/${d.instance}: ${d.reason}`);
  for (const note of notes) console.log(`  note: ${note}`);

  // Newer types from the CCF app's tables and the 2026 files (scripts/datasets/cloud-instance-additions.ts).
  const table = new InstanceTable(cloudInstances.instances);
  const gcp2026 = readCsv(sharedPath(SOURCE_GCP_2026));
  addCcfAppInstances(table, readJson(sharedPath(SOURCE_APP)), gcp2026Specs(gcp2026));
  addAws2026Instances(table, readCsv(sharedPath(SOURCE_AWS_2026)));
  excludeGcp2026(table, gcp2026);
  const instances = [...table.rows.values()].sort(byProviderThen('instance'));
  // A type one source could not supply but another did is in the table, not excluded; one reason per type.
  const excluded = new Map<string, ExcludedInstance>();
  for (const row of table.excluded) {
    const key = table.key(row.provider, row.instance);
    if (!table.rows.has(key) && !excluded.has(key)) excluded.set(key, row);
  }
  const before = new Set(cloudInstances.instances.map((row) => table.key(row.provider, row.instance)));
  console.log(
    `  instances added: ${countByProvider(instances.filter((row) => !before.has(table.key(row.provider, row.instance))))}`,
  );
  console.log(`  instances excluded: ${countByProvider([...excluded.values()])}`);
  return CloudInstancesTableSchema.parse({
    ...cloudInstances,
    instances,
    excluded: groupExcluded([...excluded.values()]),
  });
}

/**
 * Excluded types grouped by (provider, source, reason), types sorted within a group and groups by provider and first
 * type: one reason is written once for its whole family, which keeps the file small.
 */
function groupExcluded(rows: ExcludedInstance[]): NonNullable<CloudInstancesTable['excluded']> {
  const groups = new Map<
    string,
    { provider: CloudProvider; source: string; reason: string; instances: string[] }
  >();
  for (const row of rows) {
    const key = JSON.stringify([row.provider, row.source, row.reason]);
    const group = groups.get(key) ?? {
      provider: row.provider,
      source: row.source,
      reason: row.reason,
      instances: [],
    };
    group.instances.push(row.instance);
    groups.set(key, group);
  }
  return [...groups.values()]
    .map((group) => ({ ...group, instances: group.instances.sort(compareStrings) }))
    .sort(
      (a, b) => compareStrings(a.provider, b.provider) || compareStrings(a.instances[0]!, b.instances[0]!),
    );
}

// ---------------------------------------------------------------------------------------------------------------

function assertUnique(label: string, keys: string[]): void {
  const seen = new Set<string>();
  for (const key of keys) {
    assert(!seen.has(key), `${label}: duplicate ${key}`);
    seen.add(key);
  }
}

function spotChecks(
  grid: CloudRegionsTable,
  ccfGrid: CloudRegionsTable,
  instances: CloudInstancesTable,
): void {
  const t2micro = instances.instances.find((i) => i.provider === 'aws' && i.instance === 't2.micro');
  assert(t2micro?.vcpu === 1 && t2micro.memory_gib === 1, 'AWS t2.micro must have 1 vCPU and 1 GiB');
  const usEast1 = grid.regions.find((r) => r.provider === 'aws' && r.region === 'us-east-1');
  assert(usEast1?.grid_factors['2022'] !== undefined, 'AWS us-east-1 must have a 2022 grid factor');
  for (const region of grid.regions) {
    for (const year of ['2021', '2022', '2023', '2024']) {
      assert(region.grid_factors[year] !== undefined, `${region.provider}/${region.region} lacks ${year}`);
      assert(
        region.grid_sources[year] !== undefined,
        `${region.provider}/${region.region} lacks a ${year} source`,
      );
    }
  }
  // Unique under the engine's lookup keys (`us_east_1`; case-insensitive instances), not only as written.
  for (const table of [grid, ccfGrid]) {
    assertUnique(
      `regions ${table.dataset.id}`,
      table.regions.map((r) => `${r.provider}/${regionKey(r.region)}`),
    );
  }
  assertUnique(
    'instances',
    instances.instances.map((i) => `${i.provider}/${instanceKey(i.provider, i.instance)}`),
  );
}

function countByProvider(rows: { provider: CloudProvider }[]): string {
  return CLOUD_PROVIDERS.map((p) => `${p} ${rows.filter((r) => r.provider === p).length}`).join(', ');
}

export async function buildCloud(): Promise<void> {
  console.log('cloud datasets');
  const regionsFile = RegionsFileSchema.parse(readJson(sharedPath('ccf/regions.json')));
  const refs = listRegions(regionsFile);
  for (const by of ['hand', 'corrected', 'added'] as const) {
    const picked = refs.filter((r) => r.zoneBy === by);
    console.log(
      `  ${by} zones (${picked.length}): ${picked.map((r) => `${r.provider}/${r.region}=${r.zone}`).join(', ')}`,
    );
  }

  const coefficients = withGpuWatts(buildCoefficients());
  const grid = buildElectricityMapsRegions(refs, await loadElectricityMaps());
  const ccfGrid = buildCcfRegions(regionsFile, refs);
  const instances = withGpus(buildInstances());
  spotChecks(grid, ccfGrid, instances);

  console.log(`  regions (Electricity Maps): ${countByProvider(grid.regions)}`);
  console.log(`  regions (CCF grid): ${countByProvider(ccfGrid.regions)}`);
  console.log(`  instances: ${countByProvider(instances.instances)}`);
  writeJson(repoPath('datasets/cloud/coefficients.json'), coefficients);
  writeJson(repoPath('datasets/cloud/regions-electricitymaps.json'), grid);
  writeJson(repoPath('datasets/cloud/regions-ccf.json'), ccfGrid);
  writeJson(repoPath('datasets/cloud/instances.json'), instances);
}

if (isMain(import.meta.url)) await buildCloud();
