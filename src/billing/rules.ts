import { deepFreeze } from '../core/freeze';
import * as z from 'zod/mini';
import { EmissionsError } from '../core/errors';
import { RESOLVED_CALCULATOR_IDS, type ResolvedCalculatorId } from '../cloud/calculators';
import type { CloudProvider } from '../datasets/tables';
import { BILLING_FORMATS, type BillingFormat, type LineField } from './formats';

/**
 * The classification table: how a bill line becomes one calculator call or a reason it is not estimated. Rules are
 * data (`datasets/billing/rules.json`, each rule citing its source), tried in order per provider; the first whose
 * every `when` pattern matches wins. A line no rule matches is `unknown_usage_type`.
 */

/** Why a line was not estimated. Stable codes. */
export const REASON_CODES = /* @__PURE__ */ deepFreeze([
  'not_usage',
  'unsupported_provider',
  'internet_egress_out_of_scope',
  'ingress_out_of_scope',
  'intra_region_transfer_out_of_scope',
  'counted_at_sending_region',
  'request_based',
  'licence',
  'not_modelled',
  'double_counted',
  'gpu_not_supported',
  'unknown_usage_type',
  'unknown_instance_type',
  'unknown_region',
  'unknown_unit',
  'no_quantity',
  // estimateBilling: the row is not an object, or reading it threw.
  'invalid_row',
  // --unknown cost-ratio: ratios exist, but none from rows of this row's currency.
  'no_cost_ratio_in_currency',
  // Every cell empty (a spreadsheet's `,,,,`): no line of any provider.
  'empty_row',
] as const);
export type ReasonCode = (typeof REASON_CODES)[number];

/**
 * What a rule sends a line to: a cloud calculator of the registry that takes a resolved request (`instance`, `cpu`,
 * `memory`, `storage`, `networking`), or `not_estimated`.
 */
export type RuleKind = ResolvedCalculatorId | 'not_estimated';
export const RULE_KINDS: readonly RuleKind[] = /* @__PURE__ */ deepFreeze([
  ...RESOLVED_CALCULATOR_IDS,
  'not_estimated',
]);

const FIELDS: readonly LineField[] = [
  'provider_name',
  'service',
  'service_code',
  'service_category',
  'usage_type',
  'description',
  'operation',
  'meter_category',
  'meter_subcategory',
  'meter_name',
  'instance_hint',
  'unit',
  'region',
  'charge_category',
  'resource',
];

const regex = z.string().check(
  z.refine(
    (source) => {
      try {
        new RegExp(source);
        return true;
      } catch {
        return false;
      }
    },
    { message: 'is not a valid regular expression' },
  ),
);
const field = z.enum(FIELDS as [LineField, ...LineField[]]);
const replicationKey = z.string().check(z.minLength(1));

const RuleSchema = z.strictObject({
  id: z.string().check(z.minLength(1)),
  provider: z.enum(['aws', 'azure', 'gcp']),
  formats: z.optional(z.array(z.enum(BILLING_FORMATS as [BillingFormat, ...BillingFormat[]]))),
  when: z.partialRecord(field, regex),
  then: z.enum(RULE_KINDS as [RuleKind, ...RuleKind[]]),
  reason: z.optional(z.enum(REASON_CODES)),
  storage_type: z.optional(z.enum(['ssd', 'hdd'])),
  storage_type_from: z.optional(
    z.array(z.strictObject({ when: z.optional(regex), type: z.enum(['ssd', 'hdd']) })),
  ),
  replication: z.optional(
    z.union([replicationKey, z.array(z.strictObject({ when: z.optional(regex), factor: replicationKey }))]),
  ),
  instance: z.optional(
    z.strictObject({
      from: field,
      pattern: z.optional(regex),
      default: z.optional(z.string()),
      spaces: z.optional(z.string()),
    }),
  ),
  disk_size: z.optional(z.strictObject({ from: field, pattern: regex, table: z.string() })),
  /** `cpu` rules: the vCPUs per hour, from a named group `count` (`2 vCore`); 1 without it. */
  cpu_count: z.optional(z.strictObject({ from: field, pattern: regex })),
  source: z.string().check(z.minLength(1)),
});
export type BillingRule = z.infer<typeof RuleSchema>;

const DatasetInfo = z.looseObject({ id: z.string(), version: z.string(), licence: z.string() });

export const RulesTableSchema = z.strictObject({
  dataset: DatasetInfo,
  tables: z.record(
    z.string(),
    z.strictObject({ source: z.string(), values: z.record(z.string(), z.number().check(z.positive())) }),
  ),
  /**
   * Published location names per provider (AWS `product/location`, price-list descriptions) → region ids, matched
   * case-insensitively when the region column holds a name.
   */
  region_names: z.optional(
    z.strictObject({
      source: z.string(),
      providers: z.partialRecord(z.enum(['aws', 'azure', 'gcp']), z.record(z.string(), z.string())),
    }),
  ),
  rules: z.array(RuleSchema),
});
export type BillingRulesTable = z.infer<typeof RulesTableSchema>;

export const ReplicationTableSchema = z.strictObject({
  dataset: DatasetInfo,
  providers: z.partialRecord(
    z.enum(['aws', 'azure', 'gcp']),
    z.record(z.string(), z.number().check(z.positive())),
  ),
});
export type ReplicationFactorsTable = z.infer<typeof ReplicationTableSchema>;

/** A rule with its patterns compiled (once, at load). */
export interface CompiledRule extends BillingRule {
  matchers: [LineField, RegExp][];
  storageTypes: { when: RegExp | undefined; type: 'ssd' | 'hdd' }[];
  replications: { when: RegExp | undefined; factor: string }[];
  instancePattern: RegExp | undefined;
  diskPattern: RegExp | undefined;
  cpuCountPattern: RegExp | undefined;
}

/** Rules compiled and grouped by provider, checked once. */
export interface CompiledRules {
  byProvider: Record<CloudProvider, CompiledRule[]>;
  tables: BillingRulesTable['tables'];
  replication: ReplicationFactorsTable;
  info: BillingRulesTable['dataset'];
  /** Location names (lower case) → region id, per provider. */
  regionNames: Partial<Record<CloudProvider, Map<string, string>>>;
  /** The fields any of a provider's rules matches on: what decides which rule a line gets. */
  matchedFields: Record<CloudProvider, LineField[]>;
}

function invalid(what: string, issue: z.core.$ZodIssue | undefined): never {
  const path = issue?.path.join('.') ?? '';
  throw new EmissionsError('invalid_request', `The ${what} is not valid at '${path}': ${issue?.message}.`, {
    path,
  });
}

/**
 * Validates and compiles a rules table and the replication factors it names.
 *
 * @example
 * ```ts
 * const rules = compileRules(myRulesTable, replicationFactorsTable);
 * ```
 * @throws {@link EmissionsError} `invalid_request` naming the first problem (a bad pattern, a rule without a reason, an
 *   unknown replication key or disk table).
 */
export function compileRules(rules: unknown, replication: unknown): CompiledRules {
  const table = RulesTableSchema.safeParse(rules);
  if (!table.success) invalid('billing rules table', table.error.issues[0]);
  const factors = ReplicationTableSchema.safeParse(replication);
  if (!factors.success) invalid('replication factors table', factors.error.issues[0]);
  const byProvider: Record<CloudProvider, CompiledRule[]> = { aws: [], azure: [], gcp: [] };
  const ids = new Set<string>();
  table.data.rules.forEach((rule, index) => {
    const fail = (message: string): never => {
      throw new EmissionsError('invalid_request', `Billing rule '${rule.id}': ${message}.`, {
        path: `rules[${index}]`,
      });
    };
    if (ids.has(rule.id)) fail('the id is used twice');
    ids.add(rule.id);
    if (rule.then === 'not_estimated' && rule.reason === undefined)
      fail('a not_estimated rule needs a reason');
    if (rule.then === 'storage' && rule.storage_type === undefined && rule.storage_type_from === undefined)
      fail('a storage rule needs storage_type or storage_type_from');
    if (rule.then === 'instance' && rule.instance === undefined) fail('an instance rule needs instance');
    const known = factors.data.providers[rule.provider] ?? {};
    const keys =
      rule.replication === undefined
        ? []
        : typeof rule.replication === 'string'
          ? [rule.replication]
          : rule.replication.map((entry) => entry.factor);
    for (const key of keys) if (!Object.hasOwn(known, key)) fail(`unknown replication factor '${key}'`);
    if (rule.disk_size !== undefined && !Object.hasOwn(table.data.tables, rule.disk_size.table))
      fail(`unknown table '${rule.disk_size.table}'`);
    const optional = (source: string | undefined) => (source === undefined ? undefined : new RegExp(source));
    byProvider[rule.provider].push({
      ...rule,
      matchers: Object.entries(rule.when).map(([name, source]) => [name as LineField, new RegExp(source)]),
      storageTypes: (rule.storage_type_from ?? []).map((option) => ({
        when: optional(option.when),
        type: option.type,
      })),
      replications:
        rule.replication === undefined || typeof rule.replication === 'string'
          ? []
          : rule.replication.map((option) => ({ when: optional(option.when), factor: option.factor })),
      instancePattern: optional(rule.instance?.pattern),
      diskPattern: optional(rule.disk_size?.pattern),
      cpuCountPattern: optional(rule.cpu_count?.pattern),
    });
  });
  const regionNames: CompiledRules['regionNames'] = {};
  for (const [provider, names] of Object.entries(table.data.region_names?.providers ?? {}))
    regionNames[provider as CloudProvider] = new Map(
      Object.entries(names).map(([name, id]) => [name.toLowerCase(), id]),
    );
  const matchedFields = (provider: CloudProvider): LineField[] => [
    ...new Set(byProvider[provider].flatMap((rule) => rule.matchers.map(([name]) => name))),
  ];
  return {
    byProvider,
    matchedFields: { aws: matchedFields('aws'), azure: matchedFields('azure'), gcp: matchedFields('gcp') },
    tables: table.data.tables,
    replication: factors.data,
    info: table.data.dataset,
    regionNames,
  };
}
