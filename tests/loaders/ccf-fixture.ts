/** Small ccf-coefficients CSVs in the repository's formats (columns as in its data/ and output/ folders). */

export const AWS_INSTANCES = [
  'Instance type,Release Date,Instance vCPU,Platform Total Number of vCPU,Platform CPU Name,Instance Memory (in GB),PkgWatt @ Idle',
  'm5.large,2017,2,96,Xeon Platinum 8175M,8,"0,29"',
  'a1.medium,2018,1,16,Graviton,2,N/A',
  'x9.big,2026,N/A,96,Unknown,8,N/A',
].join('\n');
export const AWS_EMBODIED = [
  ',type,additional_memory,additional_storage,additional_cpus,additional_gpus,total',
  '0,m5.large,300,0,100,0,1500',
  '1,t9.nano,0,0,0,0,1000',
  '2,x9.big,0,0,0,0,1000',
  '3,a1.medium,0,0,0,0,1200.5',
].join('\n');

export const AZURE_INSTANCES = [
  'Series,Virtual Machine,Microarchitecture,Instance vCPUs,Instance Memory,Platform vCPUs (highest vCPU possible),Platform Memory',
  'Dsv3,D2s v3,Skylake,2,8,64,256',
  'Dsv3,D2s v3,Broadwell,2,8,64,256',
  'Esv3,E16-4s v3,Broadwell,0.25,128,16,512',
  'Mv2,M208ms v2,Skylake,208,5700,208,11400',
  'Mv2,M416ms v2,Skylake,416,11400,208,11400',
  'B,B1MS,Skylake,1,2,64,256',
].join('\n');
export const AZURE_EMBODIED = [
  ',family,type,microarchitecture,additional_memory,additional_storage,additional_cpus,additional_gpus,total',
  '0,Dsv3,D2s v3,Skylake,0,0,0,0,1400',
  '1,Dsv3,D2s v3,Broadwell,0,0,0,0,1500',
  '2,Esv3,E16-4s v3,Broadwell,0,0,0,0,2000',
  '3,Mv2,M208ms v2,Skylake,0,0,0,0,5000',
  '4,Mv2,M416ms v2,Skylake,0,0,0,0,5000',
  '5,B,B1MS,Skylake,0,0,0,0,1100',
].join('\n');

export const GCP_INSTANCES = [
  'Machine Family,Machine type,Microarchitecture,Instance vCPUs,Instance Memory,Platform vCPUs (highest vCPU possible),Platform Memory',
  'E2,e2-standard-2,Skylake,2,8,96,384',
  'E2,e2-standard-2,Broadwell,2,8,96,384',
  'E2,e2-standard-2,Cascade Lake,2,8,80,384',
  'N2,n2-standard-4,Cascade Lake,4,16,80,640',
  'N2,n2-standard-4,Ice Lake,4,16,96,640',
].join('\n');
export const GCP_EMBODIED_MEAN = [
  ',type,total_mean',
  '0,e2-standard-2,1300',
  '1,n2-standard-4,1450.25',
  '2,zz-1,1000',
].join('\n');

export const USE_CSV = [
  ',Architecture,Min Watts,Max Watts,GB/Chip',
  '0,Skylake,0.6,4.1,75',
  '1,Cascade Lake,0.7,3.9,100',
  '2,EPYC 2nd Gen,0.5,1.7,130',
].join('\n');

/** The instances the decisions of parseCcfInstances give for these files, sorted by provider and name. */
export const EXPECTED_INSTANCES = [
  {
    provider: 'aws',
    instance: 'a1.medium',
    vcpu: 1,
    memory_gib: 2,
    platform_vcpu: 16,
    platform_embodied_kgco2e: 1200.5,
  },
  {
    provider: 'aws',
    instance: 'm5.large',
    vcpu: 2,
    memory_gib: 8,
    platform_vcpu: 96,
    platform_embodied_kgco2e: 1500,
  },
  // B-series casing restored (B1MS → B1ms)
  {
    provider: 'azure',
    instance: 'Standard_B1ms',
    vcpu: 1,
    memory_gib: 2,
    platform_vcpu: 64,
    platform_embodied_kgco2e: 1100,
  },
  // two microarchitectures: (1400 + 1500) / 2 = 1450
  {
    provider: 'azure',
    instance: 'Standard_D2s_v3',
    vcpu: 2,
    memory_gib: 8,
    platform_vcpu: 64,
    platform_embodied_kgco2e: 1450,
  },
  // constrained vCPU: 0.25 × 16 = 4 active vCPUs, as the name says
  {
    provider: 'azure',
    instance: 'Standard_E16-4s_v3',
    vcpu: 4,
    memory_gib: 128,
    platform_vcpu: 16,
    platform_embodied_kgco2e: 2000,
  },
  // series Mv2: platform column 208 < largest size 416, so 416 for every size of the series
  {
    provider: 'azure',
    instance: 'Standard_M208ms_v2',
    vcpu: 208,
    memory_gib: 5700,
    platform_vcpu: 416,
    platform_embodied_kgco2e: 5000,
  },
  {
    provider: 'azure',
    instance: 'Standard_M416ms_v2',
    vcpu: 416,
    memory_gib: 11400,
    platform_vcpu: 416,
    platform_embodied_kgco2e: 5000,
  },
  // platform vCPUs 96/96/80: the most common, 96
  {
    provider: 'gcp',
    instance: 'e2-standard-2',
    vcpu: 2,
    memory_gib: 8,
    platform_vcpu: 96,
    platform_embodied_kgco2e: 1300,
  },
  // 80/96: a tie goes to the larger, 96
  {
    provider: 'gcp',
    instance: 'n2-standard-4',
    vcpu: 4,
    memory_gib: 16,
    platform_vcpu: 96,
    platform_embodied_kgco2e: 1450.25,
  },
];

/** The fixture's files under the names a ccf-coefficients folder gives them. */
export const CCF_FOLDER: Readonly<Record<string, string>> = {
  'aws-instances.csv': AWS_INSTANCES,
  'coefficients-aws-embodied.csv': AWS_EMBODIED,
  'azure-instances.csv': AZURE_INSTANCES,
  'coefficients-azure-embodied.csv': AZURE_EMBODIED,
  'gcp-instances.csv': GCP_INSTANCES,
  'coefficients-gcp-embodied-mean.csv': GCP_EMBODIED_MEAN,
  'coefficients-gcp-use.csv': USE_CSV,
};
