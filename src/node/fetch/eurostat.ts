import { createHash } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultCacheDir } from './cache';
import type { FetchLike } from './download';
import { DownloadError } from './errors';

/** Eurostat's SDMX 2.1 dissemination API; `CO2E_ENGINE_EUROSTAT_API` or `--eurostat-api` replaces it. */
export const EUROSTAT_API = 'https://ec.europa.eu/eurostat/api/dissemination/sdmx/2.1';

/**
 * Eurostat's code for a region: `EL` for Greece, `UK` for the United Kingdom, else the ISO code.
 *
 * @example
 * ```ts
 * eurostatGeo('GR'); // 'EL'
 * ```
 */
export const eurostatGeo = (region: string) => (region === 'GR' ? 'EL' : region === 'GB' ? 'UK' : region);

/** EXIOBASE's rest-of-world regions, which Eurostat does not publish. */
const REST_OF_WORLD = new Set(['WA', 'WE', 'WF', 'WL', 'WM']);

/**
 * The address of `naio_10_cp15` for some countries and one year: the series key
 * `A.MIO_EUR.TOTAL.TS_BP+D21X31+OTTM+TS_PP..<geo>+<geo>` (freq, unit, stk_flow, ind_impv, every prd_amo, geo) as
 * gzipped TSV, the rows `parseNaioMargins` reads.
 *
 * @example
 * ```ts
 * naioMarginsUrl(['FR', 'GR'], 2019);
 * // 'https://ec.europa.eu/eurostat/api/dissemination/sdmx/2.1/data/naio_10_cp15/A.MIO_EUR.TOTAL.TS_BP+D21X31+OTTM+TS_PP..FR+EL?format=TSV&startPeriod=2019&endPeriod=2019&compressed=true'
 * ```
 */
export function naioMarginsUrl(regions: readonly string[], year: number, api: string = EUROSTAT_API): string {
  const geos = [...new Set(regions.filter((region) => !REST_OF_WORLD.has(region)).map(eurostatGeo))];
  return `${api.replace(/\/+$/, '')}/data/naio_10_cp15/A.MIO_EUR.TOTAL.TS_BP+D21X31+OTTM+TS_PP..${geos.join('+')}?format=TSV&startPeriod=${year}&endPeriod=${year}&compressed=true`;
}

/** Options of {@link fetchNaioMargins}. */
export interface FetchNaioOptions {
  /** The regions to ask for (EXIOBASE's rest-of-world regions are left out; GR and GB become EL and UK). */
  regions: readonly string[];
  year: number;
  /** Default {@link defaultCacheDir}; the file goes to `<cacheDir>/eurostat/`. */
  cacheDir?: string;
  api?: string;
  fetch?: FetchLike;
  signal?: AbortSignal;
}

/**
 * Downloads Eurostat's `naio_10_cp15` for the regions and year (see {@link naioMarginsUrl}) into the cache,
 * written whole or not at all, for `loadNaioMargins`. Eurostat publishes no checksum and revises the table, so
 * every call downloads it afresh.
 *
 * @example
 * ```ts
 * const { path } = await fetchNaioMargins({ regions: ['DE', 'FR'], year: 2019 });
 * const { margins } = loadNaioMargins(path, { year: 2019, tradeShare: 0.8, classifications });
 * ```
 * @throws {@link DownloadError} when no region is one Eurostat publishes, or the request fails.
 */
export async function fetchNaioMargins(options: FetchNaioOptions): Promise<{ path: string; url: string }> {
  const countries = options.regions.filter((region) => !REST_OF_WORLD.has(region));
  const url = naioMarginsUrl(countries, options.year, options.api);
  if (countries.length === 0)
    throw new DownloadError(
      'no country to ask Eurostat for naio_10_cp15 margins (only rest-of-world regions)',
      url,
    );
  const doFetch: FetchLike = options.fetch ?? ((target, init) => fetch(target, init));
  let bytes: Uint8Array;
  try {
    const response = await doFetch(url, {
      headers: {},
      redirect: 'follow',
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new DownloadError(`Eurostat naio_10_cp15: ${url} answered HTTP ${response.status}`, url);
    }
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    if (error instanceof DownloadError || options.signal?.aborted === true) throw error;
    const cause = error instanceof Error ? ((error as { cause?: unknown }).cause ?? error) : error;
    throw new DownloadError(
      `cannot download naio_10_cp15 from ${url}: ${cause instanceof Error ? cause.message : String(cause)}`,
      url,
    );
  }
  const folder = join(options.cacheDir ?? defaultCacheDir(), 'eurostat');
  await mkdir(folder, { recursive: true });
  const tag = createHash('sha256').update(url).digest('hex').slice(0, 12);
  const path = join(folder, `naio_10_cp15-${options.year}-${tag}.tsv.gz`);
  const partial = `${path}.partial`;
  try {
    await writeFile(partial, bytes);
    await rename(partial, path);
  } finally {
    await rm(partial, { force: true });
  }
  return { path, url };
}
