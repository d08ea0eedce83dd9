/**
 * The cloud regions and their Electricity Maps zones, shared by the two regions tables
 * (`build-regions-electricitymaps.ts`, `build-regions-ccf.ts`): CCF's regions.json, the zones chosen by hand,
 * corrected and added (with evidence in datasets/SOURCES.md) and the regions no table supports.
 */
import * as z from 'zod';
import { regionKey } from '../../../src/datasets/create';
import { regionHostedSpelling } from '../../../src/datasets/keys';
import { CLOUD_PROVIDERS, type CloudProvider, type CloudRegionsTable } from '../../../src/datasets/tables';
import { azureHostedSpellings } from '../azure-words';
import { ADDED_REGIONS_2026, CORRECTED_ZONES_2026 } from '../cloud-regions-2026';
import { assert, byProviderThen, readJson, sharedPath } from '../lib';
import { assertUnique } from './lib';

const zoneMap = z.record(z.string(), z.string().nullable());
export const RegionsFileSchema = z.object({
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
export type RegionsFile = z.infer<typeof RegionsFileSchema>;

/** CCF's regions.json, checked against the fields read here. */
export function readRegionsFile(): RegionsFile {
  return RegionsFileSchema.parse(readJson(sharedPath('ccf/regions.json')));
}

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

export interface RegionRef {
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

export function listRegions(regions: RegionsFile): RegionRef[] {
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

export type UnsupportedRegion = NonNullable<CloudRegionsTable['unsupported']>[number];

/** {@link UNSUPPORTED_REGIONS} and the given rows, sorted. */
export function unsupportedRegions(more: UnsupportedRegion[]): UnsupportedRegion[] {
  const named = CLOUD_PROVIDERS.flatMap((provider) =>
    Object.entries(UNSUPPORTED_REGIONS[provider]).map(([region, reason]) => ({ provider, region, reason })),
  );
  return [...named, ...more].sort(byProviderThen('region'));
}

/** Prints the zones not taken from CCF (chosen by hand, corrected, added). */
export function logZoneChoices(refs: RegionRef[]): void {
  for (const by of ['hand', 'corrected', 'added'] as const) {
    const picked = refs.filter((r) => r.zoneBy === by);
    console.log(
      `  ${by} zones (${picked.length}): ${picked.map((r) => `${r.provider}/${r.region}=${r.zone}`).join(', ')}`,
    );
  }
}

/** Unique under the engine's lookup keys (`us_east_1`), not only as written. */
export function assertUniqueRegions(table: CloudRegionsTable): void {
  assertUnique(
    `regions ${table.dataset.id}`,
    table.regions.map((r) => `${r.provider}/${regionKey(r.region)}`),
  );
}
