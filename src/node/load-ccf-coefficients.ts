import { basename, join } from 'node:path';
import { factorId } from '../core/factor-id';
import { DatasetError } from '../datasets/errors';
import {
  CloudCoefficientsTable,
  type CloudProvider,
  CLOUD_PROVIDERS,
  type DatasetInfo,
} from '../datasets/tables';
import {
  CCF_INSTANCE_FILES,
  type CcfInstanceFiles,
  type CcfInstances,
  parseCcfInstances,
} from '../loaders/parse-ccf-instances';
import { type CcfUseWatts, parseCcfUseCoefficients } from '../loaders/parse-ccf-use-coefficients';
import type { TableMeta } from '../loaders/table-kinds';
import { describeIssue } from '../loaders/validate';
import { readText, statOf } from './files';

/** Options of {@link loadCcfCoefficients}. */
export interface LoadCcfCoefficientsOptions {
  /**
   * Table-wide fields of the instances table. Defaults: `dataset` describing CCF's ccf-coefficients with
   * `version` `content-<digest of the files>`; `default_year` 2021, `years` 2021–2025 and `gwp` `ar4`, as the
   * embedded default (embodied factors do not vary by year).
   */
  instances?: Partial<TableMeta<'cloudInstances'>>;
  /**
   * Also set the providers' `min_watts`/`max_watts` in `base` from `coefficients-<provider>-use.csv` (the mean or
   * median over architectures, see `parseCcfUseCoefficients`); other coefficients stay as in `base`.
   */
  coefficients?: {
    base: CloudCoefficientsTable;
    average?: 'mean' | 'median';
    /** Per provider, only these architectures. */
    architectures?: Partial<Record<CloudProvider, readonly string[]>>;
    /** Overrides of the derived dataset description. */
    dataset?: Partial<DatasetInfo>;
  };
}

/** Result of {@link loadCcfCoefficients}. */
export interface LoadedCcfCoefficients extends CcfInstances {
  /** `options.coefficients.base` with the watts of each provider that has a use CSV; absent without that option. */
  cloudCoefficients?: CloudCoefficientsTable;
  /** The provider averages used, by provider. */
  watts: Partial<Record<CloudProvider, CcfUseWatts>>;
}

const CCF_ATTRIBUTION =
  'Cloud Carbon Footprint, © 2021 Thoughtworks, Inc., Apache License 2.0 (github.com/cloud-carbon-footprint/ccf-coefficients). ' +
  'Instance specs and embodied emissions are based on the Teads Carbon Footprint dataset and SPECpower_ssj2008 results.';

/**
 * Loads a ccf-coefficients folder (the files of its `data/` and `output/` folders side by side, as
 * github.com/cloud-carbon-footprint/ccf-coefficients writes them): the instances table for every provider whose
 * instance and embodied CSVs are present, and optionally provider-average watts from the use CSVs. See
 * `parseCcfInstances` for the decisions taken.
 *
 * @example
 * ```ts
 * import { loadCcfCoefficients } from 'co2e-engine/node';
 * import { defaultTables } from 'co2e-engine/datasets';
 * const ccf = loadCcfCoefficients('ccf-coefficients/output', { coefficients: { base: defaultTables.cloudCoefficients } });
 * const datasets = { ...defaultDatasets, ...createTableDatasets({ cloudInstances: ccf.cloudInstances, cloudCoefficients: ccf.cloudCoefficients }) };
 * ```
 * @throws {@link DatasetError} for a missing folder, a provider with only one of its two files, no provider at all, and
 *   everything the parsers refuse.
 */
export function loadCcfCoefficients(
  folder: string,
  options: LoadCcfCoefficientsOptions = {},
): LoadedCcfCoefficients {
  if (!statOf(folder)?.isDirectory()) throw new DatasetError(folder, '', 'no such folder');
  const present = (name: string) => statOf(join(folder, name))?.isFile() === true;
  const texts: string[] = [];
  const read = (name: string) => {
    const text = readText(join(folder, name));
    texts.push(name, text);
    return text;
  };
  const pair = <P extends CloudProvider>(provider: P, names: Record<string, string>) => {
    const found = Object.values(names).filter(present);
    if (found.length === 0) return undefined;
    if (found.length !== Object.keys(names).length) {
      const missing = Object.values(names).filter((name) => !present(name));
      throw new DatasetError(
        folder,
        '',
        `${provider}: ${found.join(', ')} found but not ${missing.join(', ')}; both are needed`,
      );
    }
    return Object.fromEntries(Object.entries(names).map(([key, name]) => [key, read(name)]));
  };
  const files: CcfInstanceFiles = {};
  const aws = pair('aws', CCF_INSTANCE_FILES.aws);
  const azure = pair('azure', CCF_INSTANCE_FILES.azure);
  const gcp = pair('gcp', CCF_INSTANCE_FILES.gcp);
  if (aws) files.aws = aws as NonNullable<CcfInstanceFiles['aws']>;
  if (azure) files.azure = azure as NonNullable<CcfInstanceFiles['azure']>;
  if (gcp) files.gcp = gcp as NonNullable<CcfInstanceFiles['gcp']>;
  if (texts.length === 0) {
    const expected = Object.values(CCF_INSTANCE_FILES).flatMap((names) => Object.values(names));
    throw new DatasetError(
      folder,
      '',
      `no ccf-coefficients instance files; expected pairs of ${expected.join(', ')}`,
    );
  }
  const version = `content-${factorId(texts).slice(0, 16)}`;
  const meta: TableMeta<'cloudInstances'> = {
    dataset: {
      id: 'ccf-coefficients-instances',
      version,
      source: 'CCF',
      source_dataset: `ccf-coefficients (Teads method, SPECpower), files of ${basename(folder)}`,
      licence: 'Apache-2.0',
      attribution: CCF_ATTRIBUTION,
    },
    default_year: 2021,
    gwp: 'ar4',
    years: [2021, 2022, 2023, 2024, 2025],
    ...options.instances,
  };
  const instances = parseCcfInstances(files, meta);
  if (options.coefficients === undefined) return { ...instances, watts: {} };
  return { ...instances, ...useWatts(folder, options.coefficients) };
}

function useWatts(folder: string, options: NonNullable<LoadCcfCoefficientsOptions['coefficients']>) {
  const base = CloudCoefficientsTable.safeParse(options.base);
  if (!base.success) {
    const issue = base.error.issues[0];
    throw new DatasetError(
      'coefficients.base',
      issue?.path.map(String).join('.') ?? '',
      issue ? describeIssue(issue, options.base, undefined) : 'invalid',
    );
  }
  const providers = { ...base.data.providers };
  const watts: Partial<Record<CloudProvider, CcfUseWatts>> = {};
  const texts: string[] = [];
  for (const provider of CLOUD_PROVIDERS) {
    const name = `coefficients-${provider}-use.csv`;
    const current = providers[provider];
    if (current === undefined || !statOf(join(folder, name))?.isFile()) continue;
    const text = readText(join(folder, name));
    texts.push(name, text);
    const average = parseCcfUseCoefficients(text, {
      file: join(folder, name),
      average: options.average ?? 'mean',
      ...(options.architectures?.[provider] && { architectures: options.architectures[provider] }),
    });
    watts[provider] = average;
    providers[provider] = { ...current, min_watts: average.min_watts, max_watts: average.max_watts };
  }
  if (texts.length === 0)
    throw new DatasetError(
      folder,
      '',
      'no coefficients-<provider>-use.csv for a provider of coefficients.base',
    );
  const how = options.average ?? 'mean';
  const cloudCoefficients: CloudCoefficientsTable = {
    dataset: {
      ...base.data.dataset,
      id: `${base.data.dataset.id}+ccf-use`,
      version: `${base.data.dataset.version}+content-${factorId([how, ...texts]).slice(0, 16)}`,
      source_dataset: `${base.data.dataset.source_dataset}; watts per vCPU: ${how} over architectures of ccf-coefficients ${Object.keys(
        watts,
      )
        .map((provider) => `coefficients-${provider}-use.csv`)
        .join(', ')}`,
      attribution: `${base.data.dataset.attribution} Watts per vCPU: ${CCF_ATTRIBUTION}`,
      ...options.dataset,
    },
    providers,
  };
  return { cloudCoefficients: CloudCoefficientsTable.parse(cloudCoefficients), watts };
}
