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
  | 'start'
  | 'end'
  | 'account'
  | 'charge_category';

export interface FormatSpec {
  id: BillingFormat;
  label: string;
  /** Every one of these columns must be present (any case); each entry may list alternatives. */
  detect: readonly (readonly string[])[];
  /** The provider of every row, or undefined when a column names it (FOCUS `ProviderName`). */
  provider?: CloudProvider;
  /** Columns per field, first present wins. */
  columns: Partial<Record<LineField, readonly string[]>>;
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
      meter_category: ['x_SkuMeterCategory'],
      meter_subcategory: ['x_SkuMeterSubcategory'],
      meter_name: ['x_SkuMeterName', 'SkuMeter'],
      additional_info: ['x_SkuDetails'],
      unit: ['ConsumedUnit', 'PricingUnit'],
      quantity: ['ConsumedQuantity', 'PricingQuantity'],
      region: ['RegionId', 'RegionName'],
      cost: ['EffectiveCost', 'BilledCost'],
      billed_cost: ['BilledCost'],
      start: ['ChargePeriodStart'],
      end: ['ChargePeriodEnd'],
      account: ['SubAccountId', 'BillingAccountId'],
      charge_category: ['ChargeCategory'],
    },
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
      region: ['product_region_code', 'product_from_region_code'],
      cost: ['line_item_net_unblended_cost', 'line_item_unblended_cost'],
      billed_cost: ['line_item_unblended_cost'],
      start: ['line_item_usage_start_date'],
      end: ['line_item_usage_end_date'],
      account: ['line_item_usage_account_id'],
      charge_category: ['line_item_line_item_type'],
    },
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
      region: ['product/regionCode', 'product/region'],
      cost: ['lineItem/NetUnblendedCost', 'lineItem/UnblendedCost'],
      billed_cost: ['lineItem/UnblendedCost'],
      start: ['lineItem/UsageStartDate'],
      end: ['lineItem/UsageEndDate'],
      account: ['lineItem/UsageAccountId'],
      charge_category: ['lineItem/LineItemType'],
    },
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
      region: ['location.region', 'location_region'],
      cost: ['cost'],
      billed_cost: ['cost'],
      start: ['usage_start_time'],
      end: ['usage_end_time'],
      account: ['project.id', 'project_id', 'billing_account_id'],
      charge_category: ['cost_type'],
    },
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
      region: ['ResourceLocation'],
      cost: ['CostInBillingCurrency', 'Cost', 'PreTaxCost'],
      billed_cost: ['CostInBillingCurrency', 'Cost', 'PreTaxCost'],
      start: ['Date', 'UsageDate'],
      account: ['SubscriptionId', 'SubscriptionGuid', 'SubscriptionName'],
      charge_category: ['ChargeType'],
    },
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

/** The column of the header that fills each field under `format` (fields without one are absent). */
export function resolveColumns(
  format: FormatSpec,
  header: readonly string[],
): Partial<Record<LineField, string>> {
  const index = headerIndex(header);
  const resolved: Partial<Record<LineField, string>> = {};
  for (const [field, names] of Object.entries(format.columns) as [LineField, readonly string[]][]) {
    const found = names.map((name) => index.get(name.toLowerCase())).find((name) => name !== undefined);
    if (found !== undefined) resolved[field] = found;
  }
  return resolved;
}

export const formatSpec = (id: BillingFormat): FormatSpec => FORMATS.find((format) => format.id === id)!;
