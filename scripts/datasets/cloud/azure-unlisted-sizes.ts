/**
 * Azure sizes no instance source has (issue 22 item 4): the Dv6 and Ev6 series (Intel and AMD, 2024–2025) and the
 * Arm sizes (Dpsv5, Epsv5 … on Ampere Altra; Dpsv6, Epsv6 … on Azure Cobalt 100). ccf-coefficients (b0032d9) and the
 * CCF app (trunk b7a049c7) end at v5 and have no Arm sizes. Most v6 series are now derived from their platforms'
 * specs (`platform-specs.ts`, issue 38); the rest are listed as excluded, with the reason, so a request for one says
 * why.
 *
 * Names only (facts), by series, from microsoft/aspire commit 59d405ff (2026-08-21),
 * `src/Aspire.Hosting.Azure.Kubernetes/AksNodeVmSizes.Generated.cs` (MIT), which its GenVmSizes tool generates from
 * Azure Resource SKUs across the public regions (sizes of 2 vCPUs or more; none of these series is smaller).
 */
import type { InstanceTable } from '../cloud-instance-additions';

export const SOURCE_AZURE_SIZES =
  'microsoft/aspire 59d405ff src/Aspire.Hosting.Azure.Kubernetes/AksNodeVmSizes.Generated.cs (Azure Resource SKUs)';

const NO_SOURCE =
  'in no instance source: ccf-coefficients (b0032d9) and the CCF app (b7a049c7) end at v5, and the platform specs table (issue 38) leaves out this series (network-optimised, isolated and constrained-vCPU v6 sizes)';
const NO_ARM =
  'Arm on Ampere Altra (v5): no Arm platform in ccf-coefficients (b0032d9) or the CCF app (b7a049c7), and the platform specs table (issue 38) has only Cobalt 100 (v6)';

/**
 * Sizes by series, as the source lists them: `[series, letter, suffix, sizes]`, each size of the space-separated
 * list standing for `Standard_<letter><size><suffix>` (`'D', 'ps_v6', '2'` is `Standard_D2ps_v6`; a constrained-vCPU
 * size is `16-4`).
 */
export const AZURE_UNLISTED_SIZES: ReadonlyArray<
  readonly [series: string, letter: 'D' | 'E', suffix: string, sizes: string]
> = [
  ['Dadsv6', 'D', 'ads_v6', '2 4 8 16 32 48 64 96'],
  ['Daldsv6', 'D', 'alds_v6', '2 4 8 16 32 48 64 96'],
  ['Dalsv6', 'D', 'als_v6', '2 4 8 16 32 48 64 96'],
  ['Dasv6', 'D', 'as_v6', '2 4 8 16 32 48 64 96'],
  ['Ddsv6', 'D', 'ds_v6', '2 4 8 16 32 48 64 96 128 192'],
  ['Dldsv6', 'D', 'lds_v6', '2 4 8 16 32 48 64 96 128'],
  ['Dlsv6', 'D', 'ls_v6', '2 4 8 16 32 48 64 96 128'],
  ['Dndsv6', 'D', 'nds_v6', '2 4 8 16 32 48 64 96 128'],
  ['Dnldsv6', 'D', 'nlds_v6', '2 4 8 16 32 48 64 96 128'],
  ['Dnlsv6', 'D', 'nls_v6', '2 4 8 16 32 48 64 96 128'],
  ['Dnsv6', 'D', 'ns_v6', '2 4 8 16 32 48 64 96 128'],
  ['Dsv6', 'D', 's_v6', '2 4 8 16 32 48 64 96 128 192'],
  ['Eadsv6', 'E', 'ads_v6', '2 4 8 16 20 32 48 64 96-24 96-48 96'],
  ['Easv6', 'E', 'as_v6', '2 4 8 16 20 32 48 64 96'],
  [
    'Edsv6',
    'E',
    'ds_v6',
    '2 4-2 4 8-2 8-4 8 16-4 16-8 16 20 32-16 32-8 32 48 64-16 64-32 64 96-24 96-48 96 128-32 128-64 128',
  ],
  ['Eidsv6', 'E', 'ids_v6', '192'],
  ['Eisv6', 'E', 'is_v6', '192'],
  ['Endsv6', 'E', 'nds_v6', '2 4 8 16 32 48 64 96 128'],
  ['Ensv6', 'E', 'ns_v6', '2 4 8 16 32 48 64 96 128'],
  [
    'Esv6',
    'E',
    's_v6',
    '2 4-2 4 8-2 8-4 8 16-4 16-8 16 20 32-16 32-8 32 48 64-16 64-32 64 96-24 96-48 96 128-32 128-64 128',
  ],
  ['Dpdsv5', 'D', 'pds_v5', '2 4 8 16 32 48 64'],
  ['Dpdsv6', 'D', 'pds_v6', '2 4 8 16 32 48 64 96'],
  ['Dpldsv5', 'D', 'plds_v5', '2 4 8 16 32 48 64'],
  ['Dpldsv6', 'D', 'plds_v6', '2 4 8 16 32 48 64 96'],
  ['Dplsv5', 'D', 'pls_v5', '2 4 8 16 32 48 64'],
  ['Dplsv6', 'D', 'pls_v6', '2 4 8 16 32 48 64 96'],
  ['Dpsv5', 'D', 'ps_v5', '2 4 8 16 32 48 64'],
  ['Dpsv6', 'D', 'ps_v6', '2 4 8 16 32 48 64 96'],
  ['Epdsv5', 'E', 'pds_v5', '2 4 8 16 20 32'],
  ['Epdsv6', 'E', 'pds_v6', '2 4 8 16 32 48 64 96'],
  ['Epsv5', 'E', 'ps_v5', '2 4 8 16 20 32'],
  ['Epsv6', 'E', 'ps_v6', '2 4 8 16 32 48 64 96'],
];

/** Whether a series is an Arm one (`p` after the size number: Dpsv6, Epdsv5 …). */
const isArm = (series: string): boolean => /^[DE]p/.test(series);

/** Lists the sizes as excluded, unless the table has one (then it is not excluded). */
export function excludeAzureUnlisted(table: InstanceTable): void {
  for (const [series, letter, suffix, sizes] of AZURE_UNLISTED_SIZES)
    for (const size of sizes.split(' ').map((vcpu) => `Standard_${letter}${vcpu}${suffix}`))
      if (!table.has('azure', size))
        table.exclude('azure', size, SOURCE_AZURE_SIZES, isArm(series) ? NO_ARM : NO_SOURCE);
}
