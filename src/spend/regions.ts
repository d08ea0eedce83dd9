import { EmissionsError } from '../core/errors';
import type { SpendFactorsProvider } from '../datasets/types';
import { exiobaseRegionOf, REST_OF_WORLD_REGIONS, type RestOfWorldRegion } from './exiobase-regions';
import { notice, type Notice } from './notices';
import { regionSuggestion } from './suggestions';

/** The command that brings the full EXIOBASE (all 49 regions) into a dataset file. */
export const FETCH_EXIOBASE_COMMAND = 'co2e-engine datasets fetch exiobase';

export interface SpendRegion {
  /** The region of the factors: the country itself, or the EXIOBASE region it belongs to. */
  region: string;
  notices: Notice[];
}

const isRestOfWorld = (code: string): code is RestOfWorldRegion => code in REST_OF_WORLD_REGIONS;

/** A region whose factors stand in for a country without its own, with the `rest_of_world_region` notice saying so. */
const standingIn = (region: string, message: string): SpendRegion => ({
  region,
  notices: [notice('rest_of_world_region', 'warning', message)],
});

/**
 * The factor region of a spend country (DESIGN.md §7b): the country itself when the data has it; else its EXIOBASE
 * region (`VN` → `WA`), with a `rest_of_world_region` notice; a rest-of-world code that is no ISO country (`WA`,
 * `WE`, `WL`, `WM`) stands for itself. `WF` is Wallis and Futuna (ISO), so it maps to `WA`, not to Rest of World
 * Africa.
 *
 * @throws {@link EmissionsError} `no_emission_factors_found`, naming the region that would answer and the command that
 *   gets it.
 * @example
 * ```ts
 * resolveSpendRegion('VN', factors); // { region: 'WA', notices: [rest_of_world_region …] } when factors has WA
 * ```
 */
export function resolveSpendRegion(country: string, factors: SpendFactorsProvider): SpendRegion {
  const regions = factors.regions;
  const mapped = exiobaseRegionOf(country);
  if (regions.includes(country) && !(isRestOfWorld(country) && mapped !== undefined))
    return { region: country, notices: [] };
  const restOfWorld = factors.restOfWorldRegion;
  if (restOfWorld !== undefined && mapped !== undefined && regions.includes(restOfWorld)) {
    return standingIn(
      restOfWorld,
      `${country} has no factors of its own in ${factors.info.source_dataset}: its rest-of-world factors (${restOfWorld}) are used. They average the countries the data does not model.`,
    );
  }
  if (mapped !== undefined && mapped !== country && regions.includes(mapped)) {
    return standingIn(
      mapped,
      `${country} has no factors of its own: EXIOBASE counts it in ${mapped} (${REST_OF_WORLD_REGIONS[mapped as RestOfWorldRegion] ?? mapped}), whose factors are used. They average the region's countries.`,
    );
  }
  const name = factorSetName(factors);
  const nextStep = factors.restOfWorldRegion === undefined ? ` ${NEXT_STEP_REGION}` : '';
  if (mapped === undefined) {
    throw new EmissionsError(
      'no_emission_factors_found',
      clip(
        `'${country}' is no ISO 3166-1 country code with factors in ${name}.${regionSuggestion(country, regions)} The ${regions.length} regions with factors are in valid_values.`,
      ),
      { path: 'spend_region', valid_values: [...regions] },
    );
  }
  const where =
    mapped === country
      ? `${name} has no factors for ${country}`
      : `${country} is in EXIOBASE's ${mapped} (${REST_OF_WORLD_REGIONS[mapped as RestOfWorldRegion]}), which these factors lack`;
  throw new EmissionsError('no_emission_factors_found', clip(`${where}.${nextStep}`), {
    path: 'spend_region',
    valid_values: [...regions],
  });
}

/** The next step for a country the factors lack: the set that has it, or the full EXIOBASE. */
export const NEXT_STEP_REGION = `Use \`--datasets ceda\` (148 countries) or \`${FETCH_EXIOBASE_COMMAND}\` (49 regions).`;

/** A message cut to 200 characters (the long lists go in `valid_values`). */
export const clip = (message: string): string =>
  message.length <= 200 ? message : `${message.slice(0, 199)}…`;

/** A short name of a factor set for messages: its dataset id, and how many regions it has. */
export const factorSetName = (factors: Pick<SpendFactorsProvider, 'info' | 'regions'>): string =>
  `${factors.info.id} (${factors.regions.length} regions)`;
