/** Lookup keys shared by the dataset providers, the loaders and the calculators (no data, no zod). */

/**
 * Region ids in the request spelling: lowercase, `_` for `-`.
 *
 * @example
 * ```ts
 * regionRequestSpelling('us-east-1'); // 'us_east_1'
 * ```
 */
export const regionRequestSpelling = (region: string): string => region.toLowerCase().replaceAll('-', '_');

/**
 * The lookup key of a region: lowercase without `-`, `_` or spaces, so every spelling that differs only in case
 * and word separators finds the same region: the provider's own (`westeurope`, `us-east-1`, `europe-west1`), the
 * hosted API's (`west_europe`, `us_east_1`, `europe_west1` and `europe_west_1`) and display names (`West Europe`).
 * Derived from the data alone: no region needs a hand-written alias.
 *
 * @example
 * ```ts
 * regionKey('West Europe') === regionKey('westeurope'); // true
 * ```
 */
export const regionKey = (region: string): string =>
  // A space between words goes, one before or after the name stays (so `'us_east_1 '` is not a region).
  region.toLowerCase().replace(/[-_]|(?<=\S) (?=\S)/g, '');

/**
 * The lookup key of an instance type: case-insensitive; Azure sizes with or without `Standard_`, `_` or space alike.
 *
 * @example
 * ```ts
 * instanceKey('azure', 'Standard_D2s_v3') === instanceKey('azure', 'd2s v3'); // true
 * ```
 */
export const instanceKey = (provider: string, instance: string): string => {
  const lower = instance.toLowerCase();
  return provider === 'azure' ? lower.replaceAll(' ', '_').replace(/^standard_/, '') : lower;
};

/**
 * The hosted API's spelling of a region, which its activity ids and names use: lowercase, words and a trailing
 * number split by `_` (`us_east_1`, `europe_west_1`, `west_europe`, `east_us_2`). `stated` is the regions table's
 * `hosted_spelling`, needed where the provider runs words together (Azure's `westeurope`); without it the spelling
 * is derived from the id, which is exact for AWS and GCP (`europe-west1` → `europe_west_1`).
 *
 * @example
 * ```ts
 * regionHostedSpelling('europe-west1'); // 'europe_west_1'
 * regionHostedSpelling('westeurope', 'west_europe'); // 'west_europe'
 * ```
 */
export const regionHostedSpelling = (region: string, stated?: string): string =>
  stated ?? regionRequestSpelling(region).replace(/([a-z])(\d+)$/, '$1_$2');
