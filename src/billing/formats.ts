import { deepFreeze } from '../core/freeze';
import type { CloudProvider } from '../datasets/tables';

/**
 * Billing export formats, as data: which columns a format has (to detect it from a header) and which of its columns
 * fill each field of a {@link BillingLine}. Column names are matched case-insensitively; a field takes the first
 * of its columns the file has. Sources of the column names:
 *
 * - `focus`: FinOps Open Cost and Usage Specification 1.0, 1.1 and 1.2 (focus.finops.org, columns `BilledCost`,
 *   `EffectiveCost`, `ChargeCategory`, `ChargePeriodStart`/`End`, `ConsumedQuantity`/`Unit`, `ProviderName`,
 *   `RegionId`, `ServiceName`, `ServiceCategory`, `SubAccountId`, `SkuMeter` (1.1)); vendor columns `x_UsageType`,
 *   `x_Operation` (AWS Data Exports FOCUS 1.0), `x_SkuMeterCategory`, `x_SkuMeterSubcategory`, `x_SkuMeterName`,
 *   `x_SkuDetails` (Microsoft Cost Management FocusCost 1.0/1.2).
 * - `aws-cur`: AWS Cost and Usage Report data dictionary (legacy CUR: `lineItem/UsageType`, `lineItem/UsageAmount`,
 *   `pricing/unit`, `product/regionCode`, `product/instanceType`, `lineItem/LineItemType`, …).
 * - `aws-cur2`: AWS Data Exports, CUR 2.0 table dictionary (`line_item_usage_type`, `line_item_usage_amount`,
 *   `pricing_unit`, `product_region_code`, `product_instance_type`, `line_item_line_item_type`, …).
 * - `gcp`: Google Cloud Billing, standard/detailed usage cost export to BigQuery (`service.description`,
 *   `sku.description`, `usage.amount`, `usage.unit`, `location.region`, `cost`, `cost_type`, `usage_start_time`,
 *   `project.id`), as exported to CSV (dotted or underscored names) or JSON Lines (nested objects).
 * - `azure`: Microsoft Cost Management cost details (usage details) export (`MeterCategory`, `MeterSubCategory`,
 *   `MeterName`, `Quantity`, `UnitOfMeasure`, `ResourceLocation`, `CostInBillingCurrency`, `ChargeType`,
 *   `AdditionalInfo`, `Date`, `SubscriptionId`).
 */

export type BillingFormat = 'focus' | 'aws-cur' | 'aws-cur2' | 'gcp' | 'azure';
export const BILLING_FORMATS: readonly BillingFormat[] = /* @__PURE__ */ deepFreeze([
  'focus',
  'aws-cur',
  'aws-cur2',
  'gcp',
  'azure',
]);

/** The fields of a bill line the classification reads. */
export type LineField =
  | 'provider_name'
  | 'service'
  | 'service_code'
  | 'service_category'
  | 'usage_type'
  | 'description'
  | 'operation'
  | 'meter_category'
  | 'meter_subcategory'
  | 'meter_name'
  | 'instance_hint'
  | 'additional_info'
  | 'unit'
  | 'quantity'
  | 'region'
  | 'cost'
  | 'billed_cost'
  | 'currency'
  | 'start'
  | 'end'
  | 'account'
  | 'charge_category'
  | 'resource'
  | 'tags'
  | 'commitment_status';

export interface FormatSpec {
  id: BillingFormat;
  label: string;
  /** Every one of these columns must be present (any case); each entry may list alternatives. */
  detect: readonly (readonly string[])[];
  /** The provider of every row, or undefined when a column names it (FOCUS `ProviderName`). */
  provider?: CloudProvider;
  /**
   * Columns per field, in order of preference: a field reads the first of them that is non-empty in the row (an
   * empty `product/regionCode` does not hide the `product/region` beside it). `quantity` and `unit` are read as a
   * pair: the unit of the quantity's column position when that cell has one.
   */
  columns: Partial<Record<LineField, readonly string[]>>;
  /** How the tags are written: a JSON object (`json`), GCP `labels` (`[{key, value}]`), or one column per key. */
  tags?: { kind: 'json' } | { kind: 'labels' } | { kind: 'columns'; prefix: string };
  /** Values of `charge_category` that are usage (any case); other rows are `not_usage`. */
  usage_values: readonly string[];
}

export const FORMATS: readonly FormatSpec[] = /* @__PURE__ */ deepFreeze([
  {
    id: 'focus',
    label: 'FOCUS 1.0–1.2',
    detect: [
      ['BilledCost'],
      ['ChargeCategory'],
      ['ChargePeriodStart'],
      ['ProviderName', 'ServiceProviderName'],
    ],
    columns: {
      provider_name: ['ProviderName', 'ServiceProviderName'],
      service: ['ServiceName'],
      service_code: ['x_ServiceCode', 'ServiceName'],
      service_category: ['ServiceCategory'],
      usage_type: ['x_UsageType', 'ChargeDescription'],
      description: ['ChargeDescription'],
      operation: ['x_Operation'],
      meter_category: ['x_SkuMeterCategory', 'ServiceName'],
      meter_subcategory: ['x_SkuMeterSubcategory'],
      meter_name: ['x_SkuMeterName', 'SkuMeter', 'ChargeDescription'],
      additional_info: ['x_SkuDetails', 'SkuPriceDetails'],
      unit: ['ConsumedUnit', 'PricingUnit'],
      quantity: ['ConsumedQuantity', 'PricingQuantity'],
      region: ['RegionId', 'RegionName'],
      cost: ['EffectiveCost', 'BilledCost'],
      billed_cost: ['BilledCost'],
      currency: ['BillingCurrency'],
      start: ['ChargePeriodStart'],
      end: ['ChargePeriodEnd'],
      account: ['SubAccountId', 'BillingAccountId'],
      charge_category: ['ChargeCategory'],
      resource: ['ResourceId', 'ResourceName'],
      tags: ['Tags'],
      commitment_status: ['CommitmentDiscountStatus'],
    },
    tags: { kind: 'json' },
    usage_values: ['Usage'],
  },
  {
    id: 'aws-cur2',
    label: 'AWS CUR 2.0',
    detect: [['line_item_usage_type'], ['line_item_usage_amount']],
    provider: 'aws',
    columns: {
      service: ['line_item_product_code', 'product_servicecode'],
      service_code: ['line_item_product_code', 'product_servicecode'],
      usage_type: ['line_item_usage_type'],
      description: ['line_item_line_item_description'],
      operation: ['line_item_operation'],
      instance_hint: ['product_instance_type'],
      unit: ['pricing_unit', 'product_pricing_unit'],
      quantity: ['line_item_usage_amount'],
      region: [
        'product_region_code',
        'product_from_region_code',
        'product_to_region_code',
        'product_from_location',
        'product_location',
      ],
      cost: ['line_item_net_unblended_cost', 'line_item_unblended_cost'],
      billed_cost: ['line_item_unblended_cost'],
      currency: ['line_item_currency_code'],
      start: ['line_item_usage_start_date'],
      end: ['line_item_usage_end_date'],
      account: ['line_item_usage_account_id'],
      charge_category: ['line_item_line_item_type'],
      resource: ['line_item_resource_id'],
      tags: ['resource_tags'],
    },
    tags: { kind: 'json' },
    usage_values: ['Usage', 'DiscountedUsage', 'SavingsPlanCoveredUsage'],
  },
  {
    id: 'aws-cur',
    label: 'AWS CUR (legacy)',
    detect: [['lineItem/UsageType'], ['lineItem/UsageAmount']],
    provider: 'aws',
    columns: {
      service: ['lineItem/ProductCode', 'product/servicecode'],
      service_code: ['lineItem/ProductCode', 'product/servicecode'],
      usage_type: ['lineItem/UsageType'],
      description: ['lineItem/LineItemDescription'],
      operation: ['lineItem/Operation'],
      instance_hint: ['product/instanceType'],
      unit: ['pricing/unit'],
      quantity: ['lineItem/UsageAmount'],
      region: [
        'product/regionCode',
        'product/region',
        'product/fromRegionCode',
        'product/toRegionCode',
        'product/fromLocation',
        'product/location',
      ],
      cost: ['lineItem/NetUnblendedCost', 'lineItem/UnblendedCost'],
      billed_cost: ['lineItem/UnblendedCost'],
      currency: ['lineItem/CurrencyCode'],
      start: ['lineItem/UsageStartDate'],
      end: ['lineItem/UsageEndDate'],
      account: ['lineItem/UsageAccountId'],
      charge_category: ['lineItem/LineItemType'],
      resource: ['lineItem/ResourceId'],
    },
    tags: { kind: 'columns', prefix: 'resourceTags/' },
    usage_values: ['Usage', 'DiscountedUsage', 'SavingsPlanCoveredUsage'],
  },
  {
    id: 'gcp',
    label: 'GCP billing export (BigQuery)',
    detect: [
      ['sku.description', 'sku_description'],
      ['service.description', 'service_description'],
    ],
    provider: 'gcp',
    columns: {
      service: ['service.description', 'service_description'],
      service_code: ['service.description', 'service_description'],
      usage_type: ['sku.description', 'sku_description'],
      description: ['sku.description', 'sku_description'],
      unit: ['usage.unit', 'usage_unit'],
      quantity: ['usage.amount', 'usage_amount'],
      region: ['location.region', 'location_region', 'location.location', 'location_location'],
      cost: ['cost'],
      billed_cost: ['cost'],
      currency: ['currency'],
      start: ['usage_start_time'],
      end: ['usage_end_time'],
      account: ['project.id', 'project_id', 'billing_account_id'],
      charge_category: ['cost_type'],
      resource: ['resource.global_name', 'resource.name', 'resource_global_name', 'resource_name'],
      tags: ['labels'],
    },
    tags: { kind: 'labels' },
    usage_values: ['regular'],
  },
  {
    id: 'azure',
    label: 'Azure cost details export',
    detect: [['MeterCategory'], ['MeterName']],
    provider: 'azure',
    columns: {
      service: ['MeterCategory', 'ConsumedService'],
      service_code: ['MeterCategory'],
      usage_type: ['MeterName'],
      description: ['MeterName'],
      meter_category: ['MeterCategory'],
      meter_subcategory: ['MeterSubCategory', 'MeterSubcategory'],
      meter_name: ['MeterName'],
      additional_info: ['AdditionalInfo'],
      unit: ['UnitOfMeasure'],
      quantity: ['Quantity', 'UsageQuantity'],
      region: ['ResourceLocation', 'MeterRegion', 'Location'],
      cost: ['CostInBillingCurrency', 'Cost', 'PreTaxCost'],
      billed_cost: ['CostInBillingCurrency', 'Cost', 'PreTaxCost'],
      currency: ['BillingCurrencyCode', 'BillingCurrency', 'Currency'],
      start: ['Date', 'UsageDate'],
      account: ['SubscriptionId', 'SubscriptionGuid', 'SubscriptionName'],
      charge_category: ['ChargeType'],
      resource: ['ResourceId', 'InstanceId', 'ResourceName'],
      tags: ['Tags'],
    },
    tags: { kind: 'json' },
    usage_values: ['Usage'],
  },
]);

/** FOCUS `ProviderName` → our provider id (AWS, Microsoft, Google Cloud); others (Oracle, …) are unsupported. */
export function focusProvider(name: string): CloudProvider | undefined {
  if (/\b(aws|amazon)\b/i.test(name)) return 'aws';
  if (/\b(microsoft|azure)\b/i.test(name)) return 'azure';
  if (/\b(google|gcp)\b/i.test(name)) return 'gcp';
  return undefined;
}

/** A header's column names by lower case, for case-insensitive lookup. */
export const headerIndex = (header: readonly string[]): Map<string, string> =>
  new Map(header.map((name) => [name.toLowerCase(), name]));

/**
 * The format whose columns the header has, or undefined. Tried in the order of {@link FORMATS} (FOCUS first:
 * a FOCUS file may carry vendor columns).
 *
 * @example
 * ```ts
 * detectBillingFormat(['BilledCost', 'ChargeCategory', 'ChargePeriodStart', 'ProviderName']); // 'focus'
 * ```
 */
export function detectBillingFormat(header: readonly string[]): BillingFormat | undefined {
  const index = headerIndex(header);
  return FORMATS.find((format) =>
    format.detect.every((alternatives) => alternatives.some((name) => index.has(name.toLowerCase()))),
  )?.id;
}

/**
 * The columns that identify a format (each entry its alternatives, `|`-separated), and whether the header has any
 * of them: a header with none is not of that format even when it is forced (every row would be unknown).
 *
 * @example
 * ```ts
 * formatColumns('aws-cur', ['BilledCost', 'ChargeCategory']);
 * // { names: ['lineItem/UsageType', 'lineItem/UsageAmount'], found: false }
 * ```
 */
export function formatColumns(
  id: BillingFormat,
  header: readonly string[],
): { names: string[]; found: boolean } {
  const index = headerIndex(header);
  const { detect } = formatSpec(id);
  return {
    names: detect.map((alternatives) => alternatives.join('|')),
    found: detect.some((alternatives) => alternatives.some((name) => index.has(name.toLowerCase()))),
  };
}

/**
 * The columns of the header that may fill each field under `format`, in order of preference (fields without one
 * are absent). A field's value is the first of them non-empty in the row.
 *
 * @example
 * ```ts
 * resolveColumns(formatSpec('aws-cur'), ['product/region', 'product/regionCode']).region;
 * // ['product/regionCode', 'product/region']
 * ```
 */
export function resolveColumns(
  format: FormatSpec,
  header: readonly string[],
): Partial<Record<LineField, string[]>> {
  const index = headerIndex(header);
  const resolved: Partial<Record<LineField, string[]>> = {};
  for (const [field, names] of Object.entries(format.columns) as [LineField, readonly string[]][]) {
    const found = names.flatMap((name) => index.get(name.toLowerCase()) ?? []);
    if (found.length > 0) resolved[field] = [...new Set(found)];
  }
  return resolved;
}

/** A column the header lacks that would have helped, for the rows of `provider` (all rows when undefined). */
export interface MissingColumn {
  column: string;
  provider?: CloudProvider;
  /** `no x_UsageType: instance types read from ChargeDescription`. */
  text: string;
}

/**
 * The columns of a format that the header lacks, for the fields that help classification, with what the reader
 * does instead: the summary names them for the providers its rows have.
 *
 * @example
 * ```ts
 * missingColumns(formatSpec('focus'), ['BilledCost', 'ChargeDescription'])[0]!.text;
 * // 'no x_UsageType: AWS instance types, storage classes and transfer directions read from ChargeDescription'
 * ```
 */
export function missingColumns(format: FormatSpec, header: readonly string[]): MissingColumn[] {
  const index = headerIndex(header);
  return (MISSING_HINTS[format.id] ?? [])
    .filter(([column]) => !index.has(column.toLowerCase()))
    .map(([column, instead, provider]) => ({
      column,
      text: `no ${column}: ${instead}`,
      ...(provider !== undefined && { provider }),
    }));
}

/** Per format: columns that refine classification when present, what the reader does without them, for whom. */
const MISSING_HINTS: Partial<Record<BillingFormat, readonly (readonly [string, string, CloudProvider?])[]>> =
  {
    focus: [
      [
        'x_UsageType',
        'AWS instance types, storage classes and transfer directions read from ChargeDescription',
        'aws',
      ],
      [
        'x_SkuMeterSubcategory',
        'Azure disks, databases and transfer read from SkuMeter or ChargeDescription',
        'azure',
      ],
      ['ConsumedQuantity', 'quantities read from PricingQuantity and PricingUnit'],
      ['RegionId', 'regions read from RegionName'],
    ],
    'aws-cur': [
      ['product/instanceType', 'instance types read from lineItem/UsageType'],
      ['product/regionCode', 'regions read from product/region, product/fromRegionCode or product/location'],
    ],
    'aws-cur2': [
      ['product_instance_type', 'instance types read from line_item_usage_type'],
      ['product_region_code', 'regions read from product_from_region_code or product_location'],
    ],
    azure: [['AdditionalInfo', 'VM sizes read from MeterName']],
  };

export const formatSpec = (id: BillingFormat): FormatSpec => FORMATS.find((format) => format.id === id)!;
