import { describe, expect, it } from 'vitest';
import {
  calculateCpu,
  calculateCpuBatch,
  calculateMemory,
  type DurationUnitSpelling,
  EmissionsError,
  type CloudProviderSpelling,
} from '../../src/index';
import { defaultDatasets } from '../../src/embedded/index';

/**
 * Bugs the fuzz tests found in src/, minimised to one input each, kept so they stay fixed.
 */

const request = { cpu_count: 1, region: 'us_east_1', duration: 1 };

describe('a provider that String() cannot convert (found with fc.jsonValue(), seed 20240501)', () => {
  // resolveProvider built its message with String(provider), which threw "TypeError: Cannot convert object to
  // primitive value" for these.
  it.each([
    ['{ toString: false } (plain JSON)', JSON.parse('{"toString": false}') as CloudProviderSpelling],
    ['a null-prototype object', Object.create(null) as CloudProviderSpelling],
  ])('%s throws unsupported_provider, not a TypeError', (_name, provider) => {
    expect(() => calculateCpu(provider, request, defaultDatasets)).toThrow(EmissionsError);
    expect(() => calculateCpu(provider, request, defaultDatasets)).toThrow(
      expect.objectContaining({ error_code: 'unsupported_provider', path: 'provider_id' }),
    );
  });

  it('a batch with such a provider is one unsupported_provider error', () => {
    const provider = JSON.parse('{"toString": false}') as CloudProviderSpelling;
    expect(() => calculateCpuBatch(provider, [request], defaultDatasets)).toThrow(
      expect.objectContaining({ error_code: 'unsupported_provider' }),
    );
  });
});

describe('a unit spelled like an Object.prototype key (found with FUZZ_SEED=1)', () => {
  // parseDurationUnit looked the lowercased spelling up in a plain object, so `__proto__` and `constructor`
  // resolved to Object.prototype members and toHours threw "TypeError: Cannot destructure property 'times'";
  // in a batch the TypeError escaped and failed the whole batch.
  it.each(['__proto__', 'constructor', 'CONSTRUCTOR'])('duration_unit %j is invalid_request', (unit) => {
    expect(() =>
      calculateMemory(
        'gcp',
        // Deliberately not a spelling: the runtime must reject it like any untyped input.
        { region: 'asia_east1', data: 0, duration: 0, duration_unit: unit as DurationUnitSpelling },
        defaultDatasets,
      ),
    ).toThrow(expect.objectContaining({ error_code: 'invalid_request', path: 'duration_unit' }));
  });

  it('in a batch, only that element fails', () => {
    const results = calculateCpuBatch(
      'aws',
      [request, { ...request, duration_unit: 'constructor' as DurationUnitSpelling }],
      defaultDatasets,
    );
    expect(results[1]).toMatchObject({ error_code: 'invalid_request', path: 'requests[1].duration_unit' });
    expect(results[0]).toMatchObject({ co2e_unit: 'kg' });
  });
});
