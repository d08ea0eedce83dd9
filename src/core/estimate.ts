import { type Decimal, isZero, mul, productOfNumbers, roundSignificant, toNumber } from './decimal';
import { inBatch } from './batch';
import { approximateProductWith, shortestPair } from './double-double';
import { EmissionsError } from './errors';

/** The factor used for an estimate, as the hosted API describes it. */
export interface EmissionFactor {
  name: string;
  /** Stable hex id derived from the factor's identity and its dataset's version. */
  id: string;
  activity_id: string;
  /** kg CO2e per unit of activity, so that `co2e = activity_value × factor`. */
  factor: number;
  access_type: 'public' | 'private';
  source: string;
  source_dataset: string;
  year: number;
  region: string;
  category: string;
  source_lca_activity: string;
  data_quality_flags: string[];
}

/** Gas breakdown of a factor, per unit of activity. */
export interface ConstituentGases {
  co2e_total: number | null;
  co2e_other: number | null;
  co2: number | null;
  ch4: number | null;
  n2o: number | null;
}

export interface ActivityData {
  activity_value: number;
  activity_unit: string;
}

export type CalculationMethod = 'ar4' | 'ar5' | 'ar6';
export type AuditTrail = 'enabled' | 'disabled';

/**
 * One estimate: `co2e = activity_data.activity_value × emission_factor.factor`, in kg. With the audit trail
 * disabled, `emission_factor` and `constituent_gases` are null.
 *
 * `emission_factor` (with its `data_quality_flags`) and `constituent_gases` are frozen and shared by every estimate
 * of the same factor, so a batch does not copy them per result: read them, serialise them, or copy them
 * (`{ ...estimate.emission_factor }`) before changing them. Everything else in a result is its own.
 */
export interface Estimate {
  co2e: number;
  co2e_unit: 'kg';
  co2e_calculation_method: CalculationMethod;
  /** `source` when the factor is the publisher's; `co2e-engine` when the engine derived it. */
  co2e_calculation_origin: 'source' | 'co2e-engine';
  emission_factor: EmissionFactor | null;
  constituent_gases: ConstituentGases | null;
  activity_data: ActivityData;
  audit_trail: AuditTrail;
  /**
   * Inputs that shaped the activity beyond the request's quantities, present only when the request gave one: the
   * memory and storage calculators echo `replication_factor` here (activity = data × hours × replication_factor).
   */
  calculation_details?: { replication_factor: number } | { embodied_method: EmbodiedMethod };
}

/**
 * How an embodied figure was obtained: the source's `published` figure, or derived (from the platform's published
 * specs by the Teads parts formula, or from a predecessor family's published figure).
 */
export type EmbodiedMethod = 'published' | 'derived from platform specs' | 'derived from predecessor family';

/** Options every calculator accepts. */
export interface CalculationOptions {
  /**
   * Round output numbers to this many significant digits, never dropping integer digits (the hosted API shows 4).
   * Default: no rounding; numbers are the exact decimals converted once to JS numbers. A value that is not a whole
   * number from 1 to 1,000,000 makes the calculation throw a RangeError.
   */
  significantDigits?: number;
}

/** Factor metadata without the value; the value is a decimal kept apart until output. */
export type FactorMetadata = Omit<EmissionFactor, 'factor'>;

export interface EstimateParts {
  activityValue: Decimal;
  activityUnit: string;
  factor: Decimal;
  metadata: FactorMetadata;
  method: CalculationMethod;
  origin: Estimate['co2e_calculation_origin'];
  auditTrail: AuditTrail;
}

/**
 * The JS number of an exact result, or `invalid_request` when it has none: beyond ±1.8e308 (Infinity) or so close to
 * 0 that it would read as 0 (a nonzero result never leaves the engine as 0 or Infinity).
 */
function finiteNumber(value: Decimal): number {
  const number = toNumber(value);
  if (Number.isFinite(number) && (number !== 0 || isZero(value))) return number;
  throw unwritable(number);
}

/** The error for a nonzero result that reads as 0 or one beyond the doubles. */
const unwritable = (number: number): EmissionsError =>
  new EmissionsError(
    'invalid_request',
    `A result of this request (${number === 0 ? 'below 5e-324 but not 0' : 'beyond 1.8e308'}) cannot be written as a JSON number; check the request's quantities and the dataset's figures.`,
  );

/** Converts a decimal to the output number, applying display rounding when asked. */
export function outputNumber(value: Decimal, options: CalculationOptions | undefined): number {
  const digits = options?.significantDigits;
  return finiteNumber(digits === undefined ? value : roundSignificant(value, digits));
}

const sharedNumbers = new WeakMap<Decimal, number>();
/**
 * {@link outputNumber} for a decimal that is cached and shared between calls (a factor, a rate): its number form
 * is converted once, not per estimate.
 */
export function sharedNumber(value: Decimal, options: CalculationOptions | undefined): number {
  if (options?.significantDigits !== undefined) return outputNumber(value, options);
  let number = sharedNumbers.get(value);
  if (number === undefined) {
    number = finiteNumber(value);
    sharedNumbers.set(value, number);
  }
  return number;
}

/**
 * Builds an {@link Estimate}: `co2e = activity_value × factor`, computed once from the numbers the estimate
 * publishes (see {@link estimateFromCo2e}).
 *
 * @example
 * ```ts
 * buildEstimate({ activityValue: decimal(2), activityUnit: 'kWh', factor: decimal('0.5'), metadata, method: 'ar5',
 *   origin: 'source', auditTrail: 'enabled' }).co2e // 1
 * ```
 */
export function buildEstimate(parts: EstimateParts, options?: CalculationOptions): Estimate {
  return estimateFromCo2e(undefined, parts, options);
}

/**
 * co2e as the exact decimal product of the activity value and factor an estimate publishes, rounded once to a
 * number: the identity `co2e = activity_value × factor` then holds to the last digit for anyone who checks it
 * with a decimal library. The exact inputs have more digits than a number holds, and their own product differed
 * from this one in the last digit for 19 % of results (issue 39).
 *
 * @example
 * ```ts
 * publishedProduct(170597.26211294835, 0.0469) // 8001.011593097278
 * ```
 */
export function publishedProduct(activityValue: number, factor: number): number {
  const product = productOfNumbers(activityValue, factor);
  if (Number.isFinite(product) && (product !== 0 || activityValue === 0 || factor === 0)) return product;
  throw unwritable(product);
}

/**
 * Builds an {@link Estimate}. Without display rounding its co2e is {@link publishedProduct} of the published
 * activity value and factor; `co2e`, the exact result, is used only with `significantDigits`, rounded (each
 * shown number is then rounded on its own, so the identity holds to the shown digits only).
 *
 * @example
 * ```ts
 * estimateFromCo2e(div(mul(hours, numerator), denominator), { activityValue: hours, factor, ... }, options)
 * ```
 */
export function estimateFromCo2e(
  co2e: Decimal | undefined,
  parts: EstimateParts,
  options?: CalculationOptions,
): Estimate {
  // The factor's parts first, then the activity: a factor beyond the doubles is the error reported.
  const shared = parts.auditTrail === 'enabled' ? factorParts(parts, options) : undefined;
  const activityValue = outputNumber(parts.activityValue, options);
  const co2eNumber =
    options?.significantDigits === undefined
      ? publishedProduct(activityValue, sharedNumber(parts.factor, undefined))
      : outputNumber(co2e ?? mul(parts.activityValue, parts.factor), options);
  return assemble(co2eNumber, activityValue, parts, shared);
}

/**
 * Everything of an estimate but its activity, made once per factor and audit trail (a calculator caches it with its
 * factor), so an estimate of an activity number does no lookups and allocates only itself: the factor's number and
 * its shortest decimal in double-double form, and its shared `emission_factor` and `constituent_gases`.
 */
export interface EstimateTemplate {
  readonly factor: number;
  /**
   * The factor's shortest decimal as a double-double `factorHigh + factorLow`, where it is positive and the fast
   * product takes it (else NaN): two fields of the template, not an array, so an estimate reads them without one
   * more object to fetch.
   */
  readonly factorHigh: number;
  readonly factorLow: number;
  readonly activityUnit: string;
  readonly method: CalculationMethod;
  readonly origin: Estimate['co2e_calculation_origin'];
  readonly auditTrail: AuditTrail;
  readonly emissionFactor: EmissionFactor | null;
  readonly constituentGases: ConstituentGases | null;
}

/**
 * The {@link EstimateTemplate} of an estimate's parts besides the activity. Throws as the estimate would for a factor
 * beyond the doubles.
 *
 * @example
 * ```ts
 * const template = estimateTemplate({ activityUnit: 'kWh', factor: grid, metadata, method: 'ar5', origin: 'source',
 *   auditTrail: 'enabled' });
 * estimateOfTemplate(0.0024062, template).co2e; // 0.0024062 × the grid factor, rounded once
 * ```
 */
export function estimateTemplate(parts: Omit<EstimateParts, 'activityValue'>): EstimateTemplate {
  const factor = sharedNumber(parts.factor, undefined);
  const shared = parts.auditTrail === 'enabled' ? factorParts(parts, undefined) : undefined;
  const pair = factor > 0 ? shortestPair(factor) : undefined;
  return {
    factor,
    factorHigh: pair === undefined ? Number.NaN : pair[0],
    factorLow: pair === undefined ? Number.NaN : pair[1],
    activityUnit: parts.activityUnit,
    method: parts.method,
    origin: parts.origin,
    auditTrail: parts.auditTrail,
    emissionFactor: shared === undefined ? null : shared.emissionFactor,
    constituentGases:
      shared === undefined ? null : parts.origin === 'source' ? shared.sourceGases : shared.engineGases,
  };
}

/** A factor's estimate templates per audit trail, made on first use (both slots present, so one shape). */
export interface EstimateTemplates {
  enabled: EstimateTemplate | undefined;
  disabled: EstimateTemplate | undefined;
}

/** Empty {@link EstimateTemplates}, for a factor's cache entry. */
export const noTemplates = (): EstimateTemplates => ({ enabled: undefined, disabled: undefined });

/**
 * The template of `parts` kept in `templates` under its audit trail, made on first use. The cache that holds
 * `templates` is keyed by what fixes the factor and its method (the GWP method of the table it comes from), so a
 * template of another method is only replaced, never returned.
 *
 * @example
 * ```ts
 * estimateOfTemplate(6, templateOf(factor, factor.parts.enabled)).co2e;
 * ```
 */
export function templateOf(
  templates: EstimateTemplates,
  parts: Omit<EstimateParts, 'activityValue'>,
): EstimateTemplate {
  const cached = cachedTemplate(templates, parts.auditTrail, parts.method);
  if (cached !== undefined) return cached;
  const made = estimateTemplate(parts);
  if (parts.auditTrail === 'enabled') templates.enabled = made;
  else templates.disabled = made;
  return made;
}

/**
 * The template {@link templateOf} keeps for this audit trail and method, if made yet: for a caller that would
 * otherwise build the parts only to find it.
 *
 * @example
 * ```ts
 * cachedTemplate(factor, 'enabled', 'ar5') ?? templateOf(factor, partsOf(factor));
 * ```
 */
export function cachedTemplate(
  templates: EstimateTemplates,
  auditTrail: AuditTrail,
  method: CalculationMethod,
): EstimateTemplate | undefined {
  const cached = auditTrail === 'enabled' ? templates.enabled : templates.disabled;
  return cached !== undefined && cached.method === method ? cached : undefined;
}

/**
 * The co2e {@link estimateOfTemplate} gives for an activity, without the estimate around it: for a caller that writes
 * the number itself (the CLI's CSV rows) and so needs no object per row.
 *
 * @example
 * ```ts
 * templateCo2e(0.0024062, template) === estimateOfTemplate(0.0024062, template).co2e; // true
 * ```
 */
export function templateCo2e(activityValue: number, template: EstimateTemplate): number {
  return factorCo2e(activityValue, template.factor, template.factorHigh, template.factorLow);
}

/**
 * {@link templateCo2e} of a template's three factor numbers (`factor`, `factorHigh`, `factorLow`), for a caller that
 * keeps them beside the other numbers a row reads.
 *
 * @example
 * ```ts
 * factorCo2e(0.0024062, template.factor, template.factorHigh, template.factorLow) === templateCo2e(0.0024062, template);
 * ```
 */
export function factorCo2e(
  activityValue: number,
  factor: number,
  factorHigh: number,
  factorLow: number,
): number {
  return (
    (factorHigh === factorHigh && activityValue > 0
      ? approximateProductWith(activityValue, factorHigh, factorLow)
      : undefined) ?? publishedProduct(activityValue, factor)
  );
}

/**
 * {@link estimateFromCo2e} without display rounding, for an activity whose number (the exact activity rounded once)
 * the caller has already: co2e is {@link publishedProduct} of it and the template's factor. `details`, where given,
 * is its `calculation_details`, made part of the object as it is built rather than added to it after.
 *
 * @example
 * ```ts
 * estimateOfTemplate(0.0024062, template).co2e; // 0.0024062 × the grid factor, rounded once
 * ```
 */
export function estimateOfTemplate(
  activityValue: number,
  template: EstimateTemplate,
  details?: Estimate['calculation_details'],
): Estimate {
  const high = template.factorHigh;
  const co2e =
    (high === high && activityValue > 0
      ? approximateProductWith(activityValue, high, template.factorLow)
      : undefined) ?? publishedProduct(activityValue, template.factor);
  // A batch's estimates have literals of their own (inBatch says why).
  if (inBatch()) {
    return details === undefined
      ? {
          co2e,
          co2e_unit: 'kg',
          co2e_calculation_method: template.method,
          co2e_calculation_origin: template.origin,
          emission_factor: template.emissionFactor,
          constituent_gases: template.constituentGases,
          activity_data: { activity_value: activityValue, activity_unit: template.activityUnit },
          audit_trail: template.auditTrail,
        }
      : {
          co2e,
          co2e_unit: 'kg',
          co2e_calculation_method: template.method,
          co2e_calculation_origin: template.origin,
          emission_factor: template.emissionFactor,
          constituent_gases: template.constituentGases,
          activity_data: { activity_value: activityValue, activity_unit: template.activityUnit },
          audit_trail: template.auditTrail,
          calculation_details: details,
        };
  }
  return details === undefined
    ? {
        co2e,
        co2e_unit: 'kg',
        co2e_calculation_method: template.method,
        co2e_calculation_origin: template.origin,
        emission_factor: template.emissionFactor,
        constituent_gases: template.constituentGases,
        activity_data: { activity_value: activityValue, activity_unit: template.activityUnit },
        audit_trail: template.auditTrail,
      }
    : {
        co2e,
        co2e_unit: 'kg',
        co2e_calculation_method: template.method,
        co2e_calculation_origin: template.origin,
        emission_factor: template.emissionFactor,
        constituent_gases: template.constituentGases,
        activity_data: { activity_value: activityValue, activity_unit: template.activityUnit },
        audit_trail: template.auditTrail,
        calculation_details: details,
      };
}

const assemble = (
  co2e: number,
  activityValue: number,
  parts: Omit<EstimateParts, 'activityValue'>,
  shared: FactorParts | undefined,
): Estimate => ({
  co2e,
  co2e_unit: 'kg',
  co2e_calculation_method: parts.method,
  co2e_calculation_origin: parts.origin,
  emission_factor: shared === undefined ? null : shared.emissionFactor,
  constituent_gases:
    shared === undefined ? null : parts.origin === 'source' ? shared.sourceGases : shared.engineGases,
  activity_data: {
    activity_value: activityValue,
    activity_unit: parts.activityUnit,
  },
  audit_trail: parts.auditTrail,
});

/** The frozen `emission_factor` and `constituent_gases` of one factor, shared by its estimates. */
interface FactorParts {
  /** The exact factor they were made from (a metadata object is only ever paired with one). */
  readonly factor: Decimal;
  readonly emissionFactor: EmissionFactor;
  readonly sourceGases: ConstituentGases;
  readonly engineGases: ConstituentGases;
}

/** Per metadata object (cached with its factor by the calculators), so they are built once per factor. */
const factorPartsCache = new WeakMap<FactorMetadata, FactorParts>();

/**
 * The shared parts of an estimate's factor: cached per metadata when the factor is shown exactly, built afresh
 * (and frozen alike, so results behave the same either way) when display rounding makes its number per call.
 */
function factorParts(
  parts: Omit<EstimateParts, 'activityValue'>,
  options: CalculationOptions | undefined,
): FactorParts {
  if (options?.significantDigits !== undefined) {
    return newFactorParts(parts.factor, parts.metadata, outputNumber(parts.factor, options));
  }
  const cached = factorPartsCache.get(parts.metadata);
  if (cached !== undefined && cached.factor === parts.factor) return cached;
  const made = newFactorParts(parts.factor, parts.metadata, finiteNumber(parts.factor));
  factorPartsCache.set(parts.metadata, made);
  return made;
}

const newFactorParts = (exact: Decimal, metadata: FactorMetadata, factor: number): FactorParts => ({
  factor: exact,
  emissionFactor: Object.freeze(emissionFactor(metadata, factor)),
  sourceGases: Object.freeze(constituentGases('source', factor)),
  engineGases: Object.freeze(constituentGases('co2e-engine', factor)),
});

/**
 * The gas breakdown: the factor's total as the publisher states it, or null when the engine calculated the factor
 * itself (origin `co2e-engine`, e.g. a mean over several products), as the hosted API did (SPEC.md).
 */
const constituentGases = (origin: Estimate['co2e_calculation_origin'], factor: number): ConstituentGases => ({
  co2e_total: origin === 'co2e-engine' ? null : factor,
  co2e_other: null,
  co2: null,
  ch4: null,
  n2o: null,
});

// Spelled out to keep the hosted API's field order in serialised output.
const emissionFactor = (m: FactorMetadata, factor: number): EmissionFactor => ({
  name: m.name,
  id: m.id,
  activity_id: m.activity_id,
  factor,
  access_type: m.access_type,
  source: m.source,
  source_dataset: m.source_dataset,
  year: m.year,
  region: m.region,
  category: m.category,
  source_lca_activity: m.source_lca_activity,
  data_quality_flags: Object.freeze([...m.data_quality_flags]) as string[],
});
