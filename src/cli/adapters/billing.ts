import {
  applyCostRatio,
  BILLING_COLUMNS,
  type BillingEstimator,
  type BillingFormat,
  type CostRatios,
  createBillingEstimator,
  rowHeader,
} from '../../billing/index';
import type { CloudDatasets } from '../../datasets/types';
import type { RowAdapter } from '../pipeline/row-adapter';

/** Options of `billing FILE` that shape the rows (the rest are the pipeline's). */
export interface BillingAdapterOptions {
  /** The export format; detected from each file's header when omitted. */
  exportFormat?: BillingFormat;
  /** `--unknown cost-ratio`: the ratios of a first pass over the file (pipeline/billing-passes.ts). */
  ratios?: CostRatios;
}

/**
 * Billing export rows (`co2e-engine billing FILE`): each row goes through the `co2e-engine/billing` estimator (the
 * format detected from its columns once per header) and gets the eight `co2e_*` columns instead of the generic
 * result columns. Rows are never failures: a row that cannot be estimated says why in `co2e_reason`. Summary
 * groups: provider, service, region, account, and the reasons rows were not estimated.
 *
 * @example
 * ```ts
 * const rows = billingRows(defaultDatasets);
 * rows.compute({ 'lineItem/UsageType': 'BoxUsage:t3.micro', 'lineItem/UsageAmount': '1' }, 'csv').fields;
 * ```
 */
export function billingRows(datasets: CloudDatasets, options: BillingAdapterOptions = {}): RowAdapter {
  let lastKey: string | undefined;
  let estimator: BillingEstimator | undefined;
  const estimatorFor = (values: Record<string, unknown>): BillingEstimator => {
    const header = rowHeader(values);
    const key = header.join('\u0000');
    if (estimator === undefined || key !== lastKey) {
      estimator = createBillingEstimator(datasets, header, {
        ...(options.exportFormat !== undefined && { format: options.exportFormat }),
      });
      lastKey = key;
    }
    return estimator;
  };
  return {
    name: 'billing',
    groupings: {
      provider: 'by provider',
      service: 'by service',
      region: 'by region',
      account: 'by account',
      not_estimated: 'not estimated, by reason (rows)',
    },
    resultColumns: BILLING_COLUMNS,
    resultTypes: { co2e_kg: 'DOUBLE', co2e_kwh: 'DOUBLE', co2e_activity_value: 'DOUBLE' },
    errorFields: billingErrorFields,
    compute(values) {
      const active = estimatorFor(values);
      let { row, facts } = active.estimate(values);
      if (options.ratios !== undefined) row = applyCostRatio(row, facts, options.ratios);
      const fields: Record<string, unknown> = {};
      for (const name of BILLING_COLUMNS) fields[name] = row[name];
      const estimated = row.co2e_status === 'estimated';
      const groups: Record<string, string> = estimated
        ? {
            provider: facts.provider,
            service: facts.service || '(none)',
            region: facts.region || '(none)',
            account: facts.account || '(none)',
          }
        : { not_estimated: row.co2e_reason };
      return {
        outcome: {
          co2e: row.co2e_kg ?? 0,
          co2e_unit: 'kg',
          activity_value: row.co2e_activity_value ?? 0,
          activity_unit: row.co2e_activity_unit ?? '',
          factor_id: row.co2e_factor_id,
          factor_name: null,
          factor_source: null,
          notices: [],
        },
        groups,
        fields,
      };
    },
  };
}

/** The result fields of a record that could not be read: not estimated, with the reader's message. */
export const billingErrorFields = (code: string, message: string): Record<string, unknown> => ({
  co2e_status: 'not_estimated',
  co2e_reason: `${code}: ${message}`,
  co2e_kg: null,
  co2e_kwh: null,
  co2e_calculator: null,
  co2e_activity_value: null,
  co2e_activity_unit: null,
  co2e_factor_id: null,
});
