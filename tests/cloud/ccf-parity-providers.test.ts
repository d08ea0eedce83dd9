/**
 * CCF's provider-level test cases (issue 22), re-expressed as this engine's calls under `ccfAppDatasets`.
 *
 * Source: GitHub `cloud-carbon-footprint/cloud-carbon-footprint`, trunk commit
 * `b7a049c7d25c0022919ab9010199dd9e77aa4577` (2024-03-25), Apache-2.0:
 * - AWS `packages/aws/src/__tests__/CostAndUsageReports.test.ts` with `fixtures/athena.fixtures.ts`;
 * - Azure `packages/azure/src/__tests__/ConsumptionManagement.test.ts` with `fixtures/consumptionManagement.fixtures.ts`;
 * - GCP `packages/gcp/src/__tests__/BillingExportTable.test.ts` with `fixtures/bigQuery.fixtures.ts`.
 * Each case cites its test and the fixture rows it reads; fixture inputs and expected figures are carried as facts.
 * CCF's `co2e` is metric tonnes, ours kg; CCF's grid in these tests is its static table (no Electricity Maps
 * token), which is `ccfAppDatasets`' grid (CCF trunk b7a049c7).
 *
 * How a billing line of CCF's becomes our calls (CCF's code, per provider, as cited per helper below):
 * - an instance line (EC2, EMR, RDS, DocumentDB … `…Usage:<type>` in hours): the CPU part of `calculateInstance` for
 *   CCF's vCPU-hours (the line's `vCpus` × hours, or the type's; burstable types × baseline / 50 %), the memory and GPU
 *   parts for the line's hours, both × CCF's replication factor of the service, and `calculateEmbodied` for hours ÷
 *   vCPUs (CCF's `usageTimePeriod = usageAmount / instancevCpu`, `CostAndUsageReports.getEmbodiedEmissions`: CCF
 *   amortises 1/vCPU of the line's instance-hours; a CCF quirk re-expressed as its input, not corrected). The CPU
 *   watts are the type's (`min_watts`/`max_watts` of the CCF app's instance table: CCF's per-processor figures);
 * - a line without an instance type CCF knows (Lambda, Glue, SimpleDB, Fargate vCPU): `calculateCpu` with CCF's
 *   vCPU-hours at the provider's watts (CCF's fallback for unknown processors); ARM Lambda at Graviton2's watts,
 *   given as the case's coefficients;
 * - storage in GB-months: `calculateStorage` of the GB for the month's hours (CCF's `convertGigabyteMonthsToTerabyteHours`:
 *   GB / 1000 × 24 × days of the line's month), SSD or HDD as CCF classes the usage type, × the replication factor;
 * - a `…ByteHrs` usage type: CCF reads the amount as bytes and divides by 2^40 (`convertBytesToTerabytes`), whatever
 *   the unit says; we take the same bytes in decimal TB, so ours is 2^40 / 10^12 × CCF's (the documented unit
 *   correction, `tib`);
 * - networking in GB: `calculateNetworking`.
 * Lines CCF groups into one figure (same day, service, region, account and tags) are summed exactly.
 *
 * - GCP byte-seconds of memory and bytes of networking: CCF divides by 2^30 and calls it GB
 *   (`convertByteSecondsToGigabyteHours`, `convertBytesToGigabytes`); we take the same bytes in decimal GB, so ours is
 *   2^30 / 10^9 × CCF's (the same kind of unit correction, `gib`).
 *
 * Agreement: `exact` is CCF's figure to 15 significant digits: within half a unit of the 15th significant digit of
 * CCF's double (167 of the 171 are digit-identical when both are rounded to 15 digits; 4 sit on a rounding edge and
 * differ from CCF's double in the 16th digit only). `tib` and `gib` are exact after dividing ours by 1.099511627776 or
 * 1.073741824. Carried: 171 (AWS 74, Azure 47, GCP 50; two more GCP figures of BillingExportTable.test.ts are in
 * tests/cloud/ccf-parity.test.ts): 132 exact, 28 `tib`, 11 `gib`.
 *
 * Not carried, with the reason (figures of those tests; tests without a figure, about queries, paging, errors, tag
 * or label names, account and project filters, are not counted):
 * - CCF's unknown-usage estimator (a line CCF cannot classify gets the run's kWh per cost or per usage amount of the
 *   known lines of its unit: a statistic of the whole run, not a method we have): AWS 'Gets Estimates for Amazon
 *   Glue, ECS and DynamoDB…' NatGateway-Hours (0); 'Gets Estimates for ECS Compute + Storage, EKS…' AmazonEKS,
 *   AmazonRoute53 (0), marketplace service (0); 'Gets Estimates for Networking' AmazonCloudWatch DataScanned;
 *   'estimation for reclassified unknowns' NatGateway-Hours, CloudWatch metrics (0), NatGateway-Bytes; 'estimation for
 *   H1 instances…' ApiGateway, DirectConnect, DirectoryService (0). Azure 'Returns estimates for Compute' and '…
 *   grouped by week' Virtual Machines Licenses, VPN Gateway (2 each); 'Returns estimates for Storage' westeurope
 *   (E1 Disks with 'Server - Free'); 'Returns estimates for reclassified unknowns' API Management, Advanced Data
 *   Security, Load Balancer, Azure Databricks, Azure DNS (0). GCP 'estimation for reclassified unknowns' Stackdriver
 *   Metric Volume (equal to an HDD line's figure to 1e-11 only), Cloud Run Memory Allocation Time, Cloud Storage
 *   requests, Secret Manager, KMS (0); 'returns estimations for Kubernetes Engine…' App Engine requests in 'europe'
 *   (0); 'estimation for lookup table input data' App Engine Backend Instances and the unknown Compute Engine line.
 * - A region our CCF grid does not have (CCF applies its 'Unknown' mean factor, or a multi-region's): Azure 'Returns
 *   estimates for Compute' and '… grouped by week' Azure Database for MySQL in 'Unknown' (2); 'Returns estimates for
 *   Storage' P4 LRS Disk in 'Unknown'; 'successfully returns estimation for lookup table input data' (CCF's lookup
 *   puts resourceLocation inside meterDetails, so the region is lost and 'Unknown' applies: a CCF defect). GCP
 *   'Returns estimation results for Cloud Storage based on replication factors' nam4 and us; '… ComputeEngine,
 *   CloudFileStore and CloudSQL based on replication factors' PD Snapshot in 'asia'; 'estimation for unknown App
 *   Engine Compute…' App Engine storage without a region.
 * - CCF service rules with constants of their own: AWS Redshift compute (REDSHIFT_INSTANCE_TYPES node table, 'Gets
 *   Estimates for Redshift…' CS:ra3.4xlarge); GCP Cloud Spanner (server node and multi-region storage, 2 figures: we
 *   could not derive CCF's figures from its code within the time-box).
 * Provider-level figures: AWS 86 (74 carried), Azure 61 (47), GCP 66 (50 here, 2 in ccf-parity.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { ccfAppDatasets } from '../../src/embedded/cloud';
import {
  calculateCpu,
  calculateEmbodied,
  calculateInstance,
  calculateMemory,
  calculateNetworking,
  calculateStorage,
  createTableDatasets,
} from '../../src/index';
import coefficientsJson from '../../datasets/cloud/coefficients-ccf-app.json';
import { ccfGridRegionsTable } from '../../src/embedded/ccf-grid';
import { ccfAppInstancesTable } from '../../src/embedded/ccf-app';
import type { CloudCoefficientsTable } from '../../src/datasets/tables';
import { add, decimal, div, mul, toNumber } from '../../src/core/decimal';
import { Big } from './exact';

const app = ccfAppDatasets;
type Provider = 'aws' | 'azure' | 'gcp';

/** The exact sum of parts (each our exact decimal as a double). */
const sum = (...parts: number[]): number =>
  toNumber(parts.reduce((total, part) => add(total, decimal(part)), decimal(0)));

/** `a / b` as the nearest double (what CCF's own division gives for the same doubles). */
const quotient = (a: number, b: number): number => toNumber(div(decimal(a), decimal(b)));

const TIB_IN_TB = decimal('1.099511627776');
const GIB_IN_GB = decimal('1.073741824');
const CORRECTION = { exact: decimal(1), tib: TIB_IN_TB, gib: GIB_IN_GB } as const;

/** Days of the month of a `YYYY-MM-DD` timestamp (CCF: moment(timestamp).utc().daysInMonth()). */
const daysInMonth = (day: string): number => {
  const [year, month] = day.split('-').map(Number);
  return new Date(Date.UTC(year!, month!, 0)).getUTCDate();
};

interface InstanceLine {
  provider?: Provider;
  instance: string;
  region: string;
  /** The line's usage amount: instance-hours. */
  hours: number;
  /** CCF's vCPU-hours of the line when not the type's vCPUs × hours (a `vCpus` column, a burstable baseline). */
  vcpuHours?: number;
  /** CCF's replication factor of the service (compute and memory). */
  replication?: number;
}

/**
 * An instance line as CCF estimates it (AWS `CostAndUsageReports.getEstimateByUsageUnit`: compute
 * `AWSComputeEstimatesBuilder`, memory `AWSMemoryEstimatesBuilder`, embodied `getEmbodiedEmissions`).
 */
function instanceLine(line: InstanceLine): number {
  const provider = line.provider ?? 'aws';
  const { instance, region, hours, replication = 1 } = line;
  const row = app.cloudInstances.get(provider, instance);
  if (row === undefined) throw new Error(`${instance} not in the CCF app's table`);
  const vcpuHours = line.vcpuHours ?? toNumber(mul(decimal(row.vcpu), decimal(hours)));
  const cpu = calculateInstance(
    provider,
    {
      instance,
      region,
      duration: quotient(toNumber(mul(decimal(vcpuHours), decimal(replication))), row.vcpu),
    },
    app,
  ).cpu_estimate.co2e;
  const whole = calculateInstance(
    provider,
    { instance, region, duration: toNumber(mul(decimal(hours), decimal(replication))) },
    app,
  );
  const embodied = calculateEmbodied(
    provider,
    { instance, instance_count: 1, duration: quotient(hours, row.vcpu) },
    app,
  ).co2e;
  return sum(cpu, whole.memory_estimate.co2e, whole.gpu_estimate?.co2e ?? 0, embodied);
}

/** CCF's vCPU-hours of a burstable type: vCPUs × (baseline % / 50 %) × hours (`getBurstableInstanceVCPu`). */
const burstableVcpuHours = (vcpu: number, baselinePercent: number, hours: number): number =>
  toNumber(div(mul(mul(decimal(vcpu), decimal(baselinePercent)), decimal(hours)), decimal(50)));

/** An instance line of a burstable type: CCF's vCPU-hours are vCPUs × baseline / 50 % × hours. */
const burstableLine = (
  instance: string,
  vcpu: number,
  baselinePercent: number,
  region: string,
  hours: number,
) => instanceLine({ instance, region, hours, vcpuHours: burstableVcpuHours(vcpu, baselinePercent, hours) });

/** vCPU-hours at the provider's watts (CCF's fallback for unknown processors), at CCF's 50 %. */
const cpuLine = (provider: Provider, region: string, vcpuHours: number): number =>
  calculateCpu(provider, { cpu_count: 1, region, duration: vcpuHours }, app).co2e;

/** A GB-month storage line: the GB for the hours of the line's month, × replication. */
const gbMonthLine = (
  provider: Provider,
  region: string,
  type: 'ssd' | 'hdd',
  gbMonths: number,
  day: string,
  replication = 1,
): number =>
  calculateStorage(
    provider,
    {
      region,
      storage_type: type,
      data: gbMonths,
      data_unit: 'GB',
      duration: 24 * daysInMonth(day),
      replication_factor: replication,
    },
    app,
  ).co2e;

/** A `…ByteHrs` line: the amount as bytes (CCF), for one hour, in decimal TB (ours: 1 KB = 1000 bytes). */
const byteHoursLine = (
  provider: Provider,
  region: string,
  type: 'ssd' | 'hdd',
  bytes: number,
  replication = 1,
): number =>
  calculateStorage(
    provider,
    {
      region,
      storage_type: type,
      data: quotient(bytes, 1000),
      data_unit: 'KB',
      duration: 1,
      replication_factor: replication,
    },
    app,
  ).co2e;

const networkingLine = (provider: Provider, region: string, gigabytes: number): number =>
  calculateNetworking(provider, { region, data: gigabytes, data_unit: 'GB' }, app).co2e;

/** `ccfAppDatasets` with the provider's watts replaced (a processor's figure CCF takes for a line without a type). */
function withWatts(provider: Provider, minWatts: number, maxWatts: number) {
  const coefficients = coefficientsJson as CloudCoefficientsTable;
  return createTableDatasets({
    cloudCoefficients: {
      ...coefficients,
      providers: {
        [provider]: { ...coefficients.providers[provider]!, min_watts: minWatts, max_watts: maxWatts },
      },
    },
    cloudRegions: ccfGridRegionsTable,
    cloudInstances: ccfAppInstancesTable,
  });
}

interface Case {
  /** CCF test file, test name, and which figure of it. */
  source: string;
  /** CCF's expected co2e, metric tonnes. */
  ccfCo2eTonnes: number;
  /** Ours, kg. */
  ours: () => number;
  agreement: 'exact' | 'tib' | 'gib';
}

const AWS = 'packages/aws/src/__tests__/CostAndUsageReports.test.ts';
const aws = (test: string, figure: string) => `${AWS}: ${test} — ${figure}`;

const AWS_CASES: Case[] = [
  // --- athenaMockGetQueryResultsWithEC2EBSLambda (queryResultsDataOne)
  {
    source: aws(
      'Gets Estimates for ec2, ebs Snapshot, ebs SDD Storage and lambda across multiple days with accumulation',
      '2020-11-02 AmazonEC2 us-east-1: two USE2-BoxUsage:t2.micro lines of 2 h (burstable, baseline 10 %)',
    ),
    ccfCo2eTonnes: 0.000021872660910302922,
    ours: () => {
      const line = () => burstableLine('t2.micro', 1, 10, 'us-east-1', 2);
      return sum(line(), line());
    },
    agreement: 'exact',
  },
  {
    source: aws(
      'Gets Estimates for ec2, ebs Snapshot, ebs SDD Storage and lambda across multiple days with accumulation',
      '2020-11-02 AmazonEC2 us-east-2: one t2.micro line of 2 h',
    ),
    ccfCo2eTonnes: 0.000010969335072481462,
    ours: () => burstableLine('t2.micro', 1, 10, 'us-east-2', 2),
    agreement: 'exact',
  },
  {
    source: aws(
      'Gets Estimates for ec2, ebs Snapshot, ebs SDD Storage and lambda across multiple days with accumulation',
      '2020-11-03 AmazonEC2 us-east-2: one t2.micro line of 2 h',
    ),
    ccfCo2eTonnes: 0.000010969335072481462,
    ours: () => burstableLine('t2.micro', 1, 10, 'us-east-2', 2),
    agreement: 'exact',
  },
  {
    source: aws(
      'Gets Estimates for ec2, ebs Snapshot, ebs SDD Storage and lambda across multiple days with accumulation',
      '2020-10-29 AmazonEC2 us-east-1: EBS:VolumeUsage.gp2, 3 GB-Mo (SSD, EBS volume replication 2)',
    ),
    ccfCo2eTonnes: 0.0000023047273897920002,
    ours: () => gbMonthLine('aws', 'us-east-1', 'ssd', 3, '2020-10-29', 2),
    agreement: 'exact',
  },
  {
    source: aws(
      'Gets Estimates for ec2, ebs Snapshot, ebs SDD Storage and lambda across multiple days with accumulation',
      '2020-10-30 AmazonEC2 us-west-1: USW1-EBS:SnapshotUsage, 5 GB-Mo (HDD, snapshot replication 3)',
    ),
    ccfCo2eTonnes: 0.00000265249433943,
    ours: () => gbMonthLine('aws', 'us-west-1', 'hdd', 5, '2020-10-30', 3),
    agreement: 'exact',
  },
  {
    source: aws(
      'Gets Estimates for ec2, ebs Snapshot, ebs SDD Storage and lambda across multiple days with accumulation',
      '2020-10-30 AWSLambda us-west-1: two Lambda-GB-Second lines of 10 s (vCPU-hours = seconds / 3600)',
    ),
    ccfCo2eTonnes: 4.306656863333334e-9,
    ours: () =>
      sum(cpuLine('aws', 'us-west-1', quotient(10, 3600)), cpuLine('aws', 'us-west-1', quotient(10, 3600))),
    agreement: 'exact',
  },
  // --- athenaMockGetQueryResultsWithS3CloudWatchRDS (queryResultsDataTwo)
  {
    source: aws(
      'Gets Estimates for CloudWatch, RDS and S3 all on the same day with accumulation',
      'AmazonS3 us-west-1: TimedStorage-ByteHrs, 2 (read as bytes; HDD; S3 replication 6)',
    ),
    ccfCo2eTonnes: 2.594010266875557e-18,
    ours: () => byteHoursLine('aws', 'us-west-1', 'hdd', 2, 6),
    agreement: 'tib',
  },
  {
    source: aws(
      'Gets Estimates for CloudWatch, RDS and S3 all on the same day with accumulation',
      'AmazonCloudWatch us-east-2: USE1-TimedStorage-ByteHrs, 4 (read as bytes; HDD)',
    ),
    ccfCo2eTonnes: 1.1020385572919622e-18,
    ours: () => byteHoursLine('aws', 'us-east-2', 'hdd', 4),
    agreement: 'tib',
  },
  {
    source: aws(
      'Gets Estimates for CloudWatch, RDS and S3 all on the same day with accumulation',
      'AmazonRDS us-east-1: RDS:StorageUsage, 5 GB-Mo (HDD)',
    ),
    ccfCo2eTonnes: 0.00000104032833567,
    ours: () => gbMonthLine('aws', 'us-east-1', 'hdd', 5, '2020-10-30'),
    agreement: 'exact',
  },
  {
    source: aws(
      'Gets Estimates for CloudWatch, RDS and S3 all on the same day with accumulation',
      'AmazonRDS us-west-1: RDS:GP2-Storage, 5 GB-Mo (SSD)',
    ),
    ccfCo2eTonnes: 0.0000016323042088800001,
    ours: () => gbMonthLine('aws', 'us-west-1', 'ssd', 5, '2020-10-30'),
    agreement: 'exact',
  },
  {
    source: aws(
      'Gets Estimates for CloudWatch, RDS and S3 all on the same day with accumulation',
      'AmazonRDS us-west-2: InstanceUsage:db.t2.micro, 2 h (burstable t2.micro, baseline 10 %)',
    ),
    ccfCo2eTonnes: 0.000010876784219211461,
    ours: () => burstableLine('t2.micro', 1, 10, 'us-west-2', 2),
    agreement: 'exact',
  },
  // --- athenaMockGetQueryResultsWithNetworkingGlueECSDynamoDB (queryResultsDataThree)
  {
    source: aws(
      'Gets Estimates for Amazon Glue, ECS and DynamoDB Storage and excluded usage types',
      'AWSGlue us-east-1: APS1-Crawler-DPU-Hour, 2 DPU-h (4 vCPUs per DPU)',
    ),
    ccfCo2eTonnes: 0.000007296926622400001,
    ours: () => cpuLine('aws', 'us-east-1', 8),
    agreement: 'exact',
  },
  {
    source: aws(
      'Gets Estimates for Amazon Glue, ECS and DynamoDB Storage and excluded usage types',
      'AmazonDynamoDB us-west-1: APS1-TimedBackupStorage-ByteHrs, 10,000,000,000 (bytes; HDD; DynamoDB replication 2)',
    ),
    ccfCo2eTonnes: 4.323350444792595e-9,
    ours: () => byteHoursLine('aws', 'us-west-1', 'hdd', 10_000_000_000, 2),
    agreement: 'tib',
  },
  // --- athenaMockGetQueryResultsWithKinesisESAndEc2Spot (queryResultsDataFour)
  {
    source: aws(
      'Gets Estimates for Kinesis, ES & EC2 Spot Instance',
      'AmazonKinesisAnalytics us-east-2: RunningApplicationStorage (SSD) and DurableApplicationBackups (HDD), 5 GB-month each',
    ),
    ccfCo2eTonnes: 0.0000032072878305600005,
    ours: () =>
      sum(
        gbMonthLine('aws', 'us-east-2', 'ssd', 5, '2020-10-30'),
        gbMonthLine('aws', 'us-east-2', 'hdd', 5, '2020-10-30'),
      ),
    agreement: 'exact',
  },
  {
    source: aws(
      'Gets Estimates for Kinesis, ES & EC2 Spot Instance',
      'AmazonES us-west-1: USE2-ES:GP2-Storage, 37 GB-Mp (SSD: an AmazonES line)',
    ),
    ccfCo2eTonnes: 0.000012079051145711998,
    ours: () => gbMonthLine('aws', 'us-west-1', 'ssd', 37, '2020-10-30'),
    agreement: 'exact',
  },
  {
    source: aws(
      'Gets Estimates for Kinesis, ES & EC2 Spot Instance',
      'AmazonEC2 us-east-1: APN1-SpotUsage:c5.18xlarge, 3 h (vCPUs from the type: 72)',
    ),
    ccfCo2eTonnes: 0.0002611908601814164,
    ours: () => instanceLine({ instance: 'c5.18xlarge', region: 'us-east-1', hours: 3 }),
    agreement: 'exact',
  },
  // --- athenaMockGetQueryResultsWithECSEksKafkaAndUnknownServices (queryResultsDataFive)
  {
    source: aws(
      'Gets Estimates for ECS Compute + Storage, EKS Compute, Kafka and Unknown Services',
      'AmazonECS us-east-2: APN1-Fargate-GB-Hours, 11 (CCF: GB-Hours of SSD storage, / 1000 TB-h)',
    ),
    ccfCo2eTonnes: 6.151729056e-9,
    ours: () =>
      calculateStorage(
        'aws',
        { region: 'us-east-2', storage_type: 'ssd', data: 11, data_unit: 'GB', duration: 1 },
        app,
      ).co2e,
    agreement: 'exact',
  },
  {
    source: aws(
      'Gets Estimates for ECS Compute + Storage, EKS Compute, Kafka and Unknown Services',
      'AmazonECS us-west-1: APN1-Fargate-vCPU-Hours:perCPU, 5 vCPU-h',
    ),
    ccfCo2eTonnes: 0.000003875991177,
    ours: () => cpuLine('aws', 'us-west-1', 5),
    agreement: 'exact',
  },
  // --- athenaMockGetQueryResultsWithDocDBComputeEbsOptimizedSpotUsage (queryResultsDataSix)
  {
    source: aws(
      'Gets Estimates for DocumentDB Compute, ElasticMapReduce, EC2 Credits',
      'AmazonDocDB us-west-1: APS1-InstanceUsage:db.r5.large, 30 h, vCpus 2 (DocumentDB replication 2)',
    ),
    ccfCo2eTonnes: 0.00024507357814768403,
    ours: () =>
      instanceLine({ instance: 'r5.large', region: 'us-west-1', hours: 30, vcpuHours: 60, replication: 2 }),
    agreement: 'exact',
  },
  {
    source: aws(
      'Gets Estimates for DocumentDB Compute, ElasticMapReduce, EC2 Credits',
      'AmazonEC2 us-west-2: APE1-EBSOptimized:c5.2xlarge, 4 h, vCpus 8',
    ),
    ccfCo2eTonnes: 0.00003433380539549175,
    ours: () => instanceLine({ instance: 'c5.2xlarge', region: 'us-west-2', hours: 4, vcpuHours: 32 }),
    agreement: 'exact',
  },
  {
    source: aws(
      'Gets Estimates for DocumentDB Compute, ElasticMapReduce, EC2 Credits',
      'AmazonEC2 us-west-1: APN1-SpotUsage:c5.12xlarge, 12 h, vCpus 48',
    ),
    ccfCo2eTonnes: 0.0005710134557465154,
    ours: () => instanceLine({ instance: 'c5.12xlarge', region: 'us-west-1', hours: 12, vcpuHours: 576 }),
    agreement: 'exact',
  },
  {
    source: aws(
      'Gets Estimates for DocumentDB Compute, ElasticMapReduce, EC2 Credits',
      'AmazonSimpleDB us-west-1: APN1-BoxUsage, 2 h (1 vCPU per hour, no instance type)',
    ),
    ccfCo2eTonnes: 0.0000015503964708,
    ours: () => cpuLine('aws', 'us-west-1', 2),
    agreement: 'exact',
  },
  {
    source: aws(
      'Gets Estimates for DocumentDB Compute, ElasticMapReduce, EC2 Credits',
      'ElasticMapReduce us-west-1: APN1-BoxUsage:m5.xlarge, 6 h, vCpus 4',
    ),
    ccfCo2eTonnes: 0.0000352634822436915,
    ours: () => instanceLine({ instance: 'm5.xlarge', region: 'us-west-1', hours: 6, vcpuHours: 24 }),
    agreement: 'exact',
  },
  // --- athenaMockGetQueryResultsWithRedshiftStorageComputeSavingsPlan (queryResultsDataSeven)
  {
    source: aws(
      'Gets Estimates for Redshift Storage and Compute, and Savings Plan Compute',
      'AmazonEC2 us-west-1: APE1-BoxUsage:t3.2xlarge, 88 h, vCpus 8 (burstable, baseline 40 %)',
    ),
    ccfCo2eTonnes: 0.000980231861015034,
    ours: () => burstableLine('t3.2xlarge', 8, 40, 'us-west-1', 88),
    agreement: 'exact',
  },
  // --- athenaMockGetQueryResultsWithEC2ElasticMapWithEmbodiedEmissions (queryResultsDataFifteen)
  {
    source: aws(
      'Gets Estimates for EC2 and ElasticMapReduce with Embodied Emissions',
      '2020-10-30 AmazonEC2 us-east-2: USE2-BoxUsage:t2.micro, 2 h',
    ),
    ccfCo2eTonnes: 0.000010969335072481462,
    ours: () => burstableLine('t2.micro', 1, 10, 'us-east-2', 2),
    agreement: 'exact',
  },
  {
    source: aws(
      'Gets Estimates for EC2 and ElasticMapReduce with Embodied Emissions',
      '2020-10-28 ElasticMapReduce us-west-1: APN1-BoxUsage:m5.xlarge, 6 h, vCpus 4',
    ),
    ccfCo2eTonnes: 0.0000352634822436915,
    ours: () => instanceLine({ instance: 'm5.xlarge', region: 'us-west-1', hours: 6, vcpuHours: 24 }),
    agreement: 'exact',
  },
  {
    source: aws(
      'Gets Estimates for EC2 and ElasticMapReduce with Embodied Emissions',
      '2020-10-29 AmazonEC2 ca-central-1: USW2-SpotUsage:m5zn.2xlarge, 12 h, vCpus 8',
    ),
    ccfCo2eTonnes: 0.00003972805061187215,
    ours: () => instanceLine({ instance: 'm5zn.2xlarge', region: 'ca-central-1', hours: 12, vcpuHours: 96 }),
    agreement: 'exact',
  },
  {
    source: aws(
      'Gets Estimates for EC2 and ElasticMapReduce with Embodied Emissions',
      '2020-10-31 AmazonEC2 us-west-1: APE1-BoxUsage:t3.2xlarge, 88 h (burstable, baseline 40 %)',
    ),
    ccfCo2eTonnes: 0.000980231861015034,
    ours: () => burstableLine('t3.2xlarge', 8, 40, 'us-west-1', 88),
    agreement: 'exact',
  },
  // --- athenaMockGetQueryResultsNetworking (queryResultsDataEight)
  {
    source: aws('Gets Estimates for Networking', 'AmazonEC2 us-east-1: USW2-USE1-AWS-Out-Bytes, 1574 GB'),
    ccfCo2eTonnes: 0.0006772029778100001,
    ours: () => networkingLine('aws', 'us-east-1', 1574),
    agreement: 'exact',
  },
  // --- athenaMockGetQueryResultsMemory (queryResultsDataNine)
  {
    source: aws(
      'estimation for Memory',
      'AmazonEC2 us-east-1: SpotUsage t3.micro 17 h (burstable, 10 %), m5.xlarge 15 h and c5d.4xlarge 13 h (vCpus 2 each)',
    ),
    ccfCo2eTonnes: 0.00024514479883738853,
    ours: () =>
      sum(
        burstableLine('t3.micro', 2, 10, 'us-east-1', 17),
        instanceLine({ instance: 'm5.xlarge', region: 'us-east-1', hours: 15, vcpuHours: 30 }),
        instanceLine({ instance: 'c5d.4xlarge', region: 'us-east-1', hours: 13, vcpuHours: 26 }),
      ),
    agreement: 'exact',
  },
  {
    source: aws('estimation for Memory', 'AmazonEC2 us-west-1: USW2-SpotUsage:m5zn.2xlarge, 12 h, vCpus 8'),
    ccfCo2eTonnes: 0.00009050285872947217,
    ours: () => instanceLine({ instance: 'm5zn.2xlarge', region: 'us-west-1', hours: 12, vcpuHours: 96 }),
    agreement: 'exact',
  },
  // --- athenaMockGetQueryResultsS3WithReplicationFactors (queryResultsDataTen)
  {
    source: aws(
      'estimation for S3 with replication factors',
      '2021-01-02 USE1-BytesDeleted-STANDARD, 0.0253623422 GB-Mo (HDD)',
    ),
    ccfCo2eTonnes: 5.2770326499238005e-9,
    ours: () => gbMonthLine('aws', 'us-east-1', 'hdd', 0.0253623422, '2021-01-02'),
    agreement: 'exact',
  },
  {
    source: aws(
      'estimation for S3 with replication factors',
      '2021-01-03 USE1-BytesDeleted-SIA, 0.023462346 GB-Mo (HDD)',
    ),
    ccfCo2eTonnes: 4.881708673018737e-9,
    ours: () => gbMonthLine('aws', 'us-east-1', 'hdd', 0.023462346, '2021-01-03'),
    agreement: 'exact',
  },
  {
    source: aws(
      'estimation for S3 with replication factors',
      '2021-01-04 eu-north-1 EUN1-TimedStorage-ByteHrs, 123456789 (bytes; HDD; S3 replication 6)',
    ),
    ccfCo2eTonnes: 4.3737936660134446e-12,
    ours: () => byteHoursLine('aws', 'eu-north-1', 'hdd', 123456789, 6),
    agreement: 'tib',
  },
  {
    source: aws(
      'estimation for S3 with replication factors',
      '2021-01-05 TimedStorage-GDA-Staging, 0.06434566 GB-Mo (HDD; S3 replication 6)',
    ),
    ccfCo2eTonnes: 8.032873605046523e-8,
    ours: () => gbMonthLine('aws', 'us-east-1', 'hdd', 0.06434566, '2021-01-05', 6),
    agreement: 'exact',
  },
  {
    source: aws(
      'estimation for S3 with replication factors',
      '2021-01-06 us-west-1 TimedStorage-ZIA-ByteHrs, 465759470 (bytes; HDD; one-zone replication 2)',
    ),
    ccfCo2eTonnes: 2.0136414117908633e-10,
    ours: () => byteHoursLine('aws', 'us-west-1', 'hdd', 465759470, 2),
    agreement: 'tib',
  },
  {
    source: aws(
      'estimation for S3 with replication factors',
      '2021-01-07 us-west-1 TimedStorage-RRS-ByteHrs, 876543637 (bytes; HDD; reduced-redundancy replication 2)',
    ),
    ccfCo2eTonnes: 3.789605322904069e-10,
    ours: () => byteHoursLine('aws', 'us-west-1', 'hdd', 876543637, 2),
    agreement: 'tib',
  },
  // --- athenaMockGetQueryResultsEC2EFSRDSWithReplicationFactors (queryResultsDataEleven)
  {
    source: aws(
      'estimation for EC2, RDS and EFS with replication factors',
      'AmazonEC2 ap-south-1: APS3-EBS:VolumeUsage.gp2, 23.9310345 GB-Mo (SSD; replication 2)',
    ),
    ccfCo2eTonnes: 0.00003434768205111858,
    ours: () => gbMonthLine('aws', 'ap-south-1', 'ssd', 23.9310345, '2021-01-01', 2),
    agreement: 'exact',
  },
  {
    source: aws(
      'estimation for EC2, RDS and EFS with replication factors',
      'AmazonEC2 us-east-1: APS3-EBS:SnapshotUsage, 23.9310345 GB-Mo (HDD; replication 3)',
    ),
    ccfCo2eTonnes: 0.000014937679975347812,
    ours: () => gbMonthLine('aws', 'us-east-1', 'hdd', 23.9310345, '2021-01-01', 3),
    agreement: 'exact',
  },
  {
    source: aws(
      'estimation for EC2, RDS and EFS with replication factors',
      'AmazonEFS eu-west-1: EU-TimedStorage-ByteHrs, 0.0052443816 (bytes; SSD: an EFS line; EFS replication 3)',
    ),
    ccfCo2eTonnes: 5.4296762213410694e-21,
    ours: () => byteHoursLine('aws', 'eu-west-1', 'ssd', 0.0052443816, 3),
    agreement: 'tib',
  },
  {
    source: aws(
      'estimation for EC2, RDS and EFS with replication factors',
      'AmazonRDS ap-south-1: APS3-Aurora:StorageUsage, 0.0044965104 GB-Mo (SSD; Aurora replication 6)',
    ),
    ccfCo2eTonnes: 1.9361224383185108e-8,
    ours: () => gbMonthLine('aws', 'ap-south-1', 'ssd', 0.0044965104, '2021-01-01', 6),
    agreement: 'exact',
  },
  {
    source: aws(
      'estimation for EC2, RDS and EFS with replication factors',
      'AmazonRDS eu-west-1: APS3-Aurora:BackupUsage, 0.0044965104 GB-Mo (HDD; backup replication 3)',
    ),
    ccfCo2eTonnes: 2.0628142494769554e-9,
    ours: () => gbMonthLine('aws', 'eu-west-1', 'hdd', 0.0044965104, '2021-01-01', 3),
    agreement: 'exact',
  },
  {
    source: aws(
      'estimation for EC2, RDS and EFS with replication factors',
      'AmazonRDS eu-central-1: EUC1-RDS:Multi-AZ-GP2-Storage, 25 GB-Mo (SSD; Multi-AZ replication 2)',
    ),
    ccfCo2eTonnes: 0.000015757250400000002,
    ours: () => gbMonthLine('aws', 'eu-central-1', 'ssd', 25, '2021-01-01', 2),
    agreement: 'exact',
  },
  {
    source: aws(
      'estimation for EC2, RDS and EFS with replication factors',
      'AmazonRDS us-east-1: Multi-AZUsage:db.r5.12xl, 8783.99999999999 h, vCpus 48 (Multi-AZ replication 2)',
    ),
    ccfCo2eTonnes: 1.8739312820855767,
    ours: () =>
      instanceLine({
        instance: 'r5.12xlarge',
        region: 'us-east-1',
        hours: 8783.99999999999,
        vcpuHours: toNumber(mul(decimal(48), decimal(8783.99999999999))),
        replication: 2,
      }),
    agreement: 'exact',
  },
  // --- athenaMockGetQueryResultsDatabasesWithReplicationFactors (queryResultsDataTwelve)
  {
    source: aws(
      'estimation for DocumentDB and DynamoDB with replication factors',
      'AmazonDocDB ap-south-1: APS3-StorageUsage, 0.00508608 GB-Mo (SSD: a DocumentDB line; replication 2)',
    ),
    ccfCo2eTonnes: 7.299937607233535e-9,
    ours: () => gbMonthLine('aws', 'ap-south-1', 'ssd', 0.00508608, '2021-01-01', 2),
    agreement: 'exact',
  },
  {
    source: aws(
      'estimation for DocumentDB and DynamoDB with replication factors',
      'AmazonDocDB eu-central-1: APS3-BackupUsage, 0.00508608 GB-Mo (HDD; backup replication 3)',
    ),
    ccfCo2eTonnes: 2.6046356737190398e-9,
    ours: () => gbMonthLine('aws', 'eu-central-1', 'hdd', 0.00508608, '2021-01-01', 3),
    agreement: 'exact',
  },
  {
    source: aws(
      'estimation for DocumentDB and DynamoDB with replication factors',
      'AmazonDocDB ap-southeast-1: APS1-InstanceUsage:db.r5.large, 2.018888 h, vCpus 2 (replication 2)',
    ),
    ccfCo2eTonnes: 0.000020543884613385032,
    ours: () =>
      instanceLine({
        instance: 'r5.large',
        region: 'ap-southeast-1',
        hours: 2.018888,
        vcpuHours: toNumber(mul(decimal(2), decimal(2.018888))),
        replication: 2,
      }),
    agreement: 'exact',
  },
  {
    source: aws(
      'estimation for DocumentDB and DynamoDB with replication factors',
      'AmazonDynamoDB us-east-1: TimedStorage-ByteHrs, 0.0000142996 (bytes; SSD; replication 2)',
    ),
    ccfCo2eTonnes: 1.3429178158928698e-23,
    ours: () => byteHoursLine('aws', 'us-east-1', 'ssd', 0.0000142996, 2),
    agreement: 'tib',
  },
  {
    source: aws(
      'estimation for DocumentDB and DynamoDB with replication factors',
      'AmazonECR us-west-1: USW1-TimedStorage-ByteHrs, 123456789 (bytes; HDD; replication 3)',
    ),
    ccfCo2eTonnes: 8.006204454537234e-11,
    ours: () => byteHoursLine('aws', 'us-west-1', 'hdd', 123456789, 3),
    agreement: 'tib',
  },
  {
    source: aws(
      'estimation for DocumentDB and DynamoDB with replication factors',
      'AmazonSimpleDB ap-southeast-1: APS2-TimedStorage-ByteHrs, 123456789 (bytes; SSD; replication 2)',
    ),
    ccfCo2eTonnes: 1.2479075634499893e-10,
    ours: () => byteHoursLine('aws', 'ap-southeast-1', 'ssd', 123456789, 2),
    agreement: 'tib',
  },
  // --- athenaMockGetQueryResultsWithReclassifiedUnknowns (queryResultsDataThirteen)
  {
    source: aws(
      'estimation for reclassified unknowns',
      '2021-01-01 AmazonEC2 us-west-1: APE1-BoxUsage:t3.2xlarge, 88 h',
    ),
    ccfCo2eTonnes: 0.000980231861015034,
    ours: () => burstableLine('t3.2xlarge', 8, 40, 'us-west-1', 88),
    agreement: 'exact',
  },
  {
    source: aws(
      'estimation for reclassified unknowns',
      '2021-01-02 AmazonS3 us-east-2: TimedStorage-ByteHrs, 2 (bytes; HDD; replication 6)',
    ),
    ccfCo2eTonnes: 3.3061156718758868e-18,
    ours: () => byteHoursLine('aws', 'us-east-2', 'hdd', 2, 6),
    agreement: 'tib',
  },
  {
    source: aws(
      'estimation for reclassified unknowns',
      '2021-01-03 AmazonEC2 us-east-1: USW2-USE1-AWS-Out-Bytes, 1574 GB',
    ),
    ccfCo2eTonnes: 0.0006772029778100001,
    ours: () => networkingLine('aws', 'us-east-1', 1574),
    agreement: 'exact',
  },
  // --- athenaMockGetQueryH1ApiFsxBackupDirectConnectDirectoryService (queryResultsDataFourteen)
  {
    source: aws(
      'estimation for H1 instances, Api Gateway, Fsx, Kinesis, Backup, DirectConnect and DirectoryService',
      'AmazonEC2 eu-west-1: EU-SpotUsage:h1.16xlarge, 200 h (vCPUs from the type: 64)',
    ),
    ccfCo2eTonnes: 0.013759101952724019,
    ours: () => instanceLine({ instance: 'h1.16xlarge', region: 'eu-west-1', hours: 200 }),
    agreement: 'exact',
  },
  {
    source: aws(
      'estimation for H1 instances, Api Gateway, Fsx, Kinesis, Backup, DirectConnect and DirectoryService',
      'AmazonFSx eu-west-1: EUC1-Storage, 200 GB-Mo (SSD: an FSx line)',
    ),
    ccfCo2eTonnes: 0.00005646263616,
    ours: () => gbMonthLine('aws', 'eu-west-1', 'ssd', 200, '2021-01-01'),
    agreement: 'exact',
  },
  {
    source: aws(
      'estimation for H1 instances, Api Gateway, Fsx, Kinesis, Backup, DirectConnect and DirectoryService',
      'AmazonKinesis eu-west-1: EU-LongTermRetention-ByteHrs, 200 (bytes; SSD: a Kinesis line)',
    ),
    ccfCo2eTonnes: 6.902213499415666e-17,
    ours: () => byteHoursLine('aws', 'eu-west-1', 'ssd', 200),
    agreement: 'tib',
  },
  {
    source: aws(
      'estimation for H1 instances, Api Gateway, Fsx, Kinesis, Backup, DirectConnect and DirectoryService',
      'AWSBackup eu-west-1: EU-ColdStorage-ByteHrs-EFS and EU-WarmStorage-ByteHrs-EFS, 200 each (bytes; HDD)',
    ),
    ccfCo2eTonnes: 7.477397957700305e-17,
    ours: () =>
      sum(byteHoursLine('aws', 'eu-west-1', 'hdd', 200), byteHoursLine('aws', 'eu-west-1', 'hdd', 200)),
    agreement: 'tib',
  },
  // --- athenaMockGetQueryResultsWithUnknownInstanceType (queryResultsDataSeventeen)
  {
    source: aws(
      'returns estimates for instance types with additional prefix',
      'AmazonEC2 us-east-2: USE2-BoxUsage:ml.m5.xlarge, 8 h, vCpus 1 (processors unknown for ml.m5.xlarge: ' +
        "the provider's watts; no memory; embodied of m5.xlarge for 8 / 4 h)",
    ),
    ccfCo2eTonnes: 0.000011733898965323593,
    ours: () =>
      sum(
        cpuLine('aws', 'us-east-2', 8),
        calculateEmbodied('aws', { instance: 'm5.xlarge', instance_count: 1, duration: 2 }, app).co2e,
      ),
    agreement: 'exact',
  },
  // --- athenaMockGetQueryResultsWithGPUInstances (queryResultsDataEighteen)
  {
    source: aws(
      'returns estimates for GPU instances',
      'AmazonEC2 us-east-1: USE1-BoxUsage:p3dn.24xlarge, 24 h',
    ),
    ccfCo2eTonnes: 0.01932281153902049,
    ours: () => instanceLine({ instance: 'p3dn.24xlarge', region: 'us-east-1', hours: 24 }),
    agreement: 'exact',
  },
  {
    source: aws(
      'returns estimates for GPU instances',
      'AmazonEC2 us-east-2: USE2-BoxUsage:p4d.24xlarge, 48 h',
    ),
    ccfCo2eTonnes: 0.054792520029449,
    ours: () => instanceLine({ instance: 'p4d.24xlarge', region: 'us-east-2', hours: 48 }),
    agreement: 'exact',
  },
  // --- athenaMockGetQueryResultsWithX86AndARMLambdas (queryResultsX86AndARMLambdas)
  {
    source: aws(
      'returns estimates for both x86 and ARM Lambdas',
      'AWSLambda us-east-1: Lambda-GB-Second, 5 s (x86)',
    ),
    ccfCo2eTonnes: 0.0000000012668275386111113,
    ours: () => cpuLine('aws', 'us-east-1', quotient(5, 3600)),
    agreement: 'exact',
  },
  {
    source: aws(
      'returns estimates for both x86 and ARM Lambdas',
      "AWSLambda us-east-1: Lambda-GB-Second-ARM, 7 s (Graviton2's watts, 0.47/1.69)",
    ),
    ccfCo2eTonnes: 0.0000000009035109614999999,
    ours: () =>
      calculateCpu(
        'aws',
        { cpu_count: 1, region: 'us-east-1', duration: quotient(7, 3600) },
        withWatts('aws', 0.47, 1.69),
      ).co2e,
    agreement: 'exact',
  },
  // --- athenaMockGetQueryResultsWithTaggedResources (queryResultsDataTaggedResources)
  ...(
    [
      ['prod, user-1: two lines of 24 h', [24, 24], 0.03864562307804098],
      ['test, user-1: 10 h', [10], 0.00805117147459187],
      ['prod, user-2: 1 h', [1], 0.0008051171474591871],
      ['staging, user-3: 2 h', [2], 0.0016102342949183741],
    ] as const
  ).map(([tags, lines, co2e]): Case => ({
    source: aws(
      'returns estimates for instances with tags',
      `AmazonEC2 us-east-1 p3dn.24xlarge, tags ${tags}`,
    ),
    ccfCo2eTonnes: co2e,
    ours: () =>
      sum(...lines.map((hours) => instanceLine({ instance: 'p3dn.24xlarge', region: 'us-east-1', hours }))),
    agreement: 'exact',
  })),
  {
    source: aws(
      'Gets Estimates for Kinesis, ES & EC2 Spot Instance',
      "AmazonES us-east-1: EUC1-HeavyUsage:t3.medium.elasticsearch, 3 h (burstable t3.medium, 20 %: 2.4 vCPU-h at the provider's watts; " +
        'no processors, memory or embodied for the .elasticsearch name)',
    ),
    ccfCo2eTonnes: 0.0000021890779867200004,
    ours: () => cpuLine('aws', 'us-east-1', burstableVcpuHours(2, 20, 3)),
    agreement: 'exact',
  },
  {
    source: aws(
      'Gets Estimates for ECS Compute + Storage, EKS Compute, Kafka and Unknown Services',
      'AmazonMSK us-west-1: APS1-Kafka.m5.large, 7 h (the m5.large of MSK_INSTANCE_TYPES)',
    ),
    ccfCo2eTonnes: 0.000022245928045882443,
    ours: () => instanceLine({ instance: 'm5.large', region: 'us-west-1', hours: 7 }),
    agreement: 'exact',
  },
  {
    source: aws(
      'Gets Estimates for ECS Compute + Storage, EKS Compute, Kafka and Unknown Services',
      'AmazonMSK ap-south-1: APS3-Kafka.t3.small, 7 h (burstable t3.small, 20 %)',
    ),
    ccfCo2eTonnes: 0.00005058906244549772,
    ours: () => burstableLine('t3.small', 2, 20, 'ap-south-1', 7),
    agreement: 'exact',
  },
  {
    source: aws(
      'Gets Estimates for DocumentDB Compute, ElasticMapReduce, EC2 Credits',
      "AmazonEC2 us-east-1: APE1-CPUCredits:t3, 7 vCPU-Hours (the amount is the vCPU-hours; 't3' has no processors, " +
        'memory or embodied figure)',
    ),
    ccfCo2eTonnes: 0.000006384810794599999,
    ours: () => cpuLine('aws', 'us-east-1', 7),
    agreement: 'exact',
  },
  {
    source: aws(
      'Gets Estimates for Redshift Storage and Compute, and Savings Plan Compute',
      'AmazonRedshift us-east-1: RMS:ra3.4xlarge, 5 GB-Mo (SSD)',
    ),
    ccfCo2eTonnes: 0.0000019206061581600003,
    ours: () => gbMonthLine('aws', 'us-east-1', 'ssd', 5, '2020-10-30'),
    agreement: 'exact',
  },
  {
    source: aws(
      'Gets Estimates for Redshift Storage and Compute, and Savings Plan Compute',
      "AmazonRDS us-west-1: USE2-Aurora:ServerlessUsage, 32 ACU-Hr (ACU / 4 = 8 vCPU-h, the provider's watts, " +
        'Aurora replication 6: 48 vCPU-h)',
    ),
    ccfCo2eTonnes: 0.0000372095152992,
    ours: () => cpuLine('aws', 'us-west-1', 48),
    agreement: 'exact',
  },
  {
    source: aws(
      'successfully return lookup table data from getEstimatesFromInputData function',
      'AmazonEC2 us-east-1: USE2-BoxUsage:t2.micro, usage 1 (burstable: the vCpus input 2 is not read)',
    ),
    ccfCo2eTonnes: 0.000005468165227575731,
    ours: () => burstableLine('t2.micro', 1, 10, 'us-east-1', 1),
    agreement: 'exact',
  },
  {
    source: aws(
      'returns 0 kilowattHours when no usage amount',
      'AmazonEC2 us-east-2: USE2-BoxUsage:t2.micro, 0 h',
    ),
    ccfCo2eTonnes: 0,
    ours: () => burstableLine('t2.micro', 1, 10, 'us-east-2', 0),
    agreement: 'exact',
  },
];

const AZURE = 'packages/azure/src/__tests__/ConsumptionManagement.test.ts';
const azure = (test: string, figure: string) => `${AZURE}: ${test} — ${figure}`;

/** A daily GB/Month (or GB) storage line as CCF's Azure estimate takes it: the GB for 24 h (`convertGigaBytesToTerabyteHours`). */
const azureDayLine = (region: string, type: 'ssd' | 'hdd', gigabytes: number, replication = 1): number =>
  calculateStorage(
    'azure',
    {
      region,
      storage_type: type,
      data: gigabytes,
      data_unit: 'GB',
      duration: 24,
      replication_factor: replication,
    },
    app,
  ).co2e;

/**
 * A managed-disk line: CCF takes the disk type's size, whatever the quantity (`SSD_MANAGED_DISKS_STORAGE_GB`,
 * `HDD_MANAGED_DISKS_STORAGE_GB`: Azure's sizes, P4 32 GB, P10 128, E1 4, S4 32, S10 128, S30 1024), for 24 h.
 */
const DISK_GB = { P4: 32, P10: 128, E1: 4, S4: 32, S10: 128, S30: 1024 } as const;
const azureDiskLine = (region: string, disk: keyof typeof DISK_GB, replication = 1): number =>
  azureDayLine(region, disk.startsWith('S') ? 'hdd' : 'ssd', DISK_GB[disk], replication);

/** A memory line in GB-hours (CCF: GB-seconds / 3600, GB-hours as they are), × replication. */
const azureMemoryLine = (region: string, gigabyteHours: number, replication = 1): number =>
  calculateMemory(
    'azure',
    { region, data: gigabyteHours, data_unit: 'GB', duration: 1, replication_factor: replication },
    app,
  ).co2e;

const vm = (instance: string, region: string, hours: number): number =>
  instanceLine({ provider: 'azure', instance, region, hours });

const AZURE_CASES: Case[] = [
  // --- mockConsumptionManagementResponseOne (also 'Returns estimates for Compute grouped by week')
  ...['Returns estimates for Compute', 'Returns estimates for Compute grouped by week'].flatMap(
    (test): Case[] => [
      {
        source: azure(test, "Virtual Machines uksouth: 'D2 v2/DS2 v2', 17 (unit '10 Hours'; CCF reads 17 h)"),
        ccfCo2eTonnes: 0.00005883161186358448,
        ours: () => vm('Standard_D2_v2', 'uksouth', 17),
        agreement: 'exact',
      },
      {
        source: azure(test, "Virtual Machines westeurope: 'D4as v4 Spot', 0.250004 h"),
        ccfCo2eTonnes: 9.402371654345742e-7,
        ours: () => vm('Standard_D4as_v4', 'westeurope', 0.250004),
        agreement: 'exact',
      },
      {
        source: azure(test, "Azure App Service CentralUS: 'F1', 7 h (the F-series F1)"),
        ccfCo2eTonnes: 0.00002914454423698185,
        ours: () => vm('Standard_F1', 'centralus', 7),
        agreement: 'exact',
      },
      {
        source: azure(
          test,
          "Container Instances SouthCentralUS: 'vCPU Duration', 10 vCPU-h (the provider's watts)",
        ),
        ccfCo2eTonnes: 0.000009464764929,
        ours: () => cpuLine('azure', 'southcentralus', 10),
        agreement: 'exact',
      },
    ],
  ),
  // --- mockConsumptionManagementResponseTwo
  {
    source: azure(
      'Returns estimates for Storage',
      "Storage uksouth: 'S10 Disks' (HDD 128 GB) and 'P4 Disks' (SSD 32 GB), disk replication 3",
    ),
    ccfCo2eTonnes: 0.0000023343552,
    ours: () => sum(azureDiskLine('uksouth', 'S10', 3), azureDiskLine('uksouth', 'P4', 3)),
    agreement: 'exact',
  },
  {
    source: azure(
      'Returns estimates for Storage',
      "Azure Database for MySQL westeurope: 'Data Stored', 2 (SSD; MySQL replication 3)",
    ),
    ccfCo2eTonnes: 6.72458112e-8,
    ours: () => azureDayLine('westeurope', 'ssd', 2, 3),
    agreement: 'exact',
  },
  {
    source: azure(
      'Returns estimates for Storage',
      "Container Registry westeurope: 'Basic Registry Unit' (CCF: 10 GB, SSD)",
    ),
    ccfCo2eTonnes: 1.12076352e-7,
    ours: () => azureDayLine('westeurope', 'ssd', 10),
    agreement: 'exact',
  },
  {
    source: azure('Returns estimates for Storage', "HDInsight uksouth: 'S30 Disk' (HDD 1024 GB)"),
    ccfCo2eTonnes: 0.0000042591744,
    ours: () => azureDiskLine('uksouth', 'S30'),
    agreement: 'exact',
  },
  {
    source: azure(
      'Returns estimates for Storage',
      "Azure Synapse Analytics uksouth: 'Data Stored', 2 TB/Month (2 TB for 24 h, SSD)",
    ),
    ccfCo2eTonnes: 0.0000153576,
    ours: () => azureDayLine('uksouth', 'ssd', 2000),
    agreement: 'exact',
  },
  {
    source: azure(
      'Returns estimates for Storage',
      "Storage centralindia: 'ZRS Snapshots', 10 (SSD; ZRS replication 3)",
    ),
    ccfCo2eTonnes: 7.250834879999999e-7,
    ours: () => azureDayLine('centralindia', 'ssd', 10, 3),
    agreement: 'exact',
  },
  // --- mockConsumptionManagementResponseThree (also 'Pages through results')
  ...['Returns estimates for Networking', 'Pages through results'].flatMap((test): Case[] => [
    {
      source: azure(test, "Storage uksouth: 'Geo-Replication Data transfer', 10 GB"),
      ccfCo2eTonnes: 0.00000266625,
      ours: () => networkingLine('azure', 'uksouth', 10),
      agreement: 'exact',
    },
    {
      source: azure(
        test,
        "Bandwidth uksouth: 'Geo-Replication Data transfer', 10 TB (CCF: × 1000 GB; 'To Any' lines left out)",
      ),
      ccfCo2eTonnes: 0.0026662500000000002,
      ours: () => networkingLine('azure', 'uksouth', 10_000),
      agreement: 'exact',
    },
  ]),
  // --- mockConsumptionManagementResponseFive
  {
    source: azure('Returns estimates for Memory', "Virtual Machines northeurope: 'D8 v3 Spot', 5 h"),
    ccfCo2eTonnes: 0.00005086835935908219,
    ours: () => vm('Standard_D8_v3', 'northeurope', 5),
    agreement: 'exact',
  },
  {
    source: azure(
      'Returns estimates for Memory',
      "Redis Cache apsoutheast: 'C1 Cache Instance', 48 h (C1: 1 GB; Redis replication 2)",
    ),
    ccfCo2eTonnes: 0.000018194319360000002,
    ours: () => azureMemoryLine('apsoutheast', 48, 2),
    agreement: 'exact',
  },
  {
    source: azure('Returns estimates for Memory', "Functions EastUS2: 'Execution Time', 0.111375 GB-seconds"),
    ccfCo2eTonnes: 5.4476337675375e-12,
    ours: () => azureMemoryLine('eastus2', quotient(0.111375, 3600)),
    agreement: 'exact',
  },
  {
    source: azure(
      'Returns estimates for Memory',
      "Container Instances ukwest: 'Memory Duration', 14.44976379 GB-h",
    ),
    ccfCo2eTonnes: 0.00000151024596203943,
    ours: () => azureMemoryLine('ukwest', 14.44976379),
    agreement: 'exact',
  },
  {
    source: azure(
      'Returns estimates for Memory',
      "Functions EastUS: 'Standard Execution Time', 12.0185 GB-seconds",
    ),
    ccfCo2eTonnes: 5.878553215277167e-10,
    ours: () => azureMemoryLine('eastus', quotient(12.0185, 3600)),
    agreement: 'exact',
  },
  {
    source: azure(
      'Returns estimates for Memory',
      "Container Instances CentralUS: 'Standard Memory Duration', 2546.8697512514464 GB-h",
    ),
    ccfCo2eTonnes: 0.0005042891453706233,
    ours: () => azureMemoryLine('centralus', 2546.8697512514464),
    agreement: 'exact',
  },
  // --- mockConsumptionManagementResponseSix
  {
    source: azure(
      'Returns estimates for Storage services with replication factors',
      "Storage WestUS: 'Hot LRS Data Stored', 0.002654 (SSD; LRS 3)",
    ),
    ccfCo2eTonnes: 8.7541516223712e-11,
    ours: () => azureDayLine('westus', 'ssd', 0.002654, 3),
    agreement: 'exact',
  },
  {
    source: azure(
      'Returns estimates for Storage services with replication factors',
      "Storage SouthCentralUS: 'Cool ZRS Data Stored', 0.012219 (SSD; ZRS 3)",
    ),
    ccfCo2eTonnes: 4.669232137601761e-10,
    ours: () => azureDayLine('southcentralus', 'ssd', 0.012219, 3),
    agreement: 'exact',
  },
  {
    source: azure(
      'Returns estimates for Storage services with replication factors',
      "Storage uksouth: 'RA-GRS Data Stored', 0.000015 (SSD; GRS 6)",
    ),
    ccfCo2eTonnes: 6.91092e-13,
    ours: () => azureDayLine('uksouth', 'ssd', 0.000015, 6),
    agreement: 'exact',
  },
  {
    source: azure(
      'Returns estimates for Storage services with replication factors',
      "Storage uswest2 (westus2): 'Cool RA-GZRS Data Stored', 0.027492 (SSD; GZRS 6)",
    ),
    ccfCo2eTonnes: 1.813633281101952e-9,
    ours: () => azureDayLine('westus2', 'ssd', 0.027492, 6),
    agreement: 'exact',
  },
  {
    source: azure(
      'Returns estimates for Storage services with replication factors',
      "Storage uksouth: 'P10 Disks' (SSD 128 GB; disks 3)",
    ),
    ccfCo2eTonnes: 0.0000029486592,
    ours: () => azureDiskLine('uksouth', 'P10', 3),
    agreement: 'exact',
  },
  {
    source: azure(
      'Returns estimates for Storage services with replication factors',
      "Storage westindia: 'S4 Disks', 123456789 (HDD 32 GB whatever the quantity; disks 3)",
    ),
    ccfCo2eTonnes: 0.0000012568113792000002,
    ours: () => azureDiskLine('westindia', 'S4', 3),
    agreement: 'exact',
  },
  // --- mockConsumptionManagementResponseSeven
  {
    source: azure(
      'Returns estimates for Database and Cache services with replication factors',
      "Azure Database for MySQL uksouth: 'Data Stored', 0.01344086022 (SSD; 3)",
    ),
    ccfCo2eTonnes: 3.09629032372008e-10,
    ours: () => azureDayLine('uksouth', 'ssd', 0.01344086022, 3),
    agreement: 'exact',
  },
  {
    source: azure(
      'Returns estimates for Database and Cache services with replication factors',
      "SQL Database uksouth: 'vCore', 2 h (1 vCPU; SQL replication 3: 6 vCPU-h)",
    ),
    ccfCo2eTonnes: 0.0000034234649999999996,
    ours: () => cpuLine('azure', 'uksouth', 6),
    agreement: 'exact',
  },
  {
    source: azure(
      'Returns estimates for Database and Cache services with replication factors',
      "Azure Database for MySQL uksouth: '2 vCore', 12 h (MySQL replication 3: 72 vCPU-h)",
    ),
    ccfCo2eTonnes: 0.00004108157999999999,
    ours: () => cpuLine('azure', 'uksouth', 72),
    agreement: 'exact',
  },
  {
    source: azure(
      'Returns estimates for Database and Cache services with replication factors',
      "Azure Cosmos DB CentralUS: 'Data Stored', 0.02150770413 (SSD; Cosmos DB 4)",
    ),
    ccfCo2eTonnes: 1.2515071940042559e-9,
    ours: () => azureDayLine('centralus', 'ssd', 0.02150770413, 4),
    agreement: 'exact',
  },
  {
    source: azure(
      'Returns estimates for Database and Cache services with replication factors',
      "SQL Database uksouth: 'Data Stored', 0.006989247310827 (SSD; 3)",
    ),
    ccfCo2eTonnes: 1.610070967511351e-10,
    ours: () => azureDayLine('uksouth', 'ssd', 0.006989247310827, 3),
    agreement: 'exact',
  },
  // --- mockConsumptionManagementResponseEight
  {
    source: azure(
      'Returns estimates for reclassified unknowns',
      "Virtual Machines northeurope: 'D8 v3', 5 h",
    ),
    ccfCo2eTonnes: 0.00005086835935908219,
    ours: () => vm('Standard_D8_v3', 'northeurope', 5),
    agreement: 'exact',
  },
  {
    source: azure(
      'Returns estimates for reclassified unknowns',
      "Azure Cosmos DB northeurope: 'Data Stored', 0.02150770413 (SSD; 4)",
    ),
    ccfCo2eTonnes: 8.179862341458044e-10,
    ours: () => azureDayLine('northeurope', 'ssd', 0.02150770413, 4),
    agreement: 'exact',
  },
  {
    source: azure(
      'Returns estimates for reclassified unknowns',
      "Storage northeurope: 'Geo-Replication Data transfer', 10 GB",
    ),
    ccfCo2eTonnes: 0.00000330141,
    ours: () => networkingLine('azure', 'northeurope', 10),
    agreement: 'exact',
  },
  {
    source: azure(
      'Returns estimates for reclassified unknowns',
      "Container Instances northeurope: 'Memory Duration', 14.44976379 GB-h",
    ),
    ccfCo2eTonnes: 0.0000018700201112186009,
    ours: () => azureMemoryLine('northeurope', 14.44976379),
    agreement: 'exact',
  },
  // --- mockConsumptionManagementResponseNine
  {
    source: azure(
      'Returns estimates for Compute with Embodied Emissions, and modern usage type',
      "Virtual Machines northeurope: 'D8 v3', 5 h",
    ),
    ccfCo2eTonnes: 0.00005086835935908219,
    ours: () => vm('Standard_D8_v3', 'northeurope', 5),
    agreement: 'exact',
  },
  {
    source: azure(
      'Returns estimates for Compute with Embodied Emissions, and modern usage type',
      "Virtual Machines uksouth: 'D2 v2', 17 h",
    ),
    ccfCo2eTonnes: 0.00005883161186358448,
    ours: () => vm('Standard_D2_v2', 'uksouth', 17),
    agreement: 'exact',
  },
  {
    source: azure(
      'Returns estimates for Compute with Embodied Emissions, and modern usage type',
      "Virtual Machines EASTUS (modern row): 'D2 v2', 17 h",
    ),
    ccfCo2eTonnes: 0.00007408639568815949,
    ours: () => vm('Standard_D2_v2', 'eastus', 17),
    agreement: 'exact',
  },
  ...[
    'Returns estimates for Compute with Embodied Emissions, and modern usage type',
    'Returns estimates filtered within the start and end date',
  ].map((test): Case => ({
    source: azure(
      test,
      "Virtual Machines westeurope: 'DS11-1 v2', 0.250004 h (a constrained-vCPU size: 1 of 2 vCPUs, no memory charged)",
    ),
    ccfCo2eTonnes: 0.000004310720698327189,
    ours: () => vm('Standard_DS11-1_v2', 'westeurope', 0.250004),
    agreement: 'exact',
  })),
  // --- mockConsumptionManagementResponseEleven
  {
    source: azure(
      'Returns estimates for GPU Virtual Machines',
      "Virtual Machines northeurope: 'NC24', 1 h (4 Tesla K80)",
    ),
    ccfCo2eTonnes: 0.00026311119316111894,
    ours: () => vm('Standard_NC24', 'northeurope', 1),
    agreement: 'exact',
  },
  {
    source: azure(
      'Returns estimates for GPU Virtual Machines',
      "Virtual Machines EASTUS (modern row): 'NC24', 1 h",
    ),
    ccfCo2eTonnes: 0.0003571204539700953,
    ours: () => vm('Standard_NC24', 'eastus', 1),
    agreement: 'exact',
  },
  {
    source: azure(
      'Returns estimates for GPU Virtual Machines',
      "Virtual Machines WESTEUROPE (modern row): 'ND96asr A100 v4', 1 h (8 A100)",
    ),
    ccfCo2eTonnes: 0.0009111758805632959,
    ours: () => vm('Standard_ND96asr_A100_v4', 'westeurope', 1),
    agreement: 'exact',
  },
];

const GCP = 'packages/gcp/src/__tests__/BillingExportTable.test.ts';
const gcp = (test: string, figure: string) => `${GCP}: ${test} — ${figure}`;

/** vCPU-seconds at the provider's watts (CCF's median, for unknown processors; vCPU-hours = seconds / 3600). */
const gcpCpuSeconds = (region: string, seconds: number, datasets = app): number =>
  calculateCpu('gcp', { cpu_count: 1, region, duration: seconds, duration_unit: 's' }, datasets).co2e;

/**
 * A compute line with a machine type (`BillingExportTable.getComputeFootprintEstimate`, `getEmbodiedEmissions`):
 * CCF's vCPU-hours (seconds / 3600; × the type's vCPUs in the lookup) at the type's watts, and embodied emissions
 * for seconds / vCPUs / 3600 hours. No memory: GCP bills RAM on its own lines.
 */
function gcpMachineLine(instance: string, region: string, seconds: number, vcpuSeconds = seconds): number {
  const row = app.cloudInstances.get('gcp', instance);
  if (row === undefined) throw new Error(`${instance} not in the CCF app's table`);
  const cpu = calculateInstance(
    'gcp',
    { instance, region, duration: quotient(vcpuSeconds, row.vcpu), duration_unit: 's' },
    app,
  ).cpu_estimate.co2e;
  const embodied = calculateEmbodied(
    'gcp',
    { instance, instance_count: 1, duration: quotient(seconds, row.vcpu), duration_unit: 's' },
    app,
  ).co2e;
  return sum(cpu, embodied);
}

/** Byte-seconds of storage: CCF divides by 2^40 and 3600; ours is the same bytes for one second, in decimal TB. */
const gcpByteSecondsStorage = (
  region: string,
  type: 'ssd' | 'hdd',
  byteSeconds: number,
  replication = 1,
): number =>
  calculateStorage(
    'gcp',
    {
      region,
      storage_type: type,
      data: quotient(byteSeconds, 1e9),
      data_unit: 'GB',
      duration: 1,
      duration_unit: 's',
      replication_factor: replication,
    },
    app,
  ).co2e;

/** Byte-seconds of memory: CCF divides by 2^30 and 3600 and calls it GB-hours; ours is decimal GB (`gib`). */
const gcpByteSecondsMemory = (region: string, byteSeconds: number): number =>
  calculateMemory(
    'gcp',
    { region, data: quotient(byteSeconds, 1024), data_unit: 'KiB', duration: 1, duration_unit: 's' },
    app,
  ).co2e;

/** Bytes of networking: CCF divides by 2^30 and calls it GB; ours is decimal GB (`gib`). */
const gcpBytesNetworking = (region: string, bytes: number): number =>
  calculateNetworking('gcp', { region, data: quotient(bytes, 1024), data_unit: 'KiB' }, app).co2e;

const GCP_CASES: Case[] = [
  // --- mockQueryResultsAppEngineSSDStorage
  {
    source: gcp(
      'Returns estimation results for App Engine SSD Storage & GCS Storage accumulated',
      "App Engine us-east1: 'Cloud Datastore Storage' 2.83e16 and 'GCS Storage' 380040914534400 byte-seconds (HDD: no 'SSD' in the name)",
    ),
    ccfCo2eTonnes: 0.0000022483981047594606,
    ours: () =>
      sum(
        gcpByteSecondsStorage('us-east1', 'hdd', 2.83e16),
        gcpByteSecondsStorage('us-east1', 'hdd', 380040914534400),
      ),
    agreement: 'tib',
  },
  // --- mockQueryResultsCloudSQLSSDComputeEngineDataFlowHDD
  {
    source: gcp(
      'Returns estimation results for Cloud SQL SSD Storage, Compute Engine and Cloud Dataflow HDD',
      "Cloud SQL us-east1: 'Storage PD SSD for DB in Americas', 4.26e18 byte-seconds (SSD)",
    ),
    ccfCo2eTonnes: 0.0006165537342894821,
    ours: () => gcpByteSecondsStorage('us-east1', 'ssd', 4.26e18),
    agreement: 'tib',
  },
  {
    source: gcp(
      'Returns estimation results for Cloud SQL SSD Storage, Compute Engine and Cloud Dataflow HDD',
      "Compute Engine us-east1: 'Compute optimized Core running in Americas', 80000 s, no machine type",
    ),
    ccfCo2eTonnes: 0.000025408288888888893,
    ours: () => gcpCpuSeconds('us-east1', 80000),
    agreement: 'exact',
  },
  {
    source: gcp(
      'Returns estimation results for Cloud SQL SSD Storage, Compute Engine and Cloud Dataflow HDD',
      "Cloud Dataflow us-west1: 'Local Disk Time PD Standard Belgium', 7.8e17 byte-seconds (HDD)",
    ),
    ccfCo2eTonnes: 0.00000845375325297937,
    ours: () => gcpByteSecondsStorage('us-west1', 'hdd', 7.8e17),
    agreement: 'tib',
  },
  // --- mockQueryCloudStorageWithReplicationFactors
  {
    source: gcp(
      'Returns estimation results for Cloud Storage based on replication factors',
      "Cloud Storage us-central1: 'Standard Storage US Regional', 117334055659520 byte-seconds (HDD; single region 2)",
    ),
    ccfCo2eTonnes: 1.9505313224223818e-8,
    ours: () => gcpByteSecondsStorage('us-central1', 'hdd', 117334055659520, 2),
    agreement: 'tib',
  },
  // --- mockQueryComputeEngineCloudFilestoreCloudSQLWithReplicationFactors (its Filestore and Cloud SQL us-east4
  // figures are carried in tests/cloud/ccf-parity.test.ts)
  {
    source: gcp(
      'Returns estimation results for ComputeEngine, CloudFileStore and CloudSQL based on replication factors',
      "Compute Engine us-east1: 'Storage PD Capacity', 1.571922596855808e15 byte-seconds (HDD)",
    ),
    ccfCo2eTonnes: 1.232323133056641e-7,
    ours: () => gcpByteSecondsStorage('us-east1', 'hdd', 1.571922596855808e15),
    agreement: 'tib',
  },
  {
    source: gcp(
      'Returns estimation results for ComputeEngine, CloudFileStore and CloudSQL based on replication factors',
      "Compute Engine asia-northeast1: 'Regional SSD backed PD Capacity in Japan', 123456789 byte-seconds (SSD; regional disks 2)",
    ),
    ccfCo2eTonnes: 3.8206262679887003e-14,
    ours: () => gcpByteSecondsStorage('asia-northeast1', 'ssd', 123456789, 2),
    agreement: 'tib',
  },
  {
    source: gcp(
      'Returns estimation results for ComputeEngine, CloudFileStore and CloudSQL based on replication factors',
      "Compute Engine asia-south1: 'Storage Machine Image in Mumbai', 123456789 byte-seconds (HDD; image in one region 2)",
    ),
    ccfCo2eTonnes: 2.9882951503395816e-14,
    ours: () => gcpByteSecondsStorage('asia-south1', 'hdd', 123456789, 2),
    agreement: 'tib',
  },
  {
    source: gcp(
      'Returns estimation results for ComputeEngine, CloudFileStore and CloudSQL based on replication factors',
      "Cloud SQL asia-south1: 'Storage PD SSD for HA Postgres DB in Mumbai', 987654321 byte-seconds (SSD; HA 2)",
    ),
    ccfCo2eTonnes: 4.4134821084116997e-13,
    ours: () => gcpByteSecondsStorage('asia-south1', 'ssd', 987654321, 2),
    agreement: 'tib',
  },
  // --- mockQueryMemoryStoreWithReplicationFactors (the first also in mockQueryCloudSpannerKubernetesEngine…)
  ...[
    'Returns estimation results for Cloud Memory store for Redis based on replication factors',
    'returns estimations for Kubernetes Engine Compute, unknown CloudSpanner and requests usageTypes',
  ].map((test): Case => ({
    source: gcp(
      test,
      "Cloud Memorystore for Redis us-central1: 'Redis Capacity Basic M1', 9.27712935936e13 byte-seconds (HDD)",
    ),
    ccfCo2eTonnes: 7.711031250000001e-9,
    ours: () => gcpByteSecondsStorage('us-central1', 'hdd', 9.27712935936e13),
    agreement: 'tib',
  })),
  {
    source: gcp(
      'Returns estimation results for Cloud Memory store for Redis based on replication factors',
      "Cloud Memorystore for Redis us-central2: 'Redis Capacity Standard M1 Belgium', 9.27712935936e13 byte-seconds (HDD; Standard 2)",
    ),
    ccfCo2eTonnes: 1.5422062500000002e-8,
    ours: () => gcpByteSecondsStorage('us-central2', 'hdd', 9.27712935936e13, 2),
    agreement: 'tib',
  },
  ...(
    [
      ['asia-south1', 'Regional Kubernetes Clusters', 4.34927505e8, 2.0518022989814515],
      ['us-central1', 'Autopilot Kubernetes Clusters', 3.6839623e7, 0.12287556385109111],
    ] as const
  ).map(([region, usage, seconds, co2e]): Case => ({
    source: gcp(
      'returns estimations for Kubernetes Engine Compute, unknown CloudSpanner and requests usageTypes',
      `Kubernetes Engine ${region}: '${usage}', ${seconds} s (CCF: e2-medium nodes, 3 vCPUs per cluster, ` +
        'its config default VCPUS_PER_GKE_CLUSTER; Kubernetes replication 3 on the compute part)',
    ),
    ccfCo2eTonnes: co2e,
    ours: () => gcpMachineLine('e2-medium', region, seconds, toNumber(mul(decimal(seconds), decimal(9)))),
    agreement: 'exact',
  })),
  // --- mockQueryComputeWithDifferentMachineTypes
  {
    source: gcp(
      'Returns estimation results for Compute with different machine types',
      "Compute Engine us-east1: 'Small Instance with 1 VCPU running in EMEA', g1-small, 17512304 s",
    ),
    ccfCo2eTonnes: 0.007842652743064876,
    ours: () => gcpMachineLine('g1-small', 'us-east1', 17512304),
    agreement: 'exact',
  },
  {
    source: gcp(
      'Returns estimation results for Compute with different machine types',
      "Compute Engine us-west1: 'N1 Predefined Instance Core running in Americas', n1-standard-1, 80000 s",
    ),
    ccfCo2eTonnes: 0.000015288602528327412,
    ours: () => gcpMachineLine('n1-standard-1', 'us-west1', 80000),
    agreement: 'exact',
  },
  {
    source: gcp(
      'Returns estimation results for Compute with different machine types',
      "Compute Engine us-east1: 'E2 Instance Core running in Americas', e2-medium, 9234985 s",
    ),
    ccfCo2eTonnes: 0.005747755048803163,
    ours: () => gcpMachineLine('e2-medium', 'us-east1', 9234985),
    agreement: 'exact',
  },
  // --- mockQueryComputeWithDifferentMachineTypesForEmbodiedEmissions
  ...(
    [
      ['n1-standard-1', 'us-central1', 86400, 0.00004682991153059361],
      ['e2-medium', 'us-central1', 259200, 0.00016628265848219178],
      ['n2-standard-2', 'us-central1', 345599.5396, 0.00015241170025368233],
      ['f1-micro', 'asia-south1', 93698, 0.0000581436219757642],
    ] as const
  ).map(([instance, region, seconds, co2e]): Case => ({
    source: gcp(
      'Returns estimation results for Compute with Embodied Emissions',
      `Compute Engine ${region}: ${instance}, ${seconds} s`,
    ),
    ccfCo2eTonnes: co2e,
    ours: () => gcpMachineLine(instance, region, seconds),
    agreement: 'exact',
  })),
  {
    source: gcp(
      'Returns estimation results for Compute with Embodied Emissions',
      "Compute Engine asia-south1: 'N1 Shared Core Instance running in Mumbai', no machine type, 93698 s (no embodied part)",
    ),
    ccfCo2eTonnes: 0.00004594104035277778,
    ours: () => gcpCpuSeconds('asia-south1', 93698),
    agreement: 'exact',
  },
  // --- mockQueryResultsUnknownAndCloudSQLCompute
  {
    source: gcp(
      'Returns estimates for networking and CLoud SQL Compute usage accumulated',
      'Cloud SQL us-east1: four compute lines, 50000 + 94360227 + 26316000 + 1112952 s',
    ),
    ccfCo2eTonnes: 0.03869656322521306,
    ours: () =>
      sum(...[50000, 94360227, 26316000, 1112952].map((seconds) => gcpCpuSeconds('us-east1', seconds))),
    agreement: 'exact',
  },
  {
    source: gcp(
      'Returns estimates for networking and CLoud SQL Compute usage accumulated',
      'Cloud SQL us-west1: IP address reservation and idling lines, 14551 + 18198540 s (CCF counts them as compute)',
    ),
    ccfCo2eTonnes: 0.0007997064706583333,
    ours: () => sum(gcpCpuSeconds('us-west1', 14551), gcpCpuSeconds('us-west1', 18198540)),
    agreement: 'exact',
  },
  // --- mockQueryAppEngineComputeUnknownRegion
  {
    source: gcp(
      'estimation for unknown App Engine Compute and Cloud DataFlow Compute',
      "Cloud Dataflow us-east1: 'vCPU Time Batch Iowa', 1141961 s",
    ),
    ccfCo2eTonnes: 0.0003626909373480556,
    ours: () => gcpCpuSeconds('us-east1', 1141961),
    agreement: 'exact',
  },
  {
    source: gcp(
      'estimation for unknown App Engine Compute and Cloud DataFlow Compute',
      "App Engine us-east1: 'Backend Instances', 14551 s",
    ),
    ccfCo2eTonnes: 0.000004621450145277778,
    ours: () => gcpCpuSeconds('us-east1', 14551),
    agreement: 'exact',
  },
  // --- mockQueryNetworkingWithIngress
  {
    source: gcp(
      'estimation for Networking',
      "App Engine us-west1: 'Cloud Firestore Google Egress from APAC to the Americas', 165007339 bytes",
    ),
    ccfCo2eTonnes: 1.014255394600332e-8,
    ours: () => gcpBytesNetworking('us-west1', 165007339),
    agreement: 'gib',
  },
  {
    source: gcp(
      'estimation for Networking',
      "Cloud Storage us-east1: 'Download Australia', 2597445774 bytes",
    ),
    ccfCo2eTonnes: 0.0000011548591894168408,
    ours: () => gcpBytesNetworking('us-east1', 2597445774),
    agreement: 'gib',
  },
  {
    source: gcp(
      'estimation for Networking',
      "Cloud Pub/Sub europe-central2: 'Download Australia', 2597445774 bytes",
    ),
    ccfCo2eTonnes: 0.000001532716343557835,
    ours: () => gcpBytesNetworking('europe-central2', 2597445774),
    agreement: 'gib',
  },
  {
    source: gcp(
      'estimation for Networking',
      "Compute Engine us-west1: 'Network Ingress via Carrier Peering Network - EMEA Based', 165007339 bytes",
    ),
    ccfCo2eTonnes: 1.0142553946003321e-8,
    ours: () => gcpBytesNetworking('us-west1', 165007339),
    agreement: 'gib',
  },
  // --- mockQueryResultsComputeEngineRam
  ...(
    [
      ['Flex Instance RAM', 'us-west1', 120, 8.031725883483887e-19],
      ['N1 Predefined Instance Ram running in EMEA', 'europe-west1', 260, 3.1613765491379627e-18],
      ['E2 Instance Ram running in Americas', 'us-central1', 380, 1.9505411386489868e-17],
    ] as const
  ).map(([usage, region, byteSeconds, co2e]): Case => ({
    source: gcp('estimation for Memory', `Compute engine ${region}: '${usage}', ${byteSeconds} byte-seconds`),
    ccfCo2eTonnes: co2e,
    ours: () => gcpByteSecondsMemory(region, byteSeconds),
    agreement: 'gib',
  })),
  // --- mockQueryResultsGPUMachineTypes: GPU-hours = seconds / 3600 at the GPU model's watts
  {
    source: gcp(
      'estimation for GPU Machine Types',
      "Compute engine us-west1: 'Nvidia Tesla V100 GPU running in Americas', 3600 s (35/306 W)",
    ),
    ccfCo2eTonnes: 0.000011253000000000002,
    ours: () => gcpCpuSeconds('us-west1', 3600, withWatts('gcp', 35, 306)),
    agreement: 'exact',
  },
  {
    source: gcp(
      'estimation for GPU Machine Types',
      "Compute engine europe-west1: 'Nvidia Tesla A100 GPU running in Americas', 3600 s (46/407 W)",
    ),
    ccfCo2eTonnes: 0.000027157350000000002,
    ours: () => gcpCpuSeconds('europe-west1', 3600, withWatts('gcp', 46, 407)),
    agreement: 'exact',
  },
  {
    source: gcp(
      'estimation for GPU Machine Types',
      "Notebooks europe-west1: 'Notebooks GPU Standard', 3600 s (no model named: the mean of CCF's six GPU models, 169/6 and 1472.5/6 W)",
    ),
    ccfCo2eTonnes: 0.000016401320833333334,
    ours: () => gcpCpuSeconds('europe-west1', 3600, withWatts('gcp', quotient(169, 6), quotient(1472.5, 6))),
    agreement: 'exact',
  },
  // --- mockQueryReclassifiedUnknowns
  {
    source: gcp(
      'estimation for reclassified unknowns',
      "Compute Engine us-east1: 'E2 Instance Core running in Americas', 9234985 s, no machine type",
    ),
    ccfCo2eTonnes: 0.002933064584556945,
    ours: () => gcpCpuSeconds('us-east1', 9234985),
    agreement: 'exact',
  },
  {
    source: gcp(
      'estimation for reclassified unknowns',
      "App Engine us-east1: 'Backend Instances', 436294571 s",
    ),
    ccfCo2eTonnes: 0.13856873125777305,
    ours: () => gcpCpuSeconds('us-east1', 436294571),
    agreement: 'exact',
  },
  {
    source: gcp(
      'estimation for reclassified unknowns',
      "App Engine us-east1: 'Cloud Datastore Storage', 28276395699693600 byte-seconds (HDD)",
    ),
    ccfCo2eTonnes: 0.000002216753968032188,
    ours: () => gcpByteSecondsStorage('us-east1', 'hdd', 28276395699693600),
    agreement: 'tib',
  },
  {
    source: gcp(
      'estimation for reclassified unknowns',
      "Cloud Storage us-east1: 'Download Australia', 2597445774 bytes",
    ),
    ccfCo2eTonnes: 0.0000011548591894168408,
    ours: () => gcpBytesNetworking('us-east1', 2597445774),
    agreement: 'gib',
  },
  {
    source: gcp(
      'estimation for reclassified unknowns',
      "Cloud Run us-east1: 'Cloud Run Network Internet Egress Intercontinental …', 7316020648 bytes",
    ),
    ccfCo2eTonnes: 0.0000032528007937178022,
    ours: () => gcpBytesNetworking('us-east1', 7316020648),
    agreement: 'gib',
  },
  {
    source: gcp(
      'estimation for reclassified unknowns',
      "Compute Engine us-east1: 'Flex Instance RAM', 987 byte-seconds",
    ),
    ccfCo2eTonnes: 4.7784083833297094e-17,
    ours: () => gcpByteSecondsMemory('us-east1', 987),
    agreement: 'gib',
  },
  // --- 'estimation for lookup table input data': usage 3600 (s, byte-seconds or bytes) per input
  {
    source: gcp(
      'estimation for lookup table input data',
      "Compute Engine us-east4: 'N1 Predefined Instance Core running in Virginia', no machine type",
    ),
    ccfCo2eTonnes: 7.992594e-7,
    ours: () => gcpCpuSeconds('us-east4', 3600),
    agreement: 'exact',
  },
  ...(
    [
      ['n1-standard-4', 4, 0.0000043296727137747334],
      ['n1-standard-8', 8, 0.000008160778313774732],
    ] as const
  ).map(([instance, vcpu, co2e]): Case => ({
    source: gcp(
      'estimation for lookup table input data',
      `Compute Engine us-east4: 'N1 Predefined Instance Core running in Virginia', ${instance} (vCPU-hours × ${vcpu})`,
    ),
    ccfCo2eTonnes: co2e,
    ours: () => gcpMachineLine(instance, 'us-east4', 3600, 3600 * vcpu),
    agreement: 'exact',
  })),
  {
    source: gcp(
      'estimation for lookup table input data',
      "Compute Engine europe-west1: 'Storage PD Capacity' (HDD)",
    ),
    ccfCo2eTonnes: 7.088146958267318e-20,
    ours: () => gcpByteSecondsStorage('europe-west1', 'hdd', 3600),
    agreement: 'tib',
  },
  {
    source: gcp(
      'estimation for lookup table input data',
      "Compute Engine europe-west1: 'Network Internet Egress from EMEA to Americas'",
    ),
    ccfCo2eTonnes: 4.019960761070252e-13,
    ours: () => gcpBytesNetworking('europe-west1', 3600),
    agreement: 'gib',
  },
  {
    source: gcp(
      'estimation for lookup table input data',
      "Compute Engine us-central1: 'SSD backed PD Capacity' (SSD)",
    ),
    ccfCo2eTonnes: 5.524198058992625e-19,
    ours: () => gcpByteSecondsStorage('us-central1', 'ssd', 3600),
    agreement: 'tib',
  },
  // --- mockQueryResultsWithTags
  {
    source: gcp(
      'returns estimates for instances with tags',
      "App Engine us-east1: 'Cloud Datastore Storage', 2.83e16 byte-seconds (HDD)",
    ),
    ccfCo2eTonnes: 0.000002218604448797932,
    ours: () => gcpByteSecondsStorage('us-east1', 'hdd', 2.83e16),
    agreement: 'tib',
  },
  {
    source: gcp(
      'returns estimates for instances with tags',
      "Compute Engine us-east1: 'Compute optimized Core running in Americas', 80000 s",
    ),
    ccfCo2eTonnes: 0.000025408288888888893,
    ours: () => gcpCpuSeconds('us-east1', 80000),
    agreement: 'exact',
  },
];

/**
 * Ours (kg) agrees with CCF's (t) to 15 significant digits: within half a unit of the 15th significant digit of CCF's
 * figure. (Comparing the two rounded to 15 digits would fail where the exact value sits on a rounding edge and CCF's
 * floating-point sum lands on the other side of it, as three figures here do, 1e-16 apart.)
 */
function expectSameTonnes(oursKg: number, ccfTonnes: number): void {
  const ours = new Big(oursKg).div(1000);
  const theirs = new Big(ccfTonnes);
  const exponent = Number(ccfTonnes.toExponential().split('e')[1]);
  const halfUnit = new Big(5).times(new Big(10).pow(exponent - 15));
  expect(
    ours.minus(theirs).abs().lte(halfUnit),
    `${ours.toExponential(16)} vs ${theirs.toExponential(16)}`,
  ).toBe(true);
}

const ALL_CASES = [...AWS_CASES, ...AZURE_CASES, ...GCP_CASES];

describe("CCF's provider-level test cases (trunk b7a049c7) under ccfAppDatasets", () => {
  it.each(ALL_CASES.map((c) => [c.source, c] as const))('%s', (_, c) => {
    expectSameTonnes(toNumber(div(decimal(c.ours()), CORRECTION[c.agreement])), c.ccfCo2eTonnes);
  });
});

describe('the count of carried cases', () => {
  it('is what docs/datasets.md and datasets/SOURCES.md report', () => {
    const count = (cases: Case[], agreement?: Case['agreement']) =>
      cases.filter((c) => agreement === undefined || c.agreement === agreement).length;
    expect([count(AWS_CASES), count(AZURE_CASES), count(GCP_CASES)]).toEqual([74, 47, 50]);
    expect([count(ALL_CASES, 'exact'), count(ALL_CASES, 'tib'), count(ALL_CASES, 'gib')]).toEqual([
      132, 28, 11,
    ]);
  });
});
