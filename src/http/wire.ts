import type { Estimate } from '../core/estimate';
import { pythonListRepr } from './python-repr';

/**
 * SPEC.md's wire quirk: the per-resource cloud endpoints (cpu, memory, storage, networking, embodied) send
 * `emission_factor.data_quality_flags` as the list's text form, a string such as
 * `"['notable_methodological_variance']"`; the spend and instance endpoints send a JSON array, as the library
 * returns it. The library itself always uses `string[]`.
 */

/** An {@link Estimate} whose `data_quality_flags` is the list's text form. */
export type WireEstimate = Omit<Estimate, 'emission_factor'> & {
  emission_factor:
    | (Omit<NonNullable<Estimate['emission_factor']>, 'data_quality_flags'> & { data_quality_flags: string })
    | null;
};

/** The estimate as the per-resource cloud endpoints send it; field order is kept. */
export function toWireEstimate(estimate: Estimate): WireEstimate {
  const factor = estimate.emission_factor;
  if (factor === null) return { ...estimate, emission_factor: null };
  return {
    ...estimate,
    emission_factor: { ...factor, data_quality_flags: pythonListRepr(factor.data_quality_flags) },
  };
}
