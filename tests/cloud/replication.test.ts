import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calculateMemory, calculateStorage, calculateStorageBatch, EmissionsError } from '../../src/index';
import { defaultDatasets } from '../../src/embedded/index';
import { cli, parseCsv, tempFile } from '../cli/harness';
import { startServer, type TestServer } from '../http/server';

/**
 * `replication_factor` on storage and memory (issue 22 item 2), through the library, HTTP and the CLI. Values by
 * hand from CCF coefficients and the Electricity Maps 2022 grid factor of us-east-1 (0.434 kg/kWh):
 * SSD factor = 1.2 / 1000 × 1.135 × 0.434 = 0.000591108 kg per TB-hour; memory = 0.000392 × 1.135 × 0.434
 * = 0.00019309528 kg per GB-hour.
 */

/** 1 TB of SSD for 24 h in two copies: 48 TB-hour, 48 × 0.000591108 = 0.028373184 kg. */
const TWO_COPIES = {
  region: 'us_east_1',
  storage_type: 'ssd',
  data: 1,
  data_unit: 'TB',
  duration: 24,
  replication_factor: 2,
} as const;

describe('library', () => {
  it('multiplies the activity and echoes the factor', () => {
    // 1 TB × 24 h × 2 = 48 TB-hour; 48 × 0.000591108 = 0.028373184
    const storage = calculateStorage('aws', TWO_COPIES, defaultDatasets);
    expect(storage.activity_data).toEqual({ activity_value: 48, activity_unit: 'TB-hour' });
    expect(storage.co2e).toBe(0.028373184);
    expect(storage.calculation_details).toEqual({ replication_factor: 2 });
    // 16 GB × 2 h × 3 = 96 GB-hour; 96 × 0.00019309528 = 0.01853714688
    const memory = calculateMemory(
      'aws',
      { region: 'us_east_1', data: 16, duration: 2, replication_factor: 3 },
      defaultDatasets,
    );
    expect(memory.activity_data.activity_value).toBe(96);
    expect(memory.co2e).toBe(0.01853714688);
    expect(memory.calculation_details).toEqual({ replication_factor: 3 });
  });

  it('absent means 1 and leaves the result as before (no calculation_details)', () => {
    const request = { region: 'us_east_1', storage_type: 'hdd', data: 500, duration: 24 } as const;
    const plain = calculateStorage('aws', request, defaultDatasets);
    expect(plain).not.toHaveProperty('calculation_details');
    const one = calculateStorage('aws', { ...request, replication_factor: 1 }, defaultDatasets);
    expect(one.co2e).toBe(plain.co2e);
    expect(one.calculation_details).toEqual({ replication_factor: 1 });
  });

  it('is exactly linear: factor r gives r times the co2e of r copies of the data', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 1000 }), (r, gb) => {
        const a = calculateMemory(
          'gcp',
          { region: 'europe_west1', data: gb, duration: 1, replication_factor: r },
          defaultDatasets,
        );
        const b = calculateMemory(
          'gcp',
          { region: 'europe_west1', data: gb * r, duration: 1 },
          defaultDatasets,
        );
        expect(a.co2e).toBe(b.co2e);
        expect(a.activity_data.activity_value).toBe(b.activity_data.activity_value);
      }),
      { numRuns: 100 },
    );
  });

  it.each([
    [0, 'must be greater than 0'],
    [-2, 'must be greater than 0'],
    ['2', 'must be a number'],
    [1e16, 'must be at most 1000000000000000'],
  ])('rejects %s', (value, message) => {
    try {
      calculateStorage(
        'aws',
        {
          region: 'us_east_1',
          storage_type: 'ssd',
          data: 1,
          duration: 1,
          replication_factor: value as number,
        },
        defaultDatasets,
      );
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EmissionsError);
      expect((error as EmissionsError).error_code).toBe('invalid_request');
      expect((error as EmissionsError).path).toBe('replication_factor');
      expect((error as EmissionsError).message).toContain(message);
    }
  });

  it('is a stranger to the other calculators, and batches keep their order', () => {
    const results = calculateStorageBatch(
      'aws',
      [TWO_COPIES, { region: 'us_east_1', storage_type: 'ssd', data: 1, duration: 1, replication_factor: 0 }],
      defaultDatasets,
    );
    expect((results[0] as { co2e: number }).co2e).toBe(0.028373184);
    expect((results[1] as { error_code: string }).error_code).toBe('invalid_request');
  });
});

describe('HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ datasets: defaultDatasets });
  });
  afterAll(() => server.close());

  it('POST /compute/aws/storage with replication_factor 2', async () => {
    const { status, body } = await server.post('/compute/aws/storage', TWO_COPIES);
    expect(status).toBe(200);
    expect(body.co2e).toBe(0.028373184);
    expect(body.calculation_details).toEqual({ replication_factor: 2 });
  });

  it('POST /compute/aws/memory with replication_factor 0 is a 400', async () => {
    const { status, body } = await server.post('/compute/aws/memory', {
      region: 'us_east_1',
      data: 16,
      duration: 2,
      replication_factor: 0,
    });
    expect(status).toBe(400);
    expect(body.error_code).toBe('invalid_request');
  });
});

describe('CLI cloud', () => {
  it('reads a replication_factor column', async () => {
    const file = tempFile(
      'replicated.csv',
      [
        'calculator,provider,region,storage_type,data,data_unit,duration,replication_factor',
        'storage,aws,us_east_1,ssd,1,TB,24,2',
        'memory,aws,us_east_1,,16,GB,2,3',
        'storage,aws,us_east_1,ssd,1,TB,24,',
        'storage,aws,us_east_1,ssd,1,TB,24,two',
      ].join('\n'),
    );
    const { stdout } = await cli(['cloud', file]);
    const rows = parseCsv(stdout);
    expect(rows.map((row) => [row.co2e, row.activity_value, row.error_code])).toEqual([
      ['0.028373184', '48', ''],
      ['0.01853714688', '96', ''],
      // 24 TB-hour × 0.000591108 = 0.014186592 (absent: 1)
      ['0.014186592', '24', ''],
      ['', '', 'invalid_request'],
    ]);
  });
});
