import { type Decimal, isZero, mul, productOfNumbers, roundSignificant, toNumber } from './decimal';
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
 * {@link estimateFromCo2e} without display rounding, for an activity whose number (the exact activity rounded once)
 * the caller has already: co2e is {@link publishedProduct} of it and the factor's number.
 *
 * @example
 * ```ts
 * estimateOfNumber(0.0024062, { activityUnit: 'kWh', factor: grid, metadata, method: 'ar5', origin: 'source',
 *   auditTrail: 'enabled' }).co2e; // 0.0024062 × the grid factor, rounded once
 * ```
 */
export function estimateOfNumber(
  activityValue: number,
  parts: Omit<EstimateParts, 'activityValue'>,
): Estimate {
  const co2e = publishedProduct(activityValue, sharedNumber(parts.factor, undefined));
  return assemble(
    co2e,
    activityValue,
    parts,
    parts.auditTrail === 'enabled' ? factorParts(parts, undefined) : undefined,
  );
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

/**
 * The parts of the estimates of one factor (and audit trail) with the factor's number and its shared parts looked up
 * once, for a calculator that caches them per factor: {@link estimateFromTemplate} then makes each estimate without
 * a lookup. Throws as {@link estimateOfNumber} for a factor beyond the doubles.
 *
 * @example
 * ```ts
 * const template = estimateTemplate({ activityUnit: 'eur', factor, metadata, method: 'ar6', origin: 'source',
 *   auditTrail: 'enabled' });
 * estimateFromTemplate(template, 2).co2e; // as estimateOfNumber(2, sameParts).co2e
 * ```
 */
export function estimateTemplate(parts: Omit<EstimateParts, 'activityValue'>): EstimateTemplate {
  const fields: TemplateFields = {
    parts,
    factor: sharedNumber(parts.factor, undefined),
    shared: parts.auditTrail === 'enabled' ? factorParts(parts, undefined) : undefined,
  };
  return fields as unknown as EstimateTemplate;
}

declare const templateBrand: unique symbol;
/** What {@link estimateTemplate} looked up once (opaque): read-only, shared by the factor's estimates. */
export interface EstimateTemplate {
  readonly [templateBrand]: true;
}

interface TemplateFields {
  readonly parts: Omit<EstimateParts, 'activityValue'>;
  readonly factor: number;
  readonly shared: FactorParts | undefined;
}

/**
 * {@link estimateOfNumber} from a template: the same estimate, co2e {@link publishedProduct} of the activity's
 * number and the factor's.
 *
 * @example
 * ```ts
 * estimateFromTemplate(estimateTemplate(parts), 0.0024062); // deep-equal to estimateOfNumber(0.0024062, parts)
 * ```
 */
export function estimateFromTemplate(template: EstimateTemplate, activityValue: number): Estimate {
  const { parts, factor, shared } = template as unknown as TemplateFields;
  return assemble(publishedProduct(activityValue, factor), activityValue, parts, shared);
}
