import cliProgress from 'cli-progress';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import { DatasetError } from '../../datasets/errors';
import { defaultTables } from '../../embedded/index';
import { defaultCacheDir } from '../../node/fetch/cache';
import type { DownloadProgress } from '../../node/fetch/download';
import { DownloadError } from '../../node/fetch/errors';
import { EUROSTAT_API, fetchNaioMargins } from '../../node/fetch/eurostat';
import { exiobaseReleaseOf, fetchExiobaseRelease } from '../../node/fetch/exiobase';
import { EXIOBASE_ZENODO_RECORDS, type ExiobaseZenodoRelease, ZENODO_API } from '../../node/fetch/zenodo';
import { loadExiobaseRelease } from '../../node/load-exiobase-release';
import { type CliIo, EXIT, UsageError } from '../io';
import type { DatasetsBuildOptions } from './datasets-build-options';
import { proxiedFetch } from './proxy-fetch';
import { fourDigitYear, fraction, negativeOption } from './options';

/**
 * The build of `datasets build` (`buildDatasetsFile` in ./datasets.ts, which registers this command and passes it
 * in, so that this file does not import that one) and its default impact row.
 */
export interface DatasetsBuild {
  build: (options: DatasetsBuildOptions, io: CliIo) => number;
  defaultImpact: string;
}

/** Options of `co2e-engine datasets fetch exiobase`. */
export interface DatasetsFetchOptions {
  /** Default 3.8.2 for a download; for `from`, the version written into factor ids when given. */
  release?: ExiobaseZenodoRelease | '3.9';
  /** Another Zenodo record with `IOT_<year>_pxp.zip` files. */
  record?: string;
  year: number;
  /** Default `exiobase-<release>-<year>.json`. */
  out?: string;
  force: boolean;
  /** Build from this archive (or folder) instead of downloading. */
  from?: string;
  cacheDir?: string;
  /** `eurostat` (download naio_10_cp15 for the release's countries) or margins files, as for `datasets build`. */
  margins: string[];
  tradeShare?: number;
  impact: string;
  negative: 'error' | 'omit';
  zenodoApi?: string;
  eurostatApi?: string;
  retries: number;
}

const MB = 1024 * 1024;
const megabytes = (bytes: number) => `${(bytes / MB).toFixed(bytes < 10 * MB ? 2 : 1)} MB`;

/**
 * A bar with the percentage, bytes, speed and time left on a terminal; elsewhere (a log) a line at each tenth of the
 * file reached.
 */
function downloadProgress(stderr: CliIo['stderr'], name: () => string) {
  let bar: cliProgress.SingleBar | undefined;
  const started = performance.now();
  let tenths: number | undefined;
  return {
    update(progress: DownloadProgress) {
      if (progress.total === undefined || progress.total === 0) return;
      const seconds = Math.max((performance.now() - started) / 1000, 0.001);
      const payload = {
        done: megabytes(progress.bytes),
        size: megabytes(progress.total),
        speed: megabytes((progress.bytes - progress.resumedFrom) / seconds),
      };
      if (stderr.isTTY !== true) {
        const reached = Math.floor((10 * progress.bytes) / progress.total);
        tenths ??= Math.floor((10 * progress.resumedFrom) / progress.total);
        if (reached > tenths) {
          tenths = reached;
          stderr.write(
            `${name()}: ${reached * 10}% (${payload.done} of ${payload.size}, ${payload.speed}/s)\n`,
          );
        }
        return;
      }
      if (bar === undefined) {
        bar = new cliProgress.SingleBar(
          {
            stream: stderr,
            format: '{bar} {percentage}% | {done} of {size} | {speed}/s | {eta_formatted} left',
            hideCursor: true,
            clearOnComplete: true,
            fps: 10,
            etaBuffer: 50,
          },
          cliProgress.Presets.shades_classic,
        );
        bar.start(progress.total, progress.resumedFrom, payload);
      }
      bar.update(Math.min(progress.bytes, progress.total), payload);
    },
    stop() {
      bar?.stop();
    },
  };
}

/** The regions and products of the written file's spend factors, for the summary on stdout. */
function coverage(out: string): { regions: string[]; products: string[] } {
  const file = JSON.parse(readFileSync(out, 'utf8')) as {
    layers: Array<{ spendFactors?: { factors: Array<{ region: string; product: string }> } }>;
  };
  const regions = new Set<string>();
  const products = new Set<string>();
  for (const layer of file.layers)
    for (const factor of layer.spendFactors?.factors ?? []) {
      regions.add(factor.region);
      products.add(factor.product);
    }
  const natural = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });
  return { regions: [...regions].sort(), products: [...products].sort(natural) };
}

/**
 * `co2e-engine datasets fetch exiobase`: downloads `IOT_<year>_pxp.zip` of an EXIOBASE 3 release from its Zenodo
 * record into the cache (resuming, checksum verified, through `HTTPS_PROXY`), or takes `--from`, optionally
 * downloads Eurostat's naio_10_cp15 margins for the release's countries, then runs the same build as
 * `datasets build` and prints the regions and products the file covers (stdout).
 *
 * @example
 * ```ts
 * const code = await fetchExiobaseCommand({ release: '3.8.2', year: 2019, force: false, margins: [],
 *   impact: BUILD_DEFAULT_IMPACT, negative: 'error', retries: 3 }, io, { build: buildDatasetsFile });
 * ```
 */
export async function fetchExiobaseCommand(
  options: DatasetsFetchOptions,
  io: CliIo,
  { build }: Pick<DatasetsBuild, 'build'>,
): Promise<number> {
  const release = exiobaseReleaseOf(options.release ?? '3.8.2');
  const out = options.out ?? `exiobase-${options.record ?? release}-${options.year}.json`;
  if (existsSync(out) && !options.force)
    throw new UsageError(`--out ${out} exists; pass --force to replace it.`);
  const eurostat = options.margins.includes('eurostat');
  if (eurostat && options.tradeShare === undefined)
    throw new UsageError(
      '--margins eurostat reads naio_10_cp15, which gives trade and transport margins combined: pass --trade-share <0..1>, the part of them that is trade margin.',
    );
  if (options.from !== undefined && !existsSync(options.from))
    throw new UsageError(`--from ${options.from}: no such file or folder.`);
  const cacheDir = options.cacheDir ?? defaultCacheDir(io.env);
  const zenodoApi = options.zenodoApi ?? io.env.CO2E_ENGINE_ZENODO_API ?? ZENODO_API;
  const eurostatApi = options.eurostatApi ?? io.env.CO2E_ENGINE_EUROSTAT_API ?? EUROSTAT_API;
  // The version in every factor id: the release downloaded, or the one named for --from (else a content digest).
  const version =
    options.from === undefined
      ? options.record === undefined
        ? release
        : options.release
      : options.release === undefined
        ? undefined
        : release;
  const net = proxiedFetch(io.env);
  let fileName = 'download';
  const progress = downloadProgress(io.stderr, () => fileName);
  const signal = io.signal;
  try {
    let archive = options.from;
    if (archive === undefined) {
      const fetched = await fetchExiobaseRelease({
        release,
        ...(options.record === undefined ? {} : { record: options.record }),
        year: options.year,
        cacheDir,
        api: zenodoApi,
        fetch: net.fetch,
        retries: options.retries,
        ...(signal === undefined ? {} : { signal }),
        onFile: (file) => {
          fileName = file.key;
          io.stderr.write(
            `EXIOBASE ${options.record === undefined ? release : `record ${file.record}`} ${file.key}` +
              `${file.size === undefined ? '' : ` (${megabytes(file.size)})`} from ${file.url}\ncache: ${file.path}\n`,
          );
        },
        onProgress: (each) => progress.update(each),
      });
      progress.stop();
      io.stderr.write(
        fetched.cached
          ? `${fetched.file.key}: in the cache, ${fetched.file.checksum} verified\n`
          : `${fetched.file.key}: downloaded ${megabytes(fetched.received)}` +
              `${fetched.resumedFrom > 0 ? ` (resumed after ${megabytes(fetched.resumedFrom)})` : ''}, ${fetched.file.checksum} verified\n`,
      );
      archive = fetched.path;
    }
    const margins: string[] = [];
    for (const source of options.margins) {
      if (source !== 'eurostat') {
        margins.push(source);
        continue;
      }
      const { regions } = loadExiobaseRelease(archive, {
        year: options.year,
        products: defaultTables.classifications.products,
        impact: options.impact,
        negative: 'omit',
      });
      const naio = await fetchNaioMargins({
        regions,
        year: options.year,
        cacheDir,
        api: eurostatApi,
        fetch: net.fetch,
        ...(signal === undefined ? {} : { signal }),
      });
      io.stderr.write(`Eurostat naio_10_cp15 ${options.year} from ${naio.url}\ncache: ${naio.path}\n`);
      margins.push(naio.path);
    }
    const code = build(
      {
        exiobase: archive,
        margins,
        out,
        year: options.year,
        impact: options.impact,
        negative: options.negative,
        force: options.force,
        ...(options.tradeShare === undefined ? {} : { tradeShare: options.tradeShare }),
        ...(version === undefined ? {} : { version }),
      },
      io,
    );
    if (code !== EXIT.ok) return code;
    const { regions, products } = coverage(out);
    io.stdout.write(
      `${out}: spend factors for ${regions.length} regions × ${products.length} products\n` +
        `regions (${regions.length}): ${regions.join(' ')}\nproducts (${products.length}): ${products.join(' ')}\n`,
    );
    return EXIT.ok;
  } catch (error) {
    progress.stop();
    if (signal?.aborted === true) {
      io.stderr.write('co2e-engine: interrupted; the partial download is kept for the next run\n');
      return EXIT.interrupted;
    }
    if (error instanceof DownloadError || error instanceof DatasetError) {
      io.stderr.write(`co2e-engine: ${error.message}\n`);
      return EXIT.rowsFailed;
    }
    throw error;
  } finally {
    await net.close();
  }
}

const releases = [...Object.keys(EXIOBASE_ZENODO_RECORDS), '3.9'];

/**
 * Adds `datasets fetch exiobase` under the `datasets` command; `done` receives the exit code.
 *
 * @example
 * ```ts
 * addDatasetsFetchCommand(datasets, io, (code) => { exitCode = code; }, { build: buildDatasetsFile,
 *   defaultImpact: BUILD_DEFAULT_IMPACT });
 * ```
 */
export function addDatasetsFetchCommand(
  datasets: Command,
  io: CliIo,
  done: (code: number) => void,
  build: DatasetsBuild,
): void {
  datasets
    .command('fetch')
    .description('Download published data and build a dataset file from it.')
    .command('exiobase')
    .description(
      'Download IOT_<year>_pxp.zip of an EXIOBASE 3 release from Zenodo (resumed, checksum verified, kept in a cache), then build a dataset file from it as `datasets build` does.',
    )
    .addOption(
      new Option('--release <release>', 'EXIOBASE release (3.9: the newest 3.9); default 3.8.2').choices(
        releases,
      ),
    )
    .option('--record <id>', 'another Zenodo record holding IOT_<year>_pxp.zip files')
    .option('--year <year>', 'year of the tables', fourDigitYear('--year'), 2019)
    .option('-o, --out <file>', 'the dataset file to write (default exiobase-<release>-<year>.json)')
    .option('--force', 'replace --out if it exists')
    .option('--from <zip>', 'build from this IOT_<year>_pxp.zip (or folder) instead of downloading it')
    .option(
      '--cache-dir <dir>',
      'where downloads are kept (default $XDG_CACHE_HOME/co2e-engine, else the platform cache folder)',
    )
    .option(
      '--margins <source>',
      'eurostat: download naio_10_cp15 for the release’s countries (needs --trade-share); or a margins file as for datasets build; repeatable',
      (value: string, previous: string[]) => [...previous, value],
      [],
    )
    .option(
      '--trade-share <fraction>',
      'naio_10_cp15 gives trade and transport margins combined: the part that is trade (0 to 1)',
      fraction('--trade-share'),
    )
    .option('--impact <row>', 'the impacts/M.txt row to read', build.defaultImpact)
    .addOption(negativeOption())
    .option('--zenodo-api <url>', `Zenodo's API base (default $CO2E_ENGINE_ZENODO_API, else ${ZENODO_API})`)
    .option(
      '--eurostat-api <url>',
      `Eurostat's SDMX 2.1 API base (default $CO2E_ENGINE_EUROSTAT_API, else ${EUROSTAT_API})`,
    )
    .option(
      '--retries <n>',
      'further attempts, each resuming, when the connection drops',
      (text) => {
        if (!/^\d{1,2}$/.test(text))
          throw new InvalidArgumentError('--retries must be a whole number from 0 to 99.');
        return Number(text);
      },
      3,
    )
    .addHelpText(
      'after',
      '\nHTTPS_PROXY, HTTP_PROXY, ALL_PROXY and NO_PROXY are honoured. A download that breaks off keeps its part ' +
        'beside the cache entry and the next run resumes it; a wrong checksum removes it and writes nothing. ' +
        'Exit code: 0 written, 1 when the download or the data fails, 2 on usage errors, 130 when interrupted.',
    )
    .action(async (flags: Omit<DatasetsFetchOptions, 'force'> & { force?: boolean }) => {
      done(await fetchExiobaseCommand({ ...flags, force: flags.force === true }, io, build));
    });
}
