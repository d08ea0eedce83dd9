import { EmissionsError } from '../core/errors';
import type { LineFacts } from './classify';

/** Summary groupings by a row's resource, tag, account, service, region or month (`groupBy`, `--group-by`). */

/** The groupings `groupBy` takes: these, or `tag:KEY`. */
export const GROUP_BY_KEYS = /* @__PURE__ */ Object.freeze([
  'resource',
  'account',
  'service',
  'region',
  'month',
  'provider',
] as const);

/**
 * Checks `groupBy` keys: each one of {@link GROUP_BY_KEYS} or `tag:KEY`; the tag keys, for the estimator.
 *
 * @example
 * ```ts
 * parseGroupBy(['tag:team', 'month']); // { keys: ['tag:team', 'month'], tagKeys: ['team'] }
 * ```
 * @throws {@link EmissionsError} `invalid_request` naming the key and the valid ones.
 */
export function parseGroupBy(groupBy: readonly string[]): { keys: string[]; tagKeys: string[] } {
  const tagKeys: string[] = [];
  for (const key of groupBy) {
    if (key.startsWith('tag:') && key.length > 4) tagKeys.push(key.slice(4));
    else if (!(GROUP_BY_KEYS as readonly string[]).includes(key))
      throw new EmissionsError(
        'invalid_request',
        `'${key.slice(0, 60)}' is not a group-by: use ${GROUP_BY_KEYS.join(', ')} or tag:KEY.`,
        { path: 'groupBy', valid_values: [...GROUP_BY_KEYS, 'tag:KEY'] },
      );
  }
  return { keys: [...new Set(groupBy)], tagKeys: [...new Set(tagKeys)] };
}

/**
 * A row's value for a grouping key (`'(none)'` when it has none).
 *
 * @example
 * ```ts
 * groupValue(facts, 'tag:team'); // 'web'
 * ```
 */
export function groupValue(facts: LineFacts, key: string): string {
  const value = key.startsWith('tag:')
    ? facts.tags[key.slice(4)]
    : key === 'resource' ||
        key === 'account' ||
        key === 'service' ||
        key === 'region' ||
        key === 'month' ||
        key === 'provider'
      ? facts[key]
      : undefined;
  return value === undefined || value === '' ? '(none)' : value;
}
