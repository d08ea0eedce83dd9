import * as z from 'zod/mini';
import type { AnyCase } from '../core/any-case';
import { auditTrail, MAX_QUANTITY, nonEmptyString, quantity, withInput, year } from '../core/validate';
import { REGION_ALIASES } from './exiobase-regions';
import { canonicalCurrency } from './suggestions';

/** The classification types of the embedded spend datasets. */
export type ClassificationType = 'isic4' | 'nace2' | 'naics2017' | 'mcc';
/**
 * `activity.classification_type` as requests may write it: `isic4`, `nace2`, `naics2017` or `mcc`, any case. A custom
 * classifications table may add types; name one with a cast (`'unspsc' as ClassificationTypeSpelling`): the
 * calculator checks the type against the datasets at run time either way.
 *
 * @example
 * ```ts
 * const type: ClassificationTypeSpelling = 'NACE2';
 * const custom = 'unspsc' as ClassificationTypeSpelling; // a type of your own classifications table
 * ```
 */
export type ClassificationTypeSpelling = AnyCase<ClassificationType>;

export const ClassifiedActivity = z.strictObject({
  classification_code: nonEmptyString(),
  classification_type: withInput<ClassificationTypeSpelling>()(nonEmptyString()),
});
export const IdentifiedActivity = z.strictObject({ activity_id: nonEmptyString() });

type Activity = z.output<typeof ClassifiedActivity> | z.output<typeof IdentifiedActivity>;

/** Either form of `activity`, chosen by the presence of `activity_id` so errors name the precise field. */
const Activity = z.pipe(
  z.unknown(),
  z.transform((value: unknown, ctx): Activity => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      ctx.issues.push({
        code: 'custom',
        input: value,
        message:
          value === undefined
            ? "'activity' is required."
            : "'activity' must be { classification_type, classification_code } or { activity_id }.",
      });
      return z.NEVER;
    }
    if ('activity_id' in value && ('classification_type' in value || 'classification_code' in value)) {
      // Otherwise the activity_id form would report the classification fields as unknown, blaming the wrong fields.
      ctx.issues.push({
        code: 'custom',
        input: value,
        message:
          "'activity' must be either { classification_type, classification_code } or { activity_id }, not both.",
      });
      return z.NEVER;
    }
    const result = ('activity_id' in value ? IdentifiedActivity : ClassifiedActivity).safeParse(value);
    if (result.success) return result.data;
    // The nested issues keep their own codes and paths; zod prefixes the paths with `activity`.
    for (const issue of result.error.issues) ctx.issues.push(issue as z.core.$ZodRawIssue);
    return z.NEVER;
  }),
);

const fraction = () =>
  z
    .number({ error: 'must be a number' })
    .check(z.minimum(-MAX_QUANTITY, `must be at least ${-MAX_QUANTITY}`), z.maximum(1, 'must be at most 1'));

/** Request body of `POST /procurement/spend`. */
export const SpendRequest = z.strictObject(
  {
    activity: Activity,
    spend_year: year(),
    spend_region: z.pipe(
      z
        .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
        .check(z.regex(/^[A-Za-z]{2}$/, 'must be a two-letter region code (ISO 3166-1 alpha-2)')),
      // Upper case; the spellings ledgers use for two EXIOBASE countries are read as ISO (UK → GB, EL → GR).
      z.transform((region: string) => {
        const upper = region.toUpperCase();
        return REGION_ALIASES[upper] ?? upper;
      }),
    ),
    money: quantity(),
    money_unit: z.pipe(
      z
        .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
        .check(z.regex(/^[A-Za-z]{3}$/, 'must be a three-letter currency code (ISO 4217)')),
      z.transform(canonicalCurrency), // lower case; `rmb` → `cny`
    ),
    /** Fraction of the purchaser's price; may be negative (subsidies). */
    tax_margin: z.optional(fraction()),
    trade_margin: z.optional(fraction().check(z.nonnegative('must not be negative'))),
    transport_margin: z.optional(fraction().check(z.nonnegative('must not be negative'))),
    audit_trail: auditTrail(),
  },
  { error: 'must be a JSON object' },
);
/** A spend request as a caller writes it. */
export type SpendRequest = Omit<z.input<typeof SpendRequest>, 'activity'> & {
  activity: z.input<typeof ClassifiedActivity> | z.input<typeof IdentifiedActivity>;
};
export type ParsedSpendRequest = z.output<typeof SpendRequest>;
