/**
 * The median of a benchmark's rounds: the middle value, or the upper of the two middle ones for an even count,
 * so that a figure is always one that was measured.
 *
 * @example
 * median([3, 1, 2]); // 2
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of no values');
  return [...values].sort((a, b) => a - b)[values.length >> 1] as number;
}
