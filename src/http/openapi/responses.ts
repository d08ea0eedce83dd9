import * as z from 'zod/mini';
import { ERROR_CODES } from '../../core/errors';

/**
 * The response bodies of the HTTP routes as zod schemas, for the generated OpenAPI document only (the calculators
 * build their results directly; nothing at run time parses with these). tests/http/openapi.test.ts checks them
 * against the library's result types (at compile time) and against real responses (with a JSON Schema validator).
 */

const nullableNumber = () => z.nullable(z.number());

/** `data_quality_flags`: a JSON array (spend, instance) or the list's Python text form (per-resource routes). */
const emissionFactor = (flags: z.ZodMiniType) =>
  z.object({
    name: z.string(),
    id: z.string(),
    activity_id: z.string(),
    factor: z.number(),
    access_type: z.enum(['public', 'private']),
    source: z.string(),
    source_dataset: z.string(),
    year: z.int(),
    region: z.string(),
    category: z.string(),
    source_lca_activity: z.string(),
    data_quality_flags: flags,
  });

/** Gas breakdown of a factor, per unit of activity; null where the source gives none. */
export const ConstituentGasesSchema = z.object({
  co2e_total: nullableNumber(),
  co2e_other: nullableNumber(),
  co2: nullableNumber(),
  ch4: nullableNumber(),
  n2o: nullableNumber(),
});

const embodiedMethod = () =>
  z.enum(['published', 'derived from platform specs', 'derived from predecessor family']);

const estimate = (flags: z.ZodMiniType) =>
  z.object({
    co2e: z.number(),
    co2e_unit: z.literal('kg'),
    co2e_calculation_method: z.enum(['ar4', 'ar5', 'ar6']),
    co2e_calculation_origin: z.enum(['source', 'co2e-engine']),
    emission_factor: z.nullable(emissionFactor(flags)),
    constituent_gases: z.nullable(ConstituentGasesSchema),
    activity_data: z.object({ activity_value: z.number(), activity_unit: z.string() }),
    audit_trail: z.enum(['enabled', 'disabled']),
    /** Memory and storage: the request's `replication_factor`; embodied: how the platform figure was obtained. */
    calculation_details: z.optional(
      z.object({ replication_factor: z.optional(z.number()), embodied_method: z.optional(embodiedMethod()) }),
    ),
  });

/** An estimate as the library returns it and the spend and instance routes send it (flags as an array). */
export const EstimateSchema = estimate(z.array(z.string()));
/** An estimate as the per-resource cloud routes send it: flags as the list's text form, `"['…']"`. */
export const WireEstimateSchema = estimate(z.string());

/** The hosted API's error body, also a failed batch element. */
export const ErrorBodySchema = z.object({
  error: z.string(),
  error_code: z.enum(ERROR_CODES),
  message: z.string(),
  path: z.optional(z.string()),
  valid_values: z.optional(z.array(z.union([z.string(), z.number()]))),
});

/** Response of `/compute/{provider_id}/instance`. */
export const InstanceEstimateSchema = z.object({
  total_co2e: z.number(),
  total_co2e_unit: z.literal('kg'),
  memory_estimate: EstimateSchema,
  cpu_estimate: EstimateSchema,
  /** Present for an instance with GPUs that have watts in the coefficients (issue 22). */
  gpu_estimate: z.optional(EstimateSchema),
  embodied_cpu_estimate: EstimateSchema,
  calculation_details: z.object({
    instance: z.string(),
    instance_memory: z.number(),
    memory_unit: z.literal('GB'),
    vcpu_cores: z.number(),
    average_vcpu_utilization: z.number(),
    power_usage_effectiveness: z.number(),
    energy_used_cpu: z.number(),
    energy_used_memory: z.number(),
    charged_memory: z.optional(z.number()),
    cpu_min_watts: z.optional(z.number()),
    cpu_max_watts: z.optional(z.number()),
    gpu_count: z.optional(z.number()),
    gpu_model: z.optional(z.string()),
    average_gpu_utilization: z.optional(z.number()),
    energy_used_gpu: z.optional(z.number()),
    embodied_method: embodiedMethod(),
    energy_unit: z.literal('kWh'),
  }),
  /** What the estimate leaves out (`gpu_power_not_estimated`). */
  notices: z.optional(
    z.array(z.object({ code: z.string(), message: z.string(), severity: z.enum(['info', 'warning']) })),
  ),
});

const marginSource = () => z.enum(['supplied', 'default', 'none']);

/** Response of `/procurement/spend`. */
export const SpendEstimateSchema = z.object({
  estimate: EstimateSchema,
  calculation_details: z.object({
    tax_margin: z.number(),
    trade_margin: z.number(),
    transport_margin: z.number(),
    inflation_applied: z.number(),
    margin_sources: z.object({
      tax_margin: marginSource(),
      trade_margin: marginSource(),
      transport_margin: marginSource(),
    }),
    margin_datasets: z.optional(z.array(z.string())),
    inflation_years: z.array(z.int()),
    exchange_rate: z.number(),
    exchange_rate_year: z.nullable(z.int()),
    money_in_factor_currency: z.number(),
    factor_currency: z.string(),
    factor_year: z.int(),
    price_basis: z.enum(['basic', 'purchaser']),
    products: z.array(
      z.object({ product: z.string(), name: z.string(), factor: z.number(), weight: z.nullable(z.number()) }),
    ),
  }),
  notices: z.array(
    z.object({ code: z.string(), message: z.string(), severity: z.enum(['info', 'warning']) }),
  ),
});

/** Response of `GET /compute/metadata`. */
export const ComputeMetadataSchema = z.object({
  providers: z.array(
    z.object({
      provider_full_name: z.string(),
      provider_id: z.enum(['aws', 'azure', 'gcp']),
      regions: z.array(z.string()),
      virtual_machine_instances: z.array(z.string()),
      region_aliases: z.record(z.string(), z.array(z.string())),
      unsupported_regions: z.optional(z.array(z.object({ region: z.string(), reason: z.string() }))),
      excluded_instances: z.optional(
        z.array(z.object({ instance: z.string(), source: z.string(), reason: z.string() })),
      ),
    }),
  ),
});

/** Response of `GET /procurement/metadata`. */
export const ProcurementMetadataSchema = z.object({
  regions: z.array(z.string()),
  currencies: z.array(z.string()),
  factor_currency: z.string(),
  factor_year: z.int(),
  classifications: z.array(
    z.object({
      type: z.string(),
      codes: z.array(
        z.object({
          code: z.string(),
          products: z.array(z.object({ product: z.string(), name: z.optional(z.string()) })),
        }),
      ),
    }),
  ),
  /** Per spend region with factors (src/spend/coverage.ts, `co2e-engine list coverage`). */
  coverage: z.optional(
    z.array(
      z.object({
        region: z.string(),
        products: z.int(),
        margins: z.nullable(
          z.object({
            dataset: z.string(),
            margins: z.array(z.enum(['tax_margin', 'trade_margin', 'transport_margin'])),
            products: z.int(),
          }),
        ),
        currency: z.nullable(z.string()),
        fx_latest_year: z.nullable(z.int()),
        fx_latest_partial: z.optional(z.string()),
        inflation_latest_year: z.nullable(z.int()),
      }),
    ),
  ),
});

/** One element of a v1 `source_trail` (see src/http/v1/cloud.ts). */
export const SourceTrailEntrySchema = z.object({
  data_category: z.literal('emission_factor'),
  name: z.string(),
  source: z.string(),
  source_dataset: z.string(),
  /** The factor's year as a string, as the hosted v1 API sent it. */
  year: z.string(),
  region: z.string(),
  region_name: z.string(),
});

/**
 * A v1 use-phase estimate (`/compute/v1/{provider_id}/{cpu,memory,storage,networking}`): `activity_data` is the
 * electricity in `kWh`, the factor the grid's kg per kWh, and `source_trail` names where the factor came from.
 */
export const V1EstimateSchema = z.extend(WireEstimateSchema, {
  source_trail: z.array(SourceTrailEntrySchema),
});
