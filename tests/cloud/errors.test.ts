/**
 * Every error path of the cloud calculators: the error code, the path into the request, status 400 and the wire
 * body. Bad input must always be an EmissionsError, never a TypeError, NaN or a silent default.
 */
import { describe, expect, it } from 'vitest';
import {
  calculateCpu,
  calculateCpuBatch,
  calculateEmbodied,
  calculateEmbodiedBatch,
  calculateInstance,
  calculateInstanceBatch,
  calculateMemory,
  calculateMemoryBatch,
  calculateNetworking,
  calculateNetworkingBatch,
  calculateStorage,
  calculateStorageBatch,
  EmissionsError,
  type ErrorBody,
  type CloudProviderSpelling,
} from '../../src/index';
import { MAX_QUANTITY } from '../../src/schemas';
import { ccfGridDatasets, defaultDatasets } from '../../src/embedded/index';
import { DATA_UNIT_SPELLINGS, DURATION_UNIT_SPELLINGS } from '../../src/core/units';
import { caught } from '../fixtures/caught';

const ds = defaultDatasets;
type Provider = 'aws' | 'azure' | 'gcp';
const PROVIDERS: Provider[] = ['aws', 'azure', 'gcp'];
const REGION: Record<Provider, string> = { aws: 'us_east_1', azure: 'westeurope', gcp: 'europe_west1' };
const INSTANCE: Record<Provider, string> = {
  aws: 't2.micro',
  azure: 'Standard_D2s_v3',
  gcp: 'e2-standard-2',
};

// Deliberately untyped: these tests send what JSON may hold, which the request types rule out.
type Single = (provider: CloudProviderSpelling, request: never, datasets: typeof ds) => unknown;
type Batch = (provider: CloudProviderSpelling, requests: readonly never[], datasets: typeof ds) => unknown[];

interface Calculator {
  name: string;
  single: Single;
  batch: Batch;
  valid: (provider: Provider) => Record<string, unknown>;
  /** Non-negative number fields. */
  quantities: string[];
  /** Whole-number fields. */
  counts: string[];
  required: string[];
  hasRegion: boolean;
  hasInstance: boolean;
  hasDataUnit: boolean;
  hasDurationUnit: boolean;
  hasUtilization: boolean;
}

const CALCULATORS: Calculator[] = [
  {
    name: 'cpu',
    single: calculateCpu as Single,
    batch: calculateCpuBatch,
    valid: (p) => ({ cpu_count: 2, region: REGION[p], duration: 3 }),
    quantities: ['duration'],
    counts: ['cpu_count'],
    required: ['cpu_count', 'region', 'duration'],
    hasRegion: true,
    hasInstance: false,
    hasDataUnit: false,
    hasDurationUnit: true,
    hasUtilization: true,
  },
  {
    name: 'memory',
    single: calculateMemory as Single,
    batch: calculateMemoryBatch,
    valid: (p) => ({ region: REGION[p], data: 16, duration: 3 }),
    quantities: ['data', 'duration'],
    counts: [],
    required: ['region', 'data', 'duration'],
    hasRegion: true,
    hasInstance: false,
    hasDataUnit: true,
    hasDurationUnit: true,
    hasUtilization: false,
  },
  {
    name: 'storage',
    single: calculateStorage as Single,
    batch: calculateStorageBatch,
    valid: (p) => ({ region: REGION[p], storage_type: 'ssd', data: 2, duration: 3 }),
    quantities: ['data', 'duration'],
    counts: [],
    required: ['region', 'storage_type', 'data', 'duration'],
    hasRegion: true,
    hasInstance: false,
    hasDataUnit: true,
    hasDurationUnit: true,
    hasUtilization: false,
  },
  {
    name: 'networking',
    single: calculateNetworking as Single,
    batch: calculateNetworkingBatch,
    valid: (p) => ({ region: REGION[p], data: 100 }),
    quantities: ['data'],
    counts: [],
    required: ['region', 'data'],
    hasRegion: true,
    hasInstance: false,
    hasDataUnit: true,
    hasDurationUnit: false,
    hasUtilization: false,
  },
  {
    name: 'embodied',
    single: calculateEmbodied as Single,
    batch: calculateEmbodiedBatch,
    valid: (p) => ({ instance: INSTANCE[p], instance_count: 2, duration: 3 }),
    quantities: ['duration'],
    counts: ['instance_count'],
    required: ['instance', 'instance_count', 'duration'],
    hasRegion: false,
    hasInstance: true,
    hasDataUnit: false,
    hasDurationUnit: true,
    hasUtilization: false,
  },
  {
    name: 'instance',
    single: calculateInstance as Single,
    batch: calculateInstanceBatch,
    valid: (p) => ({ instance: INSTANCE[p], region: REGION[p], duration: 3 }),
    quantities: ['duration'],
    counts: [],
    required: ['instance', 'region', 'duration'],
    hasRegion: true,
    hasInstance: true,
    hasDataUnit: false,
    hasDurationUnit: true,
    hasUtilization: true,
  },
];

interface Expected {
  error_code: ErrorBody['error_code'];
  path: string | undefined;
  valid_values?: Array<string | number>;
}

/** Runs `run`, which must throw an EmissionsError with the expected code and path, and checks the wire body. */
function expectEmissionsError(run: () => unknown, expected: Expected): EmissionsError {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, 'expected an EmissionsError to be thrown').toBeInstanceOf(EmissionsError);
  const error = thrown as EmissionsError;
  expect(error).toBeInstanceOf(Error);
  expect(error.name).toBe('EmissionsError');
  expect(error.status).toBe(400);
  expect(error.error).toBe('bad_request');
  expect(error.error_code).toBe(expected.error_code);
  expect(error.path).toBe(expected.path);
  expect(error.message).toMatch(/\S/);
  const body = error.toJSON();
  expect(body).toEqual({
    error: 'bad_request',
    error_code: expected.error_code,
    message: error.message,
    path: expected.path,
    ...(expected.valid_values && { valid_values: expected.valid_values }),
  });
  // The wire body is what JSON.stringify sends.
  expect(JSON.parse(JSON.stringify(error))).toEqual(body);
  return error;
}

const without = (record: Record<string, unknown>, key: string) => {
  const copy = { ...record };
  delete copy[key];
  return copy;
};

describe.each(CALCULATORS)('$name: invalid requests', (calculator) => {
  describe.each(PROVIDERS)('%s', (provider) => {
    const valid = calculator.valid(provider);
    const call = (request: unknown) => () => calculator.single(provider, request as never, ds);

    it('accepts the valid base request (so each case below fails for its own reason only)', () => {
      expect(() => call(valid)()).not.toThrow();
    });

    it.each([null, undefined, 42, 'a string', true, [], [valid]])(
      'a non-object body %j is invalid_request with no path (the body itself is wrong)',
      (body) => {
        const error = expectEmissionsError(call(body), { error_code: 'invalid_request', path: undefined });
        expect(error.message).toBe('The request must be a JSON object.');
      },
    );

    it('a missing required field is invalid_request at that field', () => {
      for (const field of calculator.required) {
        const error = expectEmissionsError(call(without(valid, field)), {
          error_code: 'invalid_request',
          path: field,
        });
        expect(error.message).toContain('required');
      }
    });

    it('an unknown extra field is invalid_request naming it', () => {
      const error = expectEmissionsError(call({ ...valid, colour: 'blue' }), {
        error_code: 'invalid_request',
        path: 'colour',
      });
      expect(error.message).toContain("'colour'");
      expectEmissionsError(call({ ...valid, extra: 1, other: 2 }), {
        error_code: 'invalid_request',
        path: 'extra',
      });
    });

    it('quantities must be finite, non-negative numbers no larger than MAX_QUANTITY', () => {
      for (const field of [...calculator.quantities, ...calculator.counts]) {
        for (const bad of [
          -1,
          -0.001,
          '5',
          'NaN',
          'Infinity',
          Number.NaN,
          Infinity,
          -Infinity,
          null,
          true,
          {},
          [1],
          MAX_QUANTITY * 10,
        ]) {
          expectEmissionsError(call({ ...valid, [field]: bad }), {
            error_code: 'invalid_request',
            path: field,
          });
        }
      }
    });

    it('counts must be whole numbers', () => {
      for (const field of calculator.counts) {
        expectEmissionsError(call({ ...valid, [field]: 1.5 }), {
          error_code: 'invalid_request',
          path: field,
        });
      }
    });

    it('year must be a whole number in range, and one the dataset has', () => {
      for (const bad of ['2022', 2022.5, 1800, 3000, null]) {
        expectEmissionsError(call({ ...valid, year: bad }), { error_code: 'invalid_request', path: 'year' });
      }
      const error = expectEmissionsError(call({ ...valid, year: 2019 }), {
        error_code: 'no_emission_factors_found',
        path: 'year',
        valid_values: [2021, 2022, 2023, 2024, 2025],
      });
      expect(error.message).toContain('2021, 2022, 2023, 2024, 2025');
    });

    it('audit_trail must be enabled or disabled', () => {
      for (const bad of ['yes', 'ENABLED', true, 1]) {
        expectEmissionsError(call({ ...valid, audit_trail: bad }), {
          error_code: 'invalid_request',
          path: 'audit_trail',
        });
      }
    });

    if (calculator.hasDurationUnit) {
      it('an unknown duration_unit lists the valid spellings', () => {
        // Prototype keys must not resolve to Object.prototype members (they once crashed with a TypeError).
        for (const bad of ['week', 'm', 'fortnight', '', 'constructor', '__proto__', 'toString']) {
          expectEmissionsError(call({ ...valid, duration_unit: bad }), {
            error_code: 'invalid_request',
            path: 'duration_unit',
            valid_values: [...DURATION_UNIT_SPELLINGS],
          });
        }
        expectEmissionsError(call({ ...valid, duration_unit: 1 }), {
          error_code: 'invalid_request',
          path: 'duration_unit',
        });
      });
    } else {
      it('has no duration fields', () => {
        expectEmissionsError(call({ ...valid, duration: 1 }), {
          error_code: 'invalid_request',
          path: 'duration',
        });
      });
    }

    if (calculator.hasDataUnit) {
      it('an unknown data_unit lists the valid units', () => {
        for (const bad of ['EB', 'Gbit', 'bytes', 'constructor', '__proto__']) {
          expectEmissionsError(call({ ...valid, data_unit: bad }), {
            error_code: 'invalid_request',
            path: 'data_unit',
            valid_values: [...DATA_UNIT_SPELLINGS],
          });
        }
      });
    } else {
      it('has no data_unit field', () => {
        expectEmissionsError(call({ ...valid, data_unit: 'GB' }), {
          error_code: 'invalid_request',
          path: 'data_unit',
        });
      });
    }

    if (calculator.hasUtilization) {
      it('average_vcpu_utilization must be a number between 0 and 1', () => {
        for (const bad of [-0.01, 1.01, 2, '0.5', Number.NaN, null]) {
          expectEmissionsError(call({ ...valid, average_vcpu_utilization: bad }), {
            error_code: 'invalid_request',
            path: 'average_vcpu_utilization',
          });
        }
        expect(() => call({ ...valid, average_vcpu_utilization: 0 })()).not.toThrow();
        expect(() => call({ ...valid, average_vcpu_utilization: 1 })()).not.toThrow();
      });
    }

    if (calculator.hasRegion) {
      it('an unknown region is unknown_region listing the provider regions', () => {
        const regions = [...ds.cloudRegions.list(provider)];
        for (const bad of ['mars_1', 'us_east_1 ', `${REGION[provider]}x`]) {
          expectEmissionsError(call({ ...valid, region: bad }), {
            error_code: 'unknown_region',
            path: 'region',
            valid_values: regions,
          });
        }
        expectEmissionsError(call({ ...valid, region: '' }), {
          error_code: 'invalid_request',
          path: 'region',
        });
        expectEmissionsError(call({ ...valid, region: 7 }), {
          error_code: 'invalid_request',
          path: 'region',
        });
      });

      it('a region of another provider is unknown', () => {
        // Not `us_east_1` for GCP: that is the hosted API's spelling of GCP's own us-east1.
        const other = provider === 'azure' ? 'us_east_1' : 'westeurope';
        expectEmissionsError(call({ ...valid, region: other }), {
          error_code: 'unknown_region',
          path: 'region',
          valid_values: [...ds.cloudRegions.list(provider)],
        });
      });
    }

    if (calculator.hasInstance) {
      it('an unknown instance is unknown_instance', () => {
        const error = expectEmissionsError(call({ ...valid, instance: 'zz9.plural' }), {
          error_code: 'unknown_instance',
          path: 'instance',
        });
        expect(error.message).toContain("'zz9.plural'");
        expectEmissionsError(call({ ...valid, instance: 5 }), {
          error_code: 'invalid_request',
          path: 'instance',
        });
        expectEmissionsError(call({ ...valid, instance: '' }), {
          error_code: 'invalid_request',
          path: 'instance',
        });
      });
    }

    it('an unknown provider is unsupported_provider, checked before the body', () => {
      for (const bad of ['ibm', 'oracle', '', 'aws ']) {
        const error = expectEmissionsError(
          () => calculator.single(bad as CloudProviderSpelling, valid as never, ds),
          {
            error_code: 'unsupported_provider',
            path: 'provider_id',
            valid_values: ['aws', 'azure', 'gcp'],
          },
        );
        expect(error.message).toContain('aws, azure, gcp');
      }
      // @ts-expect-error 'ibm' is no provider: the run-time check is what is tested
      expectEmissionsError(() => calculator.single('ibm', null as never, ds), {
        error_code: 'unsupported_provider',
        path: 'provider_id',
        valid_values: ['aws', 'azure', 'gcp'],
      });
    });
  });
});

describe('spellings that are accepted', () => {
  it('regions: us_east_1, us-east-1, US_EAST_1 and US-East-1 are the same region', () => {
    const spellings = ['us_east_1', 'us-east-1', 'US_EAST_1', 'US-East-1'];
    const results = spellings.map((region) => calculateCpu('aws', { cpu_count: 1, region, duration: 1 }, ds));
    for (const result of results) expect(result).toEqual(results[0]);
  });

  it('providers are case-insensitive', () => {
    const request = { region: 'westeurope', data: 1 };
    expect(calculateNetworking('AZURE', request, ds)).toEqual(calculateNetworking('azure', request, ds));
  });

  it('instances are case-insensitive; Azure sizes with or without Standard_, with spaces or underscores', () => {
    const request = (instance: string) => ({ instance, instance_count: 1, duration: 1 });
    const reference = calculateEmbodied('azure', request('Standard_D2s_v3'), ds);
    for (const spelling of [
      'standard_d2s_v3',
      'D2s_v3',
      'd2s_v3',
      'STANDARD_D2S_V3',
      'Standard D2s v3',
      'D2s v3',
    ]) {
      expect(calculateEmbodied('azure', request(spelling), ds)).toEqual(reference);
    }
    expect(calculateEmbodied('aws', request('T2.MICRO'), ds)).toEqual(
      calculateEmbodied('aws', request('t2.micro'), ds),
    );
  });

  it('storage_type is case-insensitive', () => {
    const request = { region: 'us_east_1', data: 1, duration: 1 };
    expect(calculateStorage('aws', { ...request, storage_type: 'SSD' }, ds)).toEqual(
      calculateStorage('aws', { ...request, storage_type: 'ssd' }, ds),
    );
    // @ts-expect-error 'tape' is no storage type: the run-time check is what is tested
    expectEmissionsError(() => calculateStorage('aws', { ...request, storage_type: 'tape' }, ds), {
      error_code: 'invalid_request',
      path: 'storage_type',
      valid_values: ['ssd', 'hdd'],
    });
  });
});

describe('unknown_instance suggestions', () => {
  it('suggests the closest spellings first', () => {
    const error = expectEmissionsError(
      () => calculateEmbodied('aws', { instance: 't2.micr', instance_count: 1, duration: 1 }, ds),
      { error_code: 'unknown_instance', path: 'instance', valid_values: expect.any(Array) as never },
    );
    expect(error.valid_values?.[0]).toBe('t2.micro');
    expect(error.valid_values?.length).toBeLessThanOrEqual(5);
    expect(error.message).toContain('Did you mean: t2.micro');
  });

  it('suggests real Azure sizes of the same series', () => {
    const error = expectEmissionsError(
      () =>
        calculateInstance('azure', { instance: 'Standard_D2s_v9', region: 'westeurope', duration: 1 }, ds),
      { error_code: 'unknown_instance', path: 'instance', valid_values: expect.any(Array) as never },
    );
    expect(error.valid_values?.[0]).toBe('Standard_D2s_v3');
    for (const suggestion of error.valid_values ?? []) {
      expect(ds.cloudInstances.get('azure', String(suggestion))).toBeDefined();
    }
  });

  it('gives no valid_values when nothing is alike', () => {
    const error = expectEmissionsError(
      () => calculateEmbodied('gcp', { instance: 'qqqq', instance_count: 1, duration: 1 }, ds),
      { error_code: 'unknown_instance', path: 'instance' },
    );
    expect(error.valid_values).toBeUndefined();
    expect(error.message).not.toContain('Did you mean');
  });
});

describe('years without data in other datasets', () => {
  it('the CCF-grid dataset lists its one year', () => {
    expectEmissionsError(
      () =>
        calculateCpu('aws', { cpu_count: 1, region: 'us_east_1', duration: 1, year: 2022 }, ccfGridDatasets),
      {
        error_code: 'no_emission_factors_found',
        path: 'year',
        valid_values: [2024],
      },
    );
  });

  it('the instance estimate checks the embodied years as well as the grid years', () => {
    expectEmissionsError(
      () =>
        calculateInstance('aws', { instance: 't2.micro', region: 'us_east_1', duration: 1, year: 2026 }, ds),
      {
        error_code: 'no_emission_factors_found',
        path: 'year',
        valid_values: [2021, 2022, 2023, 2024, 2025],
      },
    );
  });
});

describe('batch forms', () => {
  it.each(CALCULATORS)(
    '$name: bad elements become error bodies at requests[i], the rest are computed in order',
    (calculator) => {
      const good = calculator.valid('gcp');
      const other = { ...calculator.valid('gcp'), year: 2024 };
      const missing = without(good, calculator.required[0] as string);
      const badYear = { ...good, year: 1999 };
      const requests = [good, null, missing, other, { ...good, junk: true }, badYear];
      const results = calculator.batch('gcp', requests as never[], ds);

      expect(results).toHaveLength(requests.length);
      expect(results[0]).toEqual(calculator.single('gcp', good as never, ds));
      expect(results[3]).toEqual(calculator.single('gcp', other as never, ds));
      expect(results[1]).toEqual({
        error: 'bad_request',
        error_code: 'invalid_request',
        message: 'The request must be a JSON object.',
        path: 'requests[1]',
      });
      expect(results[2]).toMatchObject({
        error_code: 'invalid_request',
        path: `requests[2].${calculator.required[0]}`,
      });
      expect(results[4]).toMatchObject({ error_code: 'invalid_request', path: 'requests[4].junk' });
      expect(results[5]).toMatchObject({
        error_code: 'no_emission_factors_found',
        path: 'requests[5].year',
        valid_values: [2021, 2022, 2023, 2024, 2025],
      });
      // Error bodies are plain JSON objects, not Error instances.
      expect(results[1]).not.toBeInstanceOf(Error);
    },
  );

  it.each(CALCULATORS)('$name: a batch that is not an array throws invalid_request', (calculator) => {
    for (const notArray of [null, undefined, {}, 'requests', 3, { 0: calculator.valid('aws'), length: 1 }]) {
      expectEmissionsError(() => calculator.batch('aws', notArray as never, ds), {
        error_code: 'invalid_request',
        path: 'requests',
      });
    }
  });

  it('an empty batch gives an empty array', () => {
    for (const calculator of CALCULATORS) expect(calculator.batch('aws', [], ds)).toEqual([]);
  });

  it('an unsupported provider (a path parameter) fails the whole batch once, before any element', () => {
    expectEmissionsError(
      // @ts-expect-error 'ibm' and null: what JSON may hold, checked at run time
      () => calculateCpuBatch('ibm', [{ cpu_count: 1, region: 'us_east_1', duration: 1 }, null], ds),
      {
        error_code: 'unsupported_provider',
        path: 'provider_id',
        valid_values: ['aws', 'azure', 'gcp'],
      },
    );
  });
});

describe('regions and types the datasets list as unsupported: the error gives their reason', () => {
  const thrown = (run: () => unknown): EmissionsError => caught(EmissionsError, run);

  it('unknown_region for an unsupported region, in any spelling, says why', () => {
    const error = thrown(() =>
      calculateCpu('azure', { cpu_count: 1, region: 'US Gov Arizona', duration: 1 }, ds),
    );
    expect(error.error_code).toBe('unknown_region');
    expect(error.path).toBe('region');
    expect(error.message).toBe(
      "The azure region 'usgovarizona' is not supported by these datasets: Azure Government; the site is documented only as Arizona, which spans three balancing authorities (AZPS, SRP, TEPC).",
    );
    // CCF's grid set lists the regions it has no figure for.
    const ccf = thrown(() =>
      calculateCpu('aws', { cpu_count: 1, region: 'il_central_1', duration: 1 }, ccfGridDatasets),
    );
    expect(ccf.message).toBe(
      "The aws region 'il-central-1' is not supported by these datasets: CCF's grid emission factors (trunk b7a049c7) have no figure for it.",
    );
  });

  it('unknown_instance for an excluded type, in any case, gives the reason and the source', () => {
    const error = thrown(() =>
      calculateEmbodied('aws', { instance: 'C7I-FLEX.LARGE', instance_count: 1, duration: 1 }, ds),
    );
    expect(error.error_code).toBe('unknown_instance');
    expect(error.path).toBe('instance');
    expect(error.message).toBe(
      "The aws instance type 'c7i-flex.large' is not supported by these datasets: no size of the family has an embodied figure (ccf/ccf-coefficients/aws-instances-latest-2026.csv).",
    );
    const azure = thrown(() =>
      calculateInstance('azure', { instance: 'a0', region: 'westeurope', duration: 1 }, ds),
    );
    expect(azure.message).toMatch(
      /^The azure instance type 'Standard_A0' is not supported by these datasets: missing/,
    );
  });

  it('a type neither in the table nor listed keeps the did-you-mean message', () => {
    // 'zz9large' is 2 edits from 'z1dlarge' (of 8 characters, 2 are allowed) and 3 or more from every other type.
    const error = thrown(() =>
      calculateEmbodied('aws', { instance: 'zz9.large', instance_count: 1, duration: 1 }, ds),
    );
    expect(error.message).toBe(
      "Instance type 'zz9.large' is not a known aws instance type. Did you mean: z1d.large?",
    );
  });
});
