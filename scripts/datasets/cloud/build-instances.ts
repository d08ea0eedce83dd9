/**
 * Builds `datasets/cloud/instances.json`: CCF's ccf-coefficients instance tables, parsed by the loader users call,
 * with the newer types of `../cloud-instance-additions.ts` and the GPUs of `../cloud-gpus.ts`. Runnable alone:
 *
 *   npx tsx scripts/datasets/cloud/build-instances.ts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { instanceKey } from '../../../src/datasets/create';
import { CloudInstancesTable, type CloudProvider } from '../../../src/datasets/tables';
import { CCF_INSTANCE_FILES, parseCcfInstances } from '../../../src/loaders/parse-ccf-instances';
import { withGpus } from '../cloud-gpus';
import { excludeAzureUnlisted } from './azure-unlisted-sizes';
import { addPlatformDerived, familySizes } from './platform-derived';
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
} from '../cloud-instance-additions';
import {
  assert,
  byProviderThen,
  compareStrings,
  isMain,
  readCsv,
  readJson,
  sharedPath,
  writeJson,
} from '../lib';
import {
  assertUnique,
  CCF_ATTRIBUTION,
  CCF_COEFFICIENTS_COMMIT,
  CCF_TRUNK,
  CLOUD_OUT_DIR,
  countByProvider,
} from './lib';

export const INSTANCES_FILE = 'instances.json';

// ---------------------------------------------------------------------------------------------------------------
// 4. Instances: parsed by the same loader users call (src/loaders/parse-ccf-instances.ts), so both take the same
// decisions; this script adds the dataset description and prints what was dropped and why.

const COEFFICIENTS_DIR = 'ccf/ccf-coefficients';

function buildCcfInstances(): CloudInstancesTable {
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
  const aws2026 = readCsv(sharedPath(SOURCE_AWS_2026));
  addAws2026Instances(table, aws2026);
  // Today's families from their platforms' specs (scripts/datasets/cloud/platform-specs.ts, issue 38).
  const derived = addPlatformDerived(table, familySizes(aws2026, gcp2026));
  console.log(`  instances derived from platform specs: ${JSON.stringify(derived)}`);
  excludeGcp2026(table, gcp2026);
  excludeAzureUnlisted(table);
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
  return CloudInstancesTable.parse({
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

/** The table as written (with GPUs), checked: t2.micro as expected, ids unique as looked up (case-insensitive). */
export function buildInstances(): CloudInstancesTable {
  const instances = withGpus(buildCcfInstances());
  const t2micro = instances.instances.find((i) => i.provider === 'aws' && i.instance === 't2.micro');
  assert(t2micro?.vcpu === 1 && t2micro.memory_gib === 1, 'AWS t2.micro must have 1 vCPU and 1 GiB');
  assertUnique(
    'instances',
    instances.instances.map((i) => `${i.provider}/${instanceKey(i.provider, i.instance)}`),
  );
  return instances;
}

/** Builds and writes the table to `outDir`; returns the path written. */
export function writeInstances(outDir: string = CLOUD_OUT_DIR): string {
  const path = join(outDir, INSTANCES_FILE);
  writeJson(path, buildInstances());
  return path;
}

if (isMain(import.meta.url)) writeInstances();
