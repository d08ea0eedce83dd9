import { EmissionsError, listForMessage } from '../core/errors';
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

/**
 * The factor region of a spend country (DESIGN.md §7b): the country itself when the data has it; else its EXIOBASE
 * region (`VN` → `WA`), with a `rest_of_world_region` notice; a rest-of-world code that is no ISO country (`WA`,
 * `WE`, `WL`, `WM`) stands for itself. `WF` is Wallis and Futuna (ISO), so it maps to `WA`, not to Rest of World
 * Africa.
 *
 * @throws {EmissionsError} `no_emission_factors_found`, naming the region that would answer and the command that
 *   gets it.
 * @example
 * resolveSpendRegion('VN', factors); // { region: 'WA', notices: [rest_of_world_region …] } when factors has WA
 */
export function resolveSpendRegion(country: string, factors: SpendFactorsProvider): SpendRegion {
  const regions = factors.regions;
  const mapped = exiobaseRegionOf(country);
  if (regions.includes(country) && !(isRestOfWorld(country) && mapped !== undefined))
    return { region: country, notices: [] };
  const restOfWorld = factors.restOfWorldRegion;
  if (restOfWorld !== undefined && mapped !== undefined && regions.includes(restOfWorld)) {
    return {
      region: restOfWorld,
      notices: [
        notice(
          'rest_of_world_region',
          'warning',
          `${country} has no factors of its own in ${factors.info.source_dataset}: its rest-of-world factors (${restOfWorld}) are used. They average the countries the data does not model.`,
        ),
      ],
    };
  }
  if (mapped !== undefined && mapped !== country && regions.includes(mapped)) {
    return {
      region: mapped,
      notices: [
        notice(
          'rest_of_world_region',
          'warning',
          `${country} has no factors of its own: EXIOBASE counts it in ${mapped} (${REST_OF_WORLD_REGIONS[mapped as RestOfWorldRegion] ?? mapped}), whose factors are used. They average the region's countries.`,
        ),
      ],
    };
  }
  const listed = `Regions with factors: ${listForMessage(regions, 60)}.`;
  const dataset = factors.info.source_dataset;
  if (mapped === undefined) {
    throw new EmissionsError(
      'no_emission_factors_found',
      `No emission factors for region '${country}' in ${dataset}, and '${country}' is no ISO 3166-1 country that EXIOBASE groups in a region.${regionSuggestion(country, regions)} ${listed}`,
      { path: 'spend_region', valid_values: [...regions] },
    );
  }
  const where =
    mapped === country
      ? `EXIOBASE models ${country} on its own`
      : `EXIOBASE counts ${country} in ${mapped} (${REST_OF_WORLD_REGIONS[mapped as RestOfWorldRegion]})`;
  throw new EmissionsError(
    'no_emission_factors_found',
    `No emission factors for '${country}' in ${dataset}: ${where}, and this data has no ${mapped} factors. ` +
      `\`${FETCH_EXIOBASE_COMMAND}\` downloads the full EXIOBASE (49 regions) and builds a dataset that has them. ${listed}`,
    { path: 'spend_region', valid_values: [...regions] },
  );
}
