import { compare, type Decimal, decimal, mul } from '../core/decimal';
import { MAX_QUANTITY } from '../core/validate';
import type { CloudProvider } from '../datasets/tables';
import { type Classification, monthHours } from './classify';
import type { LineField } from './formats';
import type { CompiledRule, CompiledRules, ReasonCode } from './rules';

/**
 * Step 2 of a bill line (classify → quantify → compute): the classified line's quantity in the calculator's units,
 * exactly (decimals throughout): the unit's count and scale, the hours of the row's month for GB-months, the disk
 * size of a disk-month, the instance type, the vCPU count, the storage type and the service's replication. The
 * conversions are listed in `notes` (they become `co2e_reason`).
 */

/** One calculator call, its quantities exact. */
export type Quantity =
  | { calculator: 'instance'; instance: string; duration: Decimal; time: 'hour' | 'sec' }
  | { calculator: 'cpu'; cpus: Decimal; duration: Decimal; time: 'hour' | 'sec' }
  | { calculator: 'memory'; gigabytes: Decimal; time: 'hour' | 'sec' }
  | {
      calculator: 'storage';
      storageType: 'ssd' | 'hdd';
      gigabytes: Decimal;
      duration: Decimal;
      time: 'hour' | 'sec';
      replication: number;
    }
  | { calculator: 'networking'; gigabytes: Decimal };

/** The quantity of a classified line and its conversion notes, or the reason it cannot be had. */
export type Quantified =
  { quantity: Quantity; notes: string[] } | { reason: ReasonCode; quantity?: undefined };

const HOURS_730 = '730';
const MAX = /* @__PURE__ */ decimal(MAX_QUANTITY);

/** Whether every quantity is within what the calculators' request schemas accept (at most `MAX_QUANTITY`). */
const inRange = (...quantities: Decimal[]): boolean => quantities.every((value) => compare(value, MAX) <= 0);

/**
 * The calculator quantity of a classified line.
 *
 * @example
 * ```ts
 * const quantified = quantify(classified.line, rules); // { quantity: { calculator: 'storage', … }, notes }
 * ```
 */
export function quantify(line: Classification, rules: CompiledRules): Quantified {
  const { rule, unit, read, provider } = line;
  const notes: string[] = [];
  if (unit.binary) notes.push('gib_as_1.073741824_gb');
  const base = mul(mul(decimal(line.amount), decimal(unit.count)), decimal(unit.scale));
  const months = (): Decimal => {
    const month = monthHours(read('start'));
    if (month === undefined) {
      notes.push('gb_month_as_730h');
      return decimal(HOURS_730);
    }
    notes.push(`gb_month_as_${month.hours}h(${month.month})`);
    return decimal(month.hours);
  };
  // The calculators take these quantities without their schemas: out of the schemas' range is `no_quantity`, as
  // the schemas' `invalid_request` was.
  const done = (quantity: Quantity, ...quantities: Decimal[]): Quantified =>
    inRange(...quantities) ? { quantity, notes } : { reason: 'no_quantity' };
  switch (rule.then) {
    case 'instance': {
      if (unit.dimension !== 'time') return { reason: 'unknown_unit' };
      const instance = instanceType(rule, line.groups, read);
      if (instance === undefined) return { reason: 'unknown_instance_type' };
      return done({ calculator: 'instance', instance, duration: base, time: unit.time }, base);
    }
    case 'cpu': {
      if (unit.dimension !== 'time') return { reason: 'unknown_unit' };
      const cpus = cpuCount(rule, read);
      if (!/^\d+(\.0*)?$/.test(cpus)) return { reason: 'no_quantity' }; // a vCPU count is whole
      if (cpus !== '1') notes.push(`vcpus=${cpus}`);
      const count = decimal(cpus);
      return done({ calculator: 'cpu', cpus: count, duration: base, time: unit.time }, count, base);
    }
    case 'memory':
      if (unit.dimension !== 'data_time') return { reason: 'unknown_unit' };
      return done({ calculator: 'memory', gigabytes: base, time: unit.time }, base);
    case 'storage': {
      const storageType = storageTypeOf(rule, read('usage_type') || read('meter_subcategory'));
      const replication = replicationOf(rule, read, rules, provider);
      let gigabytes: Decimal;
      let duration: Decimal;
      let time: 'hour' | 'sec' = 'hour';
      if (unit.dimension === 'data_month') {
        gigabytes = base;
        duration = months();
      } else if (unit.dimension === 'data_time') {
        gigabytes = base;
        duration = decimal(1);
        time = unit.time;
      } else if (unit.dimension === 'count_month' && rule.disk_size !== undefined) {
        const size = diskSize(rule, read, rules);
        if (size === undefined) return { reason: 'unknown_usage_type' };
        gigabytes = mul(base, decimal(size));
        duration = months();
        notes.push(`disk_gb=${size}`);
      } else return { reason: 'unknown_unit' };
      if (replication !== 1) notes.push(`replication_factor=${replication}`);
      return done(
        { calculator: 'storage', storageType, gigabytes, duration, time, replication },
        gigabytes,
        duration,
      );
    }
    case 'networking':
      if (unit.dimension !== 'data') return { reason: 'unknown_unit' };
      return done({ calculator: 'networking', gigabytes: base }, base);
    default:
      return { reason: 'unknown_usage_type' };
  }
}

function instanceType(
  rule: CompiledRule,
  groups: Partial<Record<LineField, Record<string, string>>>,
  read: (name: LineField) => string,
): string | undefined {
  const spec = rule.instance!;
  const hint = read('instance_hint') || serviceTypeOf(read('additional_info'));
  let found: string | undefined = hint === '' ? undefined : hint;
  if (found === undefined) {
    found =
      spec.pattern === undefined
        ? groups[spec.from]?.instance
        : (rule.instancePattern?.exec(read(spec.from))?.groups?.instance ?? undefined);
  }
  found ??= spec.default;
  if (found === undefined || found === '') return undefined;
  return spec.spaces === undefined ? found : found.trim().replace(/\s+/g, spec.spaces);
}

/** The vCPUs a row's hours are for (`2 vCore` meters), from the rule's `cpu_count` pattern; `1` without one. */
function cpuCount(rule: CompiledRule, read: (name: LineField) => string): string {
  if (rule.cpu_count === undefined) return '1';
  const found = rule.cpuCountPattern?.exec(read(rule.cpu_count.from))?.groups?.count;
  return found === undefined || !/^\d+(\.\d+)?$/.test(found) ? '1' : found;
}

/** Azure `AdditionalInfo` (JSON) `ServiceType`: the VM size (`Standard_D2s_v3`), when present. */
function serviceTypeOf(additionalInfo: string): string {
  if (!additionalInfo.startsWith('{')) return '';
  try {
    const parsed = JSON.parse(additionalInfo) as { ServiceType?: unknown };
    return typeof parsed.ServiceType === 'string' ? parsed.ServiceType : '';
  } catch {
    return '';
  }
}

function storageTypeOf(rule: CompiledRule, usage: string): 'ssd' | 'hdd' {
  if (rule.storage_type !== undefined) return rule.storage_type;
  for (const option of rule.storageTypes) {
    if (option.when === undefined || option.when.test(usage)) return option.type;
  }
  return 'hdd';
}

function replicationOf(
  rule: CompiledRule,
  read: (name: LineField) => string,
  rules: CompiledRules,
  provider: CloudProvider,
): number {
  const factors = rules.replication.providers[provider] ?? {};
  if (rule.replication === undefined) return 1;
  if (typeof rule.replication === 'string') return factors[rule.replication] ?? 1;
  const usage = [read('usage_type'), read('meter_name'), read('meter_subcategory')].join(' ');
  for (const option of rule.replications) {
    if (option.when === undefined || option.when.test(usage)) return factors[option.factor] ?? 1;
  }
  return 1;
}

function diskSize(
  rule: CompiledRule,
  read: (name: LineField) => string,
  rules: CompiledRules,
): number | undefined {
  const spec = rule.disk_size!;
  const disk = rule.diskPattern?.exec(read(spec.from))?.groups?.disk;
  return disk === undefined ? undefined : rules.tables[spec.table]?.values[disk];
}
