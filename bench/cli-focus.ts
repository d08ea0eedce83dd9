/**
 * The FOCUS bill of `bench/billing.ts` and `npm run bench:cli`: row `index` of a generated FOCUS 1.x export (14 line
 * templates of AWS, Azure and Google Cloud: instance hours, vCPU and memory, SSD/HDD storage, inter-region transfer,
 * internet egress, requests; every 50th row tax), with varied quantities, costs, days and resource ids.
 */

export const HEADER = [
  'BilledCost',
  'EffectiveCost',
  'BillingCurrency',
  'ChargeCategory',
  'ChargePeriodStart',
  'ChargePeriodEnd',
  'ConsumedQuantity',
  'ConsumedUnit',
  'ProviderName',
  'RegionId',
  'ResourceId',
  'ServiceCategory',
  'ServiceName',
  'SubAccountId',
  'ChargeDescription',
  'x_ServiceCode',
  'x_UsageType',
  'x_SkuMeterCategory',
  'x_SkuMeterSubcategory',
  'x_SkuMeterName',
];

/** Line templates: [provider, category, service, service code, usage type, meter category/subcategory/name, description, unit, region, quantity scale]. */
export const TEMPLATES: string[][] = [
  [
    'AWS',
    'Compute',
    'Amazon Elastic Compute Cloud',
    'AmazonEC2',
    'BoxUsage:m5.large',
    '',
    '',
    '',
    '',
    'Hrs',
    'us-east-1',
    '24',
  ],
  [
    'AWS',
    'Compute',
    'Amazon Elastic Compute Cloud',
    'AmazonEC2',
    'BoxUsage:t3.micro',
    '',
    '',
    '',
    '',
    'Hrs',
    'eu-west-1',
    '24',
  ],
  [
    'AWS',
    'Storage',
    'Amazon Elastic Compute Cloud',
    'AmazonEC2',
    'EBS:VolumeUsage.gp3',
    '',
    '',
    '',
    '',
    'GB-Mo',
    'us-east-1',
    '3',
  ],
  [
    'AWS',
    'Storage',
    'Amazon Simple Storage Service',
    'AmazonS3',
    'TimedStorage-ByteHrs',
    '',
    '',
    '',
    '',
    'GB-Mo',
    'us-west-2',
    '30',
  ],
  [
    'AWS',
    'Networking',
    'AWS Data Transfer',
    'AWSDataTransfer',
    'USE1-USW2-AWS-Out-Bytes',
    '',
    '',
    '',
    '',
    'GB',
    'us-east-1',
    '5',
  ],
  [
    'AWS',
    'Networking',
    'AWS Data Transfer',
    'AWSDataTransfer',
    'DataTransfer-Out-Bytes',
    '',
    '',
    '',
    '',
    'GB',
    'us-east-1',
    '5',
  ],
  [
    'AWS',
    'Storage',
    'Amazon Simple Storage Service',
    'AmazonS3',
    'Requests-Tier1',
    '',
    '',
    '',
    '',
    'Requests',
    'us-east-1',
    '1000',
  ],
  [
    'Microsoft',
    'Compute',
    'Virtual Machines',
    '',
    '',
    'Virtual Machines',
    'Dsv3 Series',
    'D2s v3',
    'D2s v3',
    '1 Hour',
    'westeurope',
    '24',
  ],
  [
    'Microsoft',
    'Storage',
    'Storage',
    '',
    '',
    'Storage',
    'Premium SSD Managed Disks',
    'P10 LRS Disk',
    'P10 LRS Disk',
    '1/Month',
    'westeurope',
    '0.03',
  ],
  [
    'Microsoft',
    'Networking',
    'Bandwidth',
    '',
    '',
    'Bandwidth',
    'Rtn Preference: MGN',
    'Standard Data Transfer Out',
    'Standard Data Transfer Out',
    '1 GB',
    'eastus',
    '10',
  ],
  [
    'Google Cloud',
    'Compute',
    'Compute Engine',
    '',
    '',
    '',
    '',
    '',
    'N2 Instance Core running in Americas',
    'seconds',
    'us-central1',
    '86400',
  ],
  [
    'Google Cloud',
    'Compute',
    'Compute Engine',
    '',
    '',
    '',
    '',
    '',
    'N2 Instance Ram running in Americas',
    'gibibyte hour',
    'us-central1',
    '96',
  ],
  [
    'Google Cloud',
    'Storage',
    'Compute Engine',
    '',
    '',
    '',
    '',
    '',
    'Balanced PD Capacity',
    'gibibyte month',
    'europe-west1',
    '3',
  ],
  [
    'Google Cloud',
    'Networking',
    'Compute Engine',
    '',
    '',
    '',
    '',
    '',
    'Network Inter Region Data Transfer Out from Americas to EMEA',
    'gibibyte',
    'us-central1',
    '2',
  ],
];

export function focusLine(index: number): string {
  const [
    provider,
    category,
    service,
    code,
    usage,
    meterCategory,
    meterSub,
    meterName,
    description,
    unit,
    region,
    scale,
  ] = TEMPLATES[index % TEMPLATES.length]!;
  const quantity = Number(scale) * (1 + (index % 97) / 10);
  const cost = ((index % 1000) / 100 + 0.01).toFixed(2);
  const day = String(1 + (index % 28)).padStart(2, '0');
  const fields = [
    cost,
    cost,
    'USD',
    index % 50 === 0 ? 'Tax' : 'Usage',
    `2026-11-${day}T00:00:00Z`,
    `2026-11-${day}T23:59:59Z`,
    String(quantity),
    unit,
    provider,
    region,
    `r-${index}`,
    category,
    service,
    `acct-${index % 7}`,
    description || usage || meterName,
    code,
    usage,
    meterCategory,
    meterSub,
    meterName,
  ];
  return fields.map((field) => (/[",]/.test(field!) ? `"${field!.replace(/"/g, '""')}"` : field)).join(',');
}

/** The FOCUS specification's columns of {@link HEADER}: no `x_` vendor column (`focusSpecLine` writes these). */
export const SPEC_HEADER = HEADER.filter((name) => !name.startsWith('x_'));

/**
 * AWS `ChargeDescription` as AWS publishes it (Price List `description`), per usage type of {@link TEMPLATES}: what a
 * FOCUS file without `x_UsageType` carries instead.
 */
const AWS_DESCRIPTIONS: Record<string, string> = {
  'BoxUsage:m5.large': '$0.096 per On Demand Linux m5.large Instance Hour',
  'BoxUsage:t3.micro': '$0.0114 per On Demand Linux t3.micro Instance Hour',
  'EBS:VolumeUsage.gp3':
    '$0.08 per GB-month of General Purpose SSD (gp3) provisioned storage - US East (Northern Virginia)',
  'TimedStorage-ByteHrs': '$0.023 per GB - first 50 TB / month of storage used',
  'USE1-USW2-AWS-Out-Bytes': '$0.02 per GB - US East (Northern Virginia) data transfer to US West (Oregon)',
  'DataTransfer-Out-Bytes':
    '$0.09 per GB - first 10 TB / month data transfer out beyond the global free tier',
  'Requests-Tier1': '$0.005 per 1,000 PUT, COPY, POST, or LIST requests',
};

/**
 * Row `index` of the same bill with the specification's columns only ({@link SPEC_HEADER}): AWS lines described as
 * AWS publishes them, Azure lines by their meter name, Google Cloud lines by their SKU description.
 */
export function focusSpecLine(index: number): string {
  const template = TEMPLATES[index % TEMPLATES.length]!;
  const usage = template[4]!;
  const cells = focusLine(index)
    .match(/("([^"]|"")*"|[^,]*)(,|$)/g)!
    .slice(0, HEADER.length);
  const fields = cells.map((cell) => cell.replace(/,$/, ''));
  const description = HEADER.indexOf('ChargeDescription');
  if (AWS_DESCRIPTIONS[usage] !== undefined) {
    const text = AWS_DESCRIPTIONS[usage]!;
    fields[description] = /[",]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  }
  return fields.slice(0, SPEC_HEADER.length).join(',');
}
