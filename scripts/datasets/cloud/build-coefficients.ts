/**
 * Builds `datasets/cloud/coefficients.json`: CCF's per-provider energy coefficients (the constants of DESIGN.md §3,
 * checked against CCF's provider_constants.json) with the GPU watts of `../cloud-gpus.ts`. Runnable alone:
 *
 *   npx tsx scripts/datasets/cloud/build-coefficients.ts
 */
import { join } from 'node:path';
import * as z from 'zod';
import { CLOUD_PROVIDERS, CloudCoefficientsTable, type CloudProvider } from '../../../src/datasets/tables';
import { withGpuWatts } from '../cloud-gpus';
import { assert, isMain, readJson, sharedPath, writeJson } from '../lib';
import { CCF_ATTRIBUTION, CCF_TRUNK, CLOUD_OUT_DIR } from './lib';

export const COEFFICIENTS_FILE = 'coefficients.json';

const ProviderConstantsSchema = z.object({
  SSDCOEFFICIENT: z.number(),
  HDDCOEFFICIENT: z.number(),
  MEMORY_COEFFICIENT: z.number(),
  NETWORKING_COEFFICIENT: z.number(),
  PUE_AVG: z.number(),
  SERVER_EXPECTED_LIFESPAN: z.number(),
  MIN_WATTS_AVG: z.number().optional(),
  MAX_WATTS_AVG: z.number().optional(),
  MIN_WATTS_MEDIAN: z.number().optional(),
  MAX_WATTS_MEDIAN: z.number().optional(),
});
type ProviderConstants = z.infer<typeof ProviderConstantsSchema>;

const ProviderConstantsFileSchema = z.object({
  ccf_trunk_2024_03: z.object({
    aws: ProviderConstantsSchema,
    azure: ProviderConstantsSchema,
    gcp: ProviderConstantsSchema,
  }),
});

/** DESIGN.md §3: the constants of the embedded default. */
const DESIGN_COEFFICIENTS: Record<CloudProvider, { min_watts: number; max_watts: number; pue: number }> = {
  aws: { min_watts: 0.74, max_watts: 3.5, pue: 1.135 },
  azure: { min_watts: 0.78, max_watts: 3.76, pue: 1.185 },
  gcp: { min_watts: 0.71, max_watts: 4.26, pue: 1.1 },
};
const DESIGN_SHARED = {
  memory_kwh_per_gb_hour: 0.000392,
  ssd_wh_per_tb_hour: 1.2,
  hdd_wh_per_tb_hour: 0.65,
  networking_kwh_per_gb: 0.001,
  server_lifetime_hours: 35040,
};

/**
 * Watts per vCPU, min/max. Source: CCF methodology, Appendix I: energy coefficients
 * (cloudcarbonfootprint.org/docs/methodology). The CCF code (provider_constants.json) agrees for AWS but uses
 * 0.74/3.54 for Azure (averages) and 0.68/4.11 for GCP (medians); `CODE_WATTS` pins those so this note stays true.
 */
const DOCS_WATTS: Record<CloudProvider, readonly [number, number]> = {
  aws: [0.74, 3.5],
  azure: [0.78, 3.76],
  gcp: [0.71, 4.26],
};
const CODE_WATTS: Record<CloudProvider, readonly [number, number]> = {
  aws: [0.74, 3.5],
  azure: [0.74, 3.54],
  gcp: [0.68, 4.11],
};

function codeWatts(constants: ProviderConstants): [number | undefined, number | undefined] {
  return [
    constants.MIN_WATTS_AVG ?? constants.MIN_WATTS_MEDIAN,
    constants.MAX_WATTS_AVG ?? constants.MAX_WATTS_MEDIAN,
  ];
}

function sameValue(label: string, fromFile: number | undefined, expected: number): number {
  assert(fromFile === expected, `${label}: source has ${String(fromFile)}, DESIGN.md §3 says ${expected}`);
  return expected;
}

function buildCcfCoefficients(): CloudCoefficientsTable {
  const constants = ProviderConstantsFileSchema.parse(
    readJson(sharedPath('ccf/provider_constants.json')),
  ).ccf_trunk_2024_03;
  const providers: CloudCoefficientsTable['providers'] = {};
  for (const provider of CLOUD_PROVIDERS) {
    const c = constants[provider];
    const design = DESIGN_COEFFICIENTS[provider];
    const [codeMin, codeMax] = codeWatts(c);
    assert(
      codeMin === CODE_WATTS[provider][0] && codeMax === CODE_WATTS[provider][1],
      `${provider}: CCF code watts are now ${codeMin}/${codeMax}; update CODE_WATTS and SOURCES.md`,
    );
    const [docsMin, docsMax] = DOCS_WATTS[provider];
    providers[provider] = {
      min_watts: sameValue(`${provider} min watts`, docsMin, design.min_watts),
      max_watts: sameValue(`${provider} max watts`, docsMax, design.max_watts),
      pue: sameValue(`${provider} PUE_AVG`, c.PUE_AVG, design.pue),
      memory_kwh_per_gb_hour: sameValue(
        `${provider} MEMORY_COEFFICIENT`,
        c.MEMORY_COEFFICIENT,
        DESIGN_SHARED.memory_kwh_per_gb_hour,
      ),
      ssd_wh_per_tb_hour: sameValue(
        `${provider} SSDCOEFFICIENT`,
        c.SSDCOEFFICIENT,
        DESIGN_SHARED.ssd_wh_per_tb_hour,
      ),
      hdd_wh_per_tb_hour: sameValue(
        `${provider} HDDCOEFFICIENT`,
        c.HDDCOEFFICIENT,
        DESIGN_SHARED.hdd_wh_per_tb_hour,
      ),
      networking_kwh_per_gb: sameValue(
        `${provider} NETWORKING_COEFFICIENT`,
        c.NETWORKING_COEFFICIENT,
        DESIGN_SHARED.networking_kwh_per_gb,
      ),
      server_lifetime_hours: sameValue(
        `${provider} SERVER_EXPECTED_LIFESPAN`,
        c.SERVER_EXPECTED_LIFESPAN,
        DESIGN_SHARED.server_lifetime_hours,
      ),
    };
  }
  return CloudCoefficientsTable.parse({
    dataset: {
      id: 'ccf-coefficients',
      version: '2024.03-docs',
      source: 'CCF',
      source_dataset: 'Cloud Carbon Footprint methodology',
      licence: 'Apache-2.0',
      attribution:
        `${CCF_ATTRIBUTION}. Watts per vCPU from the CCF methodology documentation (Appendix I); PUE, memory, ` +
        `storage, networking and lifetime coefficients from the CCF code (trunk ${CCF_TRUNK}, 2024-03).`,
    },
    providers,
  });
}

/** The coefficients table as written: CCF's coefficients with the GPU watts. */
export function buildCoefficients(): CloudCoefficientsTable {
  return withGpuWatts(buildCcfCoefficients());
}

/** Builds and writes the table to `outDir`; returns the path written. */
export function writeCoefficients(outDir: string = CLOUD_OUT_DIR): string {
  const path = join(outDir, COEFFICIENTS_FILE);
  writeJson(path, buildCoefficients());
  return path;
}

if (isMain(import.meta.url)) writeCoefficients();
