import { expect } from 'vitest';
import { EmissionsError, ERROR_CODES, type ErrorBody } from '../../src/index';

/**
 * What every fuzz case must satisfy: the call returns a sound result or throws an {@link EmissionsError} with a
 * sound body; nothing else (no TypeError, RangeError, stack overflow), and no global state changes.
 */

export type Outcome = { kind: 'result'; value: unknown } | { kind: 'error'; body: ErrorBody };

/** Runs `call`; an error that is not an {@link EmissionsError} propagates and fails the property. */
export function outcomeOf(call: () => unknown): Outcome {
  try {
    return { kind: 'result', value: call() };
  } catch (error) {
    if (!(error instanceof EmissionsError)) throw error;
    expect(error.status).toBe(400);
    return { kind: 'error', body: error.toJSON() };
  }
}

/** Output fields that are amounts of emissions, activity or energy, so never negative. */
const NON_NEGATIVE = new Set([
  'co2e',
  'total_co2e',
  'activity_value',
  'factor',
  'co2e_total',
  'energy_used_cpu',
  'energy_used_memory',
  'instance_memory',
  'money_in_factor_currency',
  'exchange_rate',
]);

/** Every number finite; amounts ≥ 0 and never -0; JSON-serialisable without loss. */
export function expectSoundResult(value: unknown): void {
  const walk = (node: unknown, path: string, key: string): void => {
    if (typeof node === 'number') {
      if (!Number.isFinite(node)) throw new Error(`${path} is ${node}`);
      if (NON_NEGATIVE.has(key) && (node < 0 || Object.is(node, -0)))
        throw new Error(`${path} is negative: ${node}`);
      return;
    }
    if (typeof node !== 'object' || node === null) {
      if (!['string', 'boolean'].includes(typeof node) && node !== null)
        throw new Error(`${path} is ${typeof node}`);
      return;
    }
    for (const [childKey, child] of Object.entries(node)) walk(child, `${path}.${childKey}`, childKey);
  };
  walk(value, 'result', '');
  // Serialises and reads back to the same text (-0, which JSON cannot carry, reads back as 0 and passes: the
  // instance calculator echoes an input utilisation of -0 as given).
  const text = JSON.stringify(value);
  expect(JSON.stringify(JSON.parse(text))).toBe(text);
}

/** A wire error body: a stable code, a message, an optional dotted path. */
export function expectSoundErrorBody(body: unknown): void {
  expect(body).toMatchObject({
    error: 'bad_request',
    error_code: expect.any(String),
    message: expect.any(String),
  });
  const { error_code, message, path } = body as ErrorBody;
  expect(ERROR_CODES).toContain(error_code);
  expect(message.length).toBeGreaterThan(0);
  if (path !== undefined) expect(path).toBeTypeOf('string');
}

export function expectSoundOutcome(outcome: Outcome): void {
  if (outcome.kind === 'error') expectSoundErrorBody(outcome.body);
  else expectSoundResult(outcome.value);
}

type Snapshot = Array<[string, PropertyKey, unknown]>;

/** Own properties (and their values) of the built-in prototypes a pollution attack would write to. */
export function prototypeSnapshot(): Snapshot {
  const snapshot: Snapshot = [];
  for (const [name, proto] of [
    ['Object.prototype', Object.prototype],
    ['Array.prototype', Array.prototype],
    ['Function.prototype', Function.prototype],
    ['String.prototype', String.prototype],
  ] as const) {
    for (const key of Reflect.ownKeys(proto))
      snapshot.push([name, key, Reflect.getOwnPropertyDescriptor(proto, key)?.value]);
  }
  return snapshot;
}

/** A comparable fingerprint of an input, to see that the engine did not change it (undefined for unclonable input). */
export function fingerprint(value: unknown): string | undefined {
  try {
    return JSON.stringify(value, (_key, item: unknown) =>
      typeof item === 'number' && !Number.isFinite(item)
        ? `#${String(item)}`
        : typeof item === 'bigint'
          ? `${item}n`
          : item,
    );
  } catch {
    return undefined;
  }
}

/**
 * Overwrites every leaf and grows every array and object of a result, as a careless caller might. Frozen parts (the
 * factor parts shared between estimates) cannot be changed, so they are checked to be frozen all the way down
 * instead: a frozen object holding a mutable one would let a caller reach the shared state.
 */
function vandalise(value: unknown, seen = new Set<object>()): void {
  if (typeof value !== 'object' || value === null || seen.has(value)) return;
  seen.add(value);
  if (Object.isFrozen(value)) {
    expectDeeplyFrozen(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) vandalise(item, seen);
    value.push('vandalised');
    return;
  }
  const record = value as Record<string, unknown>;
  for (const [key, item] of Object.entries(record)) {
    if (typeof item === 'object' && item !== null) vandalise(item, seen);
    else record[key] = typeof item === 'number' ? -12_345 : 'vandalised';
  }
  record.vandalised = true;
}

function expectDeeplyFrozen(value: object): void {
  expect(Object.isFrozen(value)).toBe(true);
  for (const item of Object.values(value)) {
    if (typeof item === 'object' && item !== null) expectDeeplyFrozen(item);
  }
}

/**
 * The whole contract for one input: two calls give equal outcomes (determinism), each outcome is sound, the
 * input is unchanged, no built-in prototype gained, lost or changed a property, and a result shares nothing
 * mutable with the engine's caches (vandalising it does not change the next call's result).
 */
export function checkCall(call: () => unknown, input: unknown): Outcome {
  const before = prototypeSnapshot();
  const inputBefore = fingerprint(input);
  const first = outcomeOf(call);
  const second = outcomeOf(call);
  expect(second).toEqual(first);
  expectSoundOutcome(first);
  expect(fingerprint(input)).toBe(inputBefore);
  expect(prototypeSnapshot()).toEqual(before);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  if (second.kind === 'result') {
    const pristine = structuredClone(second);
    vandalise(second.value);
    expect(outcomeOf(call)).toEqual(pristine);
  }
  return first;
}
