/**
 * Platform specs of today's instance families (issue 38), for the Teads parts formula
 * (`src/cloud/factors/platform-embodied.ts`): what a family's host server has beyond its largest size's vCPUs and
 * memory, which come from the size lists (AWS and GCP: ccf-coefficients' 2026 lists in `../shared/data`, GCP C4D and
 * N4D: {@link GCP_TURIN_SIZES}; Azure: {@link AZURE_V6_SIZES}).
 *
 * TRANSCRIBED BY HAND from the providers' published specification pages named in each row (`source`); every row says
 * how its figures were reached (`note`). First written without network (2026-11-27, morning), then checked the same
 * day against the stored copies of the pages the search tool holds: the C4A `-lssd` drive count and the Azure H100
 * local disks were corrected, C4D and N4D added from Google's tables; the rows whose note says UNCONFIRMED (AWS g6
 * and g6e, GCP a3-ultragpu drive counts) could not be found in any stored copy (datasets/SOURCES.md). A change moves
 * the family's embodied figure by 100 kg per socket or SSD, 50 kg per HDD, 150 kg per GPU (of a platform that is
 * 1,000 kg or more).
 *
 * Conventions, as ccf-coefficients' own sheets take them:
 * - The platform is the family's largest size (AWS: its metal size where there is one); its memory is the provider's
 *   figure as written (GiB).
 * - Sockets: as many as the largest size needs for its vCPUs given the processor's published core count (a
 *   192-vCPU Sapphire Rapids platform of 48-core parts is 2 sockets); Intel Xeon platforms whose largest size fits one
 *   part are still 2, as ccf-coefficients' `*-instances-cpus.csv` gives every Intel microarchitecture 2.
 * - Local disks: the drives of the largest size. Azure's `d` sizes (local temporary disk) are 1 SSD, as
 *   ccf-coefficients' Azure sheet gives Ddsv4/Edsv4 (no Azure page states the host's drive count); others 0.
 * - GPUs: the GPUs of the largest size; each size's own count in `gpus_by_size`.
 */
import type { CloudProvider } from '../../../src/datasets/tables';

/** A family (or series) with its platform's parts beyond vCPUs and memory. */
export interface PlatformSpecRow {
  provider: CloudProvider;
  /**
   * The family as the build names it: AWS the part before the `.` (`m7i`), GCP the type without its size number
   * (`c3-standard`, `c3-standard-lssd`, `a3-highgpu`), Azure the size name without its number (`D#s_v6`).
   */
  family: string;
  /** Processor as the provider names it. */
  processor: string;
  /** CCF's microarchitecture name (ccf-coefficients `coefficients-*-use.csv`), for the CCF profile's watts. */
  microarchitecture: string;
  cpu_sockets: number;
  hdd_count: number;
  ssd_count: number;
  gpu_count: number;
  /** GPU model, as the coefficients' `gpu_watts` names it. */
  gpu_model?: string;
  /** GPUs per size, for GPU families (type → GPUs). */
  gpus_by_size?: Readonly<Record<string, number>>;
  /** The provider's specification page the figures were transcribed from. */
  source: string;
  /** How the sockets, disks and GPUs were reached. */
  note: string;
}

const AWS = (family: string) => `https://aws.amazon.com/ec2/instance-types/${family}/`;
const AWS_ACCELERATED = 'https://aws.amazon.com/ec2/instance-types/#Accelerated_Computing';
const GCP_GENERAL = 'https://cloud.google.com/compute/docs/general-purpose-machines';
const GCP_ACCELERATOR = 'https://cloud.google.com/compute/docs/accelerator-optimized-machines';
const AZURE = (path: string) => `https://learn.microsoft.com/azure/virtual-machines/sizes/${path}`;

const none = { hdd_count: 0, ssd_count: 0, gpu_count: 0 } as const;

const SPR_AWS = 'Intel Xeon Platinum 8488C (Sapphire Rapids, 48 cores)';
const GENOA_AWS = 'AMD EPYC 9R14 (Genoa, 96 cores, one thread per core)';
const GRANITE_AWS = 'Intel Xeon 6975P-C (Granite Rapids, 96 cores)';
const GRAVITON4 = 'AWS Graviton4 (96 cores)';
const MILAN_AWS = 'AMD EPYC 7R13 (Milan, 48 cores)';
/**
 * GCP's Turin part: Google names only "fifth generation AMD EPYC Turin"; the C4D VMs report the CPUID brand string
 * "AMD EPYC 9B45 128-Core Processor" (users' reports in public repositories, read through the search tool on
 * 2026-11-27; AMD publishes no sheet for this custom part).
 */
const TURIN_GCP = 'AMD EPYC 9B45 (Turin, 128 cores)';

const awsTwoSockets = (family: string, processor: string, microarchitecture: string, vcpu: number) => ({
  provider: 'aws' as const,
  family,
  processor,
  microarchitecture,
  cpu_sockets: 2,
  ...none,
  source: AWS(family),
  note: `EBS only; largest size ${vcpu} vCPUs = 2 sockets of the processor`,
});

/** p5: 8 H100 and 8 × 3.84 TB NVMe per p5.48xlarge; p5.4xlarge one H100. */
const P5_GPUS = { 'p5.4xlarge': 1, 'p5.48xlarge': 8 } as const;
/** g6 / g6e: 1 GPU up to 16xlarge (and 8xlarge), 4 at 12xlarge and 24xlarge, 8 at 48xlarge. */
const gSixGpus = (family: string) => ({
  [`${family}.xlarge`]: 1,
  [`${family}.2xlarge`]: 1,
  [`${family}.4xlarge`]: 1,
  [`${family}.8xlarge`]: 1,
  [`${family}.16xlarge`]: 1,
  [`${family}.12xlarge`]: 4,
  [`${family}.24xlarge`]: 4,
  [`${family}.48xlarge`]: 8,
});
/** GCP g2: L4s per size (g2-standard-4 … -96). */
const G2_GPUS = {
  'g2-standard-4': 1,
  'g2-standard-8': 1,
  'g2-standard-12': 1,
  'g2-standard-16': 1,
  'g2-standard-24': 2,
  'g2-standard-32': 1,
  'g2-standard-48': 4,
  'g2-standard-96': 8,
} as const;
/** GCP a3: the type's trailing `Ng` is its GPU count. */
const a3Gpus = (family: string) =>
  Object.fromEntries([1, 2, 4, 8].map((n) => [`${family}-${n}g`, n] as const));

export const PLATFORM_SPECS: readonly PlatformSpecRow[] = [
  // --- AWS 7th and 8th generation (sizes: ccf-coefficients aws-instances-latest-2026.csv)
  awsTwoSockets('m7i', SPR_AWS, 'Sapphire Rapids', 192),
  awsTwoSockets('c7i', SPR_AWS, 'Sapphire Rapids', 192),
  awsTwoSockets('r7i', SPR_AWS, 'Sapphire Rapids', 192),
  awsTwoSockets('m7a', GENOA_AWS, 'EPYC 4th Gen', 192),
  awsTwoSockets('c7a', GENOA_AWS, 'EPYC 4th Gen', 192),
  awsTwoSockets('r7a', GENOA_AWS, 'EPYC 4th Gen', 192),
  awsTwoSockets('m8i', GRANITE_AWS, 'Granite Rapids', 384),
  awsTwoSockets('c8i', GRANITE_AWS, 'Granite Rapids', 384),
  awsTwoSockets('r8i', GRANITE_AWS, 'Granite Rapids', 384),
  awsTwoSockets('m8g', GRAVITON4, 'Graviton4', 192),
  awsTwoSockets('c8g', GRAVITON4, 'Graviton4', 192),
  awsTwoSockets('r8g', GRAVITON4, 'Graviton4', 192),
  {
    provider: 'aws',
    family: 'i7ie',
    processor: 'Intel Xeon Platinum 8559C (Emerald Rapids, 48 cores)',
    microarchitecture: 'Emerald Rapids',
    cpu_sockets: 2,
    hdd_count: 0,
    ssd_count: 16,
    gpu_count: 0,
    source: AWS('i7ie'),
    note: 'i7ie.48xlarge / metal-48xl: 192 vCPUs = 2 sockets, 16 × 7,500 GB NVMe SSD',
  },
  {
    provider: 'aws',
    family: 'g6',
    processor: MILAN_AWS,
    microarchitecture: 'EPYC 3rd Gen',
    cpu_sockets: 2,
    hdd_count: 0,
    ssd_count: 8,
    gpu_count: 8,
    gpu_model: 'Nvidia L4',
    gpus_by_size: gSixGpus('g6'),
    source: AWS('g6'),
    note: 'g6.48xlarge: 192 vCPUs = 2 sockets, 8 NVIDIA L4, 8 local NVMe SSDs (UNCONFIRMED: no stored copy of the AWS page states the drive count; datasets/SOURCES.md)',
  },
  {
    provider: 'aws',
    family: 'g6e',
    processor: MILAN_AWS,
    microarchitecture: 'EPYC 3rd Gen',
    cpu_sockets: 2,
    hdd_count: 0,
    ssd_count: 4,
    gpu_count: 8,
    gpu_model: 'Nvidia L40S',
    gpus_by_size: gSixGpus('g6e'),
    source: AWS('g6e'),
    note: 'g6e.48xlarge: 192 vCPUs = 2 sockets, 8 NVIDIA L40S, 4 × 1,900 GB NVMe SSD (UNCONFIRMED: no stored copy of the AWS page states the drive count; datasets/SOURCES.md)',
  },
  {
    provider: 'aws',
    family: 'p5',
    processor: MILAN_AWS,
    microarchitecture: 'EPYC 3rd Gen',
    cpu_sockets: 2,
    hdd_count: 0,
    ssd_count: 8,
    gpu_count: 8,
    gpu_model: 'Nvidia H100',
    gpus_by_size: P5_GPUS,
    source: AWS_ACCELERATED,
    note: 'p5.48xlarge: 192 vCPUs = 2 sockets, 8 NVIDIA H100 (SXM), 8 × 3.84 TB NVMe SSD',
  },

  // --- GCP (sizes: ccf-coefficients gcp-instances-latest-2026.csv)
  ...gcpShapes('c3', 'Intel Xeon Platinum 8481C (Sapphire Rapids)', 'Sapphire Rapids', 2, GCP_GENERAL, {
    shapes: ['standard', 'highcpu', 'highmem', 'standard-metal', 'highcpu-metal', 'highmem-metal'],
    lssd: { 'standard-lssd': 12 },
    note: 'largest VM 176 vCPUs, metal 192 = 2 sockets of 48 cores × 2 threads; c3-standard-176-lssd 12 × 375 GiB',
  }),
  ...gcpShapes('c3d', 'AMD EPYC 9B14 (Genoa)', 'EPYC 4th Gen', 2, GCP_GENERAL, {
    shapes: ['standard', 'highcpu', 'highmem'],
    lssd: { 'standard-lssd': 32, 'highmem-lssd': 32 },
    note: '360 vCPUs = 2 sockets of 96 cores × 2 threads; -360-lssd sizes 32 × 375 GiB',
  }),
  ...gcpShapes('c4', 'Intel Xeon Platinum 8581C (Emerald Rapids)', 'Emerald Rapids', 2, GCP_GENERAL, {
    shapes: ['standard', 'highcpu', 'highmem'],
    note: '192 vCPUs = 2 sockets of 60 cores × 2 threads; Hyperdisk only',
  }),
  ...gcpShapes('c4a', 'Google Axion (Arm Neoverse V2)', 'Axion', 1, GCP_GENERAL, {
    shapes: ['standard', 'highcpu', 'highmem'],
    lssd: { 'standard-lssd': 16, 'highmem-lssd': 16 },
    note: '72 vCPUs, one per core, 1 socket; -72-lssd sizes 16 × 375 GiB Titanium SSD (Google, C4A tables)',
  }),
  ...gcpShapes('c4d', TURIN_GCP, 'EPYC 5th Gen', 2, GCP_GENERAL, {
    shapes: ['standard', 'highcpu', 'highmem', 'standard-metal', 'highcpu-metal', 'highmem-metal'],
    lssd: { 'standard-lssd': 32, 'highmem-lssd': 32 },
    note: '384 vCPUs, two threads per core = 192 cores = 2 sockets of the 128-core EPYC 9B45; -384-lssd sizes 32 × 375 GiB Titanium SSD; metal sizes 384 hardware threads (Google, C4D tables)',
  }),
  ...gcpShapes('n4d', TURIN_GCP, 'EPYC 5th Gen', 1, GCP_GENERAL, {
    shapes: ['standard', 'highcpu', 'highmem'],
    note: '96 vCPUs, two threads per core = 48 cores: fit one 128-core EPYC 9B45, 1 socket; Hyperdisk only, no Local SSD (Google, N4D tables)',
  }),
  ...gcpShapes('n4', 'Intel Xeon Platinum 8581C (Emerald Rapids)', 'Emerald Rapids', 2, GCP_GENERAL, {
    shapes: ['standard', 'highcpu', 'highmem'],
    note: 'largest 80 vCPUs; Intel platforms 2 sockets as ccf-coefficients counts them; Hyperdisk only',
  }),
  ...gcpShapes('t2a', 'Ampere Altra (Arm Neoverse N1)', 'Ampere Altra', 1, GCP_GENERAL, {
    shapes: ['standard'],
    note: '48 vCPUs, one per core, 1 socket; Persistent Disk only',
  }),
  {
    provider: 'gcp',
    family: 'g2-standard',
    processor: 'Intel Xeon (Cascade Lake)',
    microarchitecture: 'Cascade Lake',
    cpu_sockets: 2,
    hdd_count: 0,
    ssd_count: 8,
    gpu_count: 8,
    gpu_model: 'Nvidia L4',
    gpus_by_size: G2_GPUS,
    source: GCP_ACCELERATOR,
    note: 'g2-standard-96: 8 NVIDIA L4, 8 × 375 GiB local SSD; Cascade Lake 2 sockets as ccf-coefficients counts it',
  },
  ...(['highgpu', 'megagpu', 'edgegpu'] as const).map((shape): PlatformSpecRow => ({
    provider: 'gcp',
    family: `a3-${shape}`,
    processor: 'Intel Xeon Platinum 8481C (Sapphire Rapids)',
    microarchitecture: 'Sapphire Rapids',
    cpu_sockets: 2,
    hdd_count: 0,
    ssd_count: 16,
    gpu_count: 8,
    gpu_model: 'Nvidia H100',
    gpus_by_size: a3Gpus(`a3-${shape}`),
    source: GCP_ACCELERATOR,
    note: `a3-${shape}-8g: 208 vCPUs = 2 sockets, 8 NVIDIA H100 80GB, 16 × 375 GiB local SSD`,
  })),
  {
    provider: 'gcp',
    family: 'a3-ultragpu',
    processor: 'Intel Xeon Platinum 8580 (Emerald Rapids)',
    microarchitecture: 'Emerald Rapids',
    cpu_sockets: 2,
    hdd_count: 0,
    ssd_count: 32,
    gpu_count: 8,
    gpu_model: 'Nvidia H200',
    gpus_by_size: a3Gpus('a3-ultragpu'),
    source: GCP_ACCELERATOR,
    note: "a3-ultragpu-8g: 224 vCPUs = 2 sockets, 8 NVIDIA H200 141GB, 32 × 375 GiB local SSD (UNCONFIRMED: no stored copy of Google's accelerator page states it; datasets/SOURCES.md)",
  },

  // --- Azure v6 (sizes: AZURE_V6_SIZES)
  ...azureSeries(
    ['s_v6', 'ls_v6', 'ds_v6', 'lds_v6'],
    'D',
    'Intel Xeon Platinum 8573C (Emerald Rapids)',
    'Emerald Rapids',
    2,
    'general-purpose/dsv6-series',
    'D192s_v6: 192 vCPUs = 2 sockets of 48 cores × 2 threads',
  ),
  ...azureSeries(
    ['s_v6', 'ds_v6'],
    'E',
    'Intel Xeon Platinum 8573C (Emerald Rapids)',
    'Emerald Rapids',
    2,
    'memory-optimized/esv6-series',
    'E128s_v6: 128 vCPUs on the Emerald Rapids platform, 2 sockets',
  ),
  ...azureSeries(
    ['as_v6', 'als_v6', 'ads_v6', 'alds_v6'],
    'D',
    'AMD EPYC 9004 (Genoa)',
    'EPYC 4th Gen',
    1,
    'general-purpose/dasv6-series',
    'D96as_v6: 96 vCPUs fit one 96-core EPYC 9004: 1 socket',
  ),
  ...azureSeries(
    ['as_v6', 'ads_v6'],
    'E',
    'AMD EPYC 9004 (Genoa)',
    'EPYC 4th Gen',
    1,
    'memory-optimized/easv6-series',
    'E96as_v6: 96 vCPUs fit one 96-core EPYC 9004: 1 socket',
  ),
  ...azureSeries(
    ['as_v6', 'als_v6', 'ams_v6'],
    'F',
    'AMD EPYC 9004 (Genoa)',
    'EPYC 4th Gen',
    1,
    'compute-optimized/fasv6-series',
    'F64as_v6: 64 vCPUs, one per core, on one EPYC 9004: 1 socket',
  ),
  ...azureSeries(
    ['ps_v6', 'pls_v6', 'pds_v6', 'plds_v6'],
    'D',
    'Azure Cobalt 100 (Arm Neoverse N2, 128 cores)',
    'Cobalt 100',
    1,
    'general-purpose/dpsv6-series',
    'D96ps_v6: 96 vCPUs on one 128-core Cobalt 100: 1 socket',
  ),
  ...azureSeries(
    ['ps_v6', 'pds_v6'],
    'E',
    'Azure Cobalt 100 (Arm Neoverse N2, 128 cores)',
    'Cobalt 100',
    1,
    'memory-optimized/epsv6-series',
    'E96ps_v6: 96 vCPUs on one 128-core Cobalt 100: 1 socket',
  ),
  // --- Azure GPU sizes (AZURE_GPU_SIZES)
  {
    provider: 'azure',
    family: 'NC#ads_H100_v5',
    processor: 'AMD EPYC 9V84 (Genoa, 96 cores)',
    microarchitecture: 'EPYC 4th Gen',
    cpu_sockets: 1,
    hdd_count: 0,
    ssd_count: 1,
    gpu_count: 2,
    gpu_model: 'Nvidia H100 NVL',
    gpus_by_size: { Standard_NC40ads_H100_v5: 1, Standard_NC80adis_H100_v5: 2 },
    source: AZURE('gpu-accelerated/ncadsh100v5-series'),
    note: 'NC80adis_H100_v5: 80 vCPUs, one per core, on one 96-core EPYC: 1 socket; 2 NVIDIA PCIe H100 (94GB); 1 local temp disk of 7,152 GiB, no NVMe disks (Azure size page)',
  },
  {
    provider: 'azure',
    family: 'ND#isr_H100_v5',
    processor: 'Intel Xeon Platinum 8480C (Sapphire Rapids)',
    microarchitecture: 'Sapphire Rapids',
    cpu_sockets: 2,
    hdd_count: 0,
    ssd_count: 9,
    gpu_count: 8,
    gpu_model: 'Nvidia H100',
    gpus_by_size: { Standard_ND96isr_H100_v5: 8 },
    source: AZURE('gpu-accelerated/ndh100v5-series'),
    note: 'ND96isr_H100_v5: 96 vCPUs, 2 sockets, 8 NVIDIA H100 (80GB); local drives as the Azure page counts them: 1 temp disk (1,024 GiB) + 8 NVMe disks (28 TiB) = 9',
  },
  {
    provider: 'azure',
    family: 'NV#ads_A10_v5',
    processor: 'AMD EPYC 74F3V (Milan)',
    microarchitecture: 'EPYC 3rd Gen',
    cpu_sockets: 1,
    hdd_count: 0,
    ssd_count: 1,
    gpu_count: 2,
    gpu_model: 'Nvidia A10',
    gpus_by_size: { Standard_NV36ads_A10_v5: 1, Standard_NV36adms_A10_v5: 1, Standard_NV72ads_A10_v5: 2 },
    source: AZURE('gpu-accelerated/nvadsa10v5-series'),
    note: 'NV72ads_A10_v5: 72 vCPUs, 1 socket, 2 NVIDIA A10; local temporary disk: 1 SSD as for the d sizes',
  },
];

/**
 * Azure GPU sizes of issue 38 (name, vCPUs, memory GiB), transcribed by hand from the Azure size pages named in their
 * PLATFORM_SPECS rows, and checked against the Resource SKU list of aspire 59d405ff (same vCPUs, memory and GPU
 * counts). Sizes with a fraction of one GPU (NV6ads_A10_v5 1/6, NV12ads 1/3, NV18ads 1/2; the SKU list says 1) are
 * left out: GPU counts are whole.
 */
export const AZURE_GPU_SIZES: ReadonlyArray<readonly [name: string, vcpu: number, memory: number]> = [
  ['Standard_NC40ads_H100_v5', 40, 320],
  ['Standard_NC80adis_H100_v5', 80, 640],
  ['Standard_ND96isr_H100_v5', 96, 1900],
  ['Standard_NV36ads_A10_v5', 36, 440],
  ['Standard_NV36adms_A10_v5', 36, 880],
  ['Standard_NV72ads_A10_v5', 72, 880],
];

/** Azure sizes of one series whose names add a letter (i: isolated, m: more memory), on the series' platform. */
export const AZURE_SERIES_ALIASES: Readonly<Record<string, string>> = {
  'NC#adis_H100_v5': 'NC#ads_H100_v5',
  'NV#adms_A10_v5': 'NV#ads_A10_v5',
};

function gcpShapes(
  series: string,
  processor: string,
  microarchitecture: string,
  sockets: number,
  source: string,
  { shapes, lssd = {}, note }: { shapes: string[]; lssd?: Record<string, number>; note: string },
): PlatformSpecRow[] {
  const rows = shapes.map((shape) => ({ shape, ssd: 0 }));
  for (const [shape, ssd] of Object.entries(lssd)) rows.push({ shape, ssd });
  return rows.map(({ shape, ssd }) => ({
    provider: 'gcp',
    family: `${series}-${shape}`,
    processor,
    microarchitecture,
    cpu_sockets: sockets,
    hdd_count: 0,
    ssd_count: ssd,
    gpu_count: 0,
    source,
    note,
  }));
}

function azureSeries(
  suffixes: string[],
  letter: 'D' | 'E' | 'F',
  processor: string,
  microarchitecture: string,
  sockets: number,
  page: string,
  note: string,
): PlatformSpecRow[] {
  return suffixes.map((suffix) => {
    const local = /d/.test(suffix.replace('_v6', '').slice(0, -1));
    return {
      provider: 'azure',
      family: `${letter}#${suffix}`,
      processor,
      microarchitecture,
      cpu_sockets: sockets,
      hdd_count: 0,
      ssd_count: local ? 1 : 0,
      gpu_count: 0,
      source: AZURE(page),
      note: `${note}; ${local ? 'local temporary disk: 1 SSD' : 'remote disks only'}`,
    };
  });
}

/**
 * Azure v6 sizes (vCPUs and memory in GiB), by series: `[letter, suffix, 'vcpu:memory …']`, each size standing for
 * `Standard_<letter><vcpu><suffix>`. Read from microsoft/aspire commit 59d405ff (2026-08-21),
 * `src/Aspire.Hosting.Azure.Kubernetes/AksNodeVmSizes.Generated.cs` (MIT), which its GenVmSizes tool generates from
 * Azure Resource SKUs across the public regions (the same source as `azure-unlisted-sizes.ts`); read on 2026-11-27
 * from a local mirror of that repository. Constrained-vCPU sizes (`E96-24s_v6`) apart.
 */
export const AZURE_V6_SIZES: ReadonlyArray<
  readonly [letter: 'D' | 'E' | 'F', suffix: string, sizes: string]
> = [
  ['D', 'ads_v6', '2:8 4:16 8:32 16:64 32:128 48:192 64:256 96:384'],
  ['D', 'alds_v6', '2:4 4:8 8:16 16:32 32:64 48:96 64:128 96:192'],
  ['D', 'als_v6', '2:4 4:8 8:16 16:32 32:64 48:96 64:128 96:192'],
  ['D', 'as_v6', '2:8 4:16 8:32 16:64 32:128 48:192 64:256 96:384'],
  ['D', 'ds_v6', '2:8 4:16 8:32 16:64 32:128 48:192 64:256 96:384 128:512 192:768'],
  ['D', 'lds_v6', '2:4 4:8 8:16 16:32 32:64 48:96 64:128 96:192 128:256'],
  ['D', 'ls_v6', '2:4 4:8 8:16 16:32 32:64 48:96 64:128 96:192 128:256'],
  ['D', 'pds_v6', '2:8 4:16 8:32 16:64 32:128 48:192 64:256 96:384'],
  ['D', 'plds_v6', '2:4 4:8 8:16 16:32 32:64 48:96 64:128 96:192'],
  ['D', 'pls_v6', '2:4 4:8 8:16 16:32 32:64 48:96 64:128 96:192'],
  ['D', 'ps_v6', '2:8 4:16 8:32 16:64 32:128 48:192 64:256 96:384'],
  ['D', 's_v6', '2:8 4:16 8:32 16:64 32:128 48:192 64:256 96:384 128:512 192:768'],
  ['E', 'ads_v6', '2:16 4:32 8:64 16:128 20:160 32:256 48:384 64:512 96:672'],
  ['E', 'as_v6', '2:16 4:32 8:64 16:128 20:160 32:256 48:384 64:512 96:672'],
  ['E', 'ds_v6', '2:16 4:32 8:64 16:128 20:160 32:256 48:384 64:512 96:768 128:1024'],
  ['E', 'pds_v6', '2:16 4:32 8:64 16:128 32:256 48:384 64:512 96:672'],
  ['E', 'ps_v6', '2:16 4:32 8:64 16:128 32:256 48:384 64:512 96:672'],
  ['E', 's_v6', '2:16 4:32 8:64 16:128 20:160 32:256 48:384 64:512 96:768 128:1024'],
  ['F', 'als_v6', '2:4 4:8 8:16 16:32 32:64 48:96 64:128'],
  ['F', 'ams_v6', '2:16 4:32 8:64 16:128 32:256 48:384 64:512'],
  ['F', 'as_v6', '2:8 4:16 8:32 16:64 32:128 48:192 64:256'],
];

/**
 * GCP C4D and N4D sizes (vCPUs and memory in GB as Google writes it), which ccf-coefficients' 2026 GCP list predates:
 * `[family, suffix, 'vcpu:memory …']`, each size standing for `<family>-<vcpu><suffix>` (`c4d-standard-8-lssd`).
 * Transcribed from Google's "General-purpose machine family for Compute Engine" page
 * (https://cloud.google.com/compute/docs/general-purpose-machines, tables "C4D standard/highcpu/highmem", their
 * `-lssd` and `-metal` rows, and "N4D standard/highcpu/highmem"), read on 2026-11-27 from the copy the search tool
 * stores. `n4d-highcpu-48` is 90 GB as the page writes it (2 GB per vCPU would give 96).
 */
export const GCP_TURIN_SIZES: ReadonlyArray<
  readonly [family: string, suffix: '' | '-lssd' | '-metal', sizes: string]
> = [
  ['c4d-standard', '', '2:7 4:15 8:31 16:62 32:124 48:186 64:248 96:372 192:744 384:1488'],
  ['c4d-highcpu', '', '2:3 4:7 8:15 16:30 32:60 48:90 64:120 96:180 192:360 384:720'],
  ['c4d-highmem', '', '2:15 4:31 8:63 16:126 32:252 48:378 64:504 96:756 192:1512 384:3024'],
  ['c4d-standard', '-lssd', '8:31 16:62 32:124 48:186 64:248 96:372 192:744 384:1488'],
  ['c4d-highmem', '-lssd', '8:63 16:126 32:252 48:378 64:504 96:756 192:1512 384:3024'],
  ['c4d-standard', '-metal', '384:1536'],
  ['c4d-highcpu', '-metal', '384:768'],
  ['c4d-highmem', '-metal', '384:3072'],
  ['n4d-standard', '', '2:8 4:16 8:32 16:64 32:128 48:192 64:256 80:320 96:384'],
  ['n4d-highcpu', '', '2:4 4:8 8:16 16:32 32:64 48:90 64:128 80:160 96:192'],
  ['n4d-highmem', '', '2:16 4:32 8:64 16:128 32:256 48:384 64:512 80:640 96:768'],
];

/** The GCP types of {@link GCP_TURIN_SIZES}, by name. */
export function gcpTurinSizes(): { instance: string; vcpu: number; memory_gib: number }[] {
  return GCP_TURIN_SIZES.flatMap(([family, suffix, list]) =>
    list.split(' ').map((size) => {
      const [vcpu, memory] = size.split(':').map(Number) as [number, number];
      return { instance: `${family}-${vcpu}${suffix}`, vcpu, memory_gib: memory };
    }),
  );
}

/**
 * Watts per GPU (idle / 100 %) for the GPU models of these families, which CCF's tables lack. Max: the vendor's
 * maximum board power (NVIDIA's product specifications: H100 SXM 700 W, H200 SXM 700 W, L4 72 W, L40S 350 W). Min:
 * max × 46/407, the idle-to-max ratio of CCF's own figure for the A100 (46/407 W), its newest data-centre GPU, as
 * vendors publish no idle power; rounded to 0.01 W.
 */
export const GPU_WATTS_ADDED: Readonly<Record<string, { max_watts: number; source: string }>> = {
  'Nvidia H100': { max_watts: 700, source: 'https://www.nvidia.com/en-us/data-center/h100/' },
  'Nvidia H200': { max_watts: 700, source: 'https://www.nvidia.com/en-us/data-center/h200/' },
  'Nvidia L4': { max_watts: 72, source: 'https://www.nvidia.com/en-us/data-center/l4/' },
  'Nvidia L40S': { max_watts: 350, source: 'https://www.nvidia.com/en-us/data-center/l40s/' },
  'Nvidia H100 NVL': { max_watts: 400, source: 'https://www.nvidia.com/en-us/data-center/h100/' },
  'Nvidia A10': { max_watts: 150, source: 'https://www.nvidia.com/en-us/data-center/products/a10-gpu/' },
};
