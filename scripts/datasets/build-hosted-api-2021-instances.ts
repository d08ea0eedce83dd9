import { join } from 'node:path';
import * as z from 'zod';
import { decimal, mul, toFixed, toNumber } from '../../src/core/decimal';
import { CloudInstancesTable } from '../../src/datasets/tables';
import { assert, isMain, readJson, repoPath, sharedPath, writeJson } from './lib';

/**
 * `datasets/cloud/instances-hosted-api-2021.json`: the instance table of `hostedApi2021Datasets`, with the hosted
 * API's embodied basis (issue 22 item 5; docs/api/calculate-embodied.md, "Difference from the hosted API").
 *
 * The hosted API's embodied figures are `TE₀.₁ · (vCPU / platform vCPU) · hours · 0.0000289`: the Teads sheet's
 * platform total to 0.1 kg and a per-hour constant of 0.0000289 in place of 1 / 35,040 h. That explains its three
 * known figures (t2.micro 1 h 0.0008894 kg, t3a.large 24 h 0.02327028, r5.2xlarge 24 h 0.12385962) to every digit.
 * With the 35,040 h lifetime of the coefficients, a platform figure of TE₀.₁ · 35,040 · 0.0000289 = TE₀.₁ · 1.012656
 * (exact) gives those figures.
 *
 * - TE₀.₁: the CCF app's platform figure (`shared/data/ccf/instance_types.json` `ec2_records`, t CO2e × 1000), to
 *   0.1 kg (half up): the Teads sheet's column as ccf-coefficients carried it until 9a91ba3 (2021-12), e.g.
 *   1477.2368 → 1477.2 for t2.micro.
 * - Only AWS types the app has a figure for change (the three known figures are AWS). Every other row, and every
 *   spec, is the default table's.
 */

const HOSTED_PER_LIFETIME = decimal('1.012656'); // 35,040 · 0.0000289

const AppSchema = z.object({
  aws: z.object({
    ec2_records: z.array(
      z.object({ instance_type: z.string(), platform_embodied_tco2e: z.number().nullable() }),
    ),
  }),
});

/** Builds the table from the committed default instance table and writes it to `outDir` (default `datasets/cloud/`). */
export function buildHostedApi2021Instances(options: { outDir?: string } = {}): void {
  const defaults = CloudInstancesTable.parse(readJson(repoPath('datasets/cloud/instances.json')));
  const app = AppSchema.parse(readJson(sharedPath('ccf/instance_types.json')));
  const teads = new Map<string, number>();
  for (const r of app.aws.ec2_records) {
    if (r.platform_embodied_tco2e === null || r.platform_embodied_tco2e === 0) continue;
    const kg = mul(decimal(r.platform_embodied_tco2e), decimal(1000));
    teads.set(r.instance_type.trim(), Number(toFixed(kg, 1)));
  }
  let changed = 0;
  const instances = defaults.instances.map((row) => {
    const total = row.provider === 'aws' ? teads.get(row.instance) : undefined;
    if (total === undefined) return row;
    changed++;
    return { ...row, platform_embodied_kgco2e: toNumber(mul(decimal(total), HOSTED_PER_LIFETIME)) };
  });
  const check = (instance: string, expected: number) => {
    const row = instances.find((r) => r.provider === 'aws' && r.instance === instance);
    assert(
      row?.platform_embodied_kgco2e === expected,
      `${instance}: ${row?.platform_embodied_kgco2e}, not ${expected}`,
    );
  };
  // 1477.2 · 1.012656, 1610.4 · 1.012656, 2142.9 · 1.012656 (the three known hosted figures' platforms).
  check('t2.micro', 1495.8954432);
  check('t3a.large', 1630.7812224);
  check('r5.2xlarge', 2170.0205424);
  const table = CloudInstancesTable.parse({
    ...defaults,
    dataset: {
      id: 'hosted-api-2021-instances',
      version: `${defaults.dataset.version}+teads0.1x0.0000289`,
      source: 'CCF',
      source_dataset: 'ccf-coefficients and CCF app instance tables, on the hosted API 2021 embodied basis',
      licence: 'Apache-2.0',
      attribution:
        `${defaults.dataset.attribution} Embodied figures of AWS types on the hosted API's 2021 basis: the CCF app's ` +
        'platform figures to 0.1 kg × 1.012656 (a per-hour amortisation of 0.0000289).',
    },
    instances,
  });
  console.log(`hosted-api-2021 instances: ${changed} AWS types on the hosted basis`);
  writeJson(join(options.outDir ?? repoPath('datasets/cloud'), 'instances-hosted-api-2021.json'), table);
}

if (isMain(import.meta.url)) buildHostedApi2021Instances();
