/**
 * Regions and zone corrections of issue 22 item 4 ("today's fleet"), kept apart from `build-cloud.ts`'s tables
 * (which spread them in) so the evidence for this round reads in one place. Same rule as there: the provider's
 * documented location, then the grid that serves it (Electricity Maps' US zones are balancing authorities; outside
 * the US, countries or bidding zones). Every entry has its evidence row in datasets/SOURCES.md and a pinned figure
 * in tests/cloud/zones.test.ts.
 */

/** Zones CCF maps a region to that do not serve the data centre. */
export const CORRECTED_ZONES_2026 = {
  aws: {
    'us-gov-west-1': {
      zone: 'US-NW-BPAT',
      location:
        'AWS GovCloud (US-West): "the Northwestern United States" (AWS); Boardman, Morrow County, Oregon (press, 2011)',
      why: 'AWS states that the GovCloud region, like Oregon, runs on carbon-free power; Boardman is Umatilla Electric Cooperative territory, in the Bonneville balancing area, as for us-west-2; PacifiCorp West does not serve it',
    },
  },
  azure: {},
  gcp: {
    'us-central2': {
      zone: 'US-CENT-SWPP',
      location:
        "Oklahoma (Google: us-central2); Google's Oklahoma data centre is at Pryor, Mayes County (MidAmerica Industrial Park)",
      why: 'the park is supplied by the Grand River Dam Authority, a member of the Southwest Power Pool; MISO does not reach Oklahoma',
    },
  },
} as const;

/** Regions CCF's regions.json does not list. */
export const ADDED_REGIONS_2026 = {
  aws: {
    'eusc-de-east-1': {
      zone: 'DE',
      location: 'AWS European Sovereign Cloud, Brandenburg, Germany',
      why: 'Germany is one zone; launched 15 January 2026 in Brandenburg (AWS, Brandenburg ministry)',
    },
  },
  azure: {
    austriaeast: { zone: 'AT', location: 'Vienna, Austria', why: 'Austria is one zone' },
    belgiumcentral: { zone: 'BE', location: 'Brussels, Belgium', why: 'Belgium is one zone' },
    denmarkeast: {
      zone: 'DK-DK2',
      location: 'Greater Copenhagen, Denmark',
      why: 'Zealand and Copenhagen are in the East Denmark bidding zone DK2',
    },
    taiwannorth: { zone: 'TW', location: 'Taipei, Taiwan', why: 'Taiwan is one zone, as for AWS ap-east-2' },
  },
  gcp: {
    'asia-southeast3': {
      zone: 'TH',
      location: 'Bangkok, Thailand',
      why: 'Thailand is one zone, as for AWS ap-southeast-7',
    },
  },
} as const;
