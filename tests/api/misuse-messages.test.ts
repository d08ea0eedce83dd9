import { describe, expect, it } from 'vitest';
import { calculateCpu } from '../../src/cloud/cpu';
import { EmissionsError } from '../../src/core/errors';
import { createTableDatasets } from '../../src/datasets/create';
import { DatasetError } from '../../src/datasets/errors';
import { defaultDatasets } from '../../src/embedded/index';
import { parseMarginsCsv } from '../../src/loaders/parse-margins-csv';
import { parseNaioMargins } from '../../src/loaders/parse-naio-margins';
import { parseTableCsv } from '../../src/loaders/parse-table-csv';

/** A library call given the wrong kind of argument fails with the project's own error, in words a caller reads. */

const thrownBy = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
};

const CPU = { cpu_count: 2, region: 'us_east_1', duration: 1 };

describe('a provider that is not a string', () => {
  it.each([
    [undefined, 'Provider is missing. Valid providers: aws, azure, gcp.'],
    [null, 'Provider is missing. Valid providers: aws, azure, gcp.'],
    [{}, 'Provider must be a string, got an object. Valid providers: aws, azure, gcp.'],
    [['aws'], 'Provider must be a string, got an array. Valid providers: aws, azure, gcp.'],
    [42, 'Provider must be a string, got a number. Valid providers: aws, azure, gcp.'],
  ])('%j: %s', (provider, message) => {
    const error = thrownBy(() => calculateCpu(provider as never, CPU, defaultDatasets));
    expect(error).toBeInstanceOf(EmissionsError);
    expect((error as EmissionsError).error_code).toBe('unsupported_provider');
    expect((error as EmissionsError).message).toBe(message);
    expect((error as EmissionsError).path).toBe('provider_id');
  });

  it('a string still names itself', () => {
    expect((thrownBy(() => calculateCpu('ibm' as never, CPU, defaultDatasets)) as Error).message).toBe(
      "Provider 'ibm' is not supported. Valid providers: aws, azure, gcp.",
    );
  });
});

describe('parseTableCsv without its options', () => {
  const text = 'currency,year,rate\neur,2024,0.924\nusd,2024,1\n';
  it.each([
    [
      'no options argument',
      undefined,
      'fx.csv: the options argument is missing: give { meta } with the table-wide fields (dataset, …)',
    ],
    [
      'null',
      null,
      'fx.csv: the options argument is missing: give { meta } with the table-wide fields (dataset, …)',
    ],
    [
      'options without meta',
      {},
      "fx.csv: the option 'meta' is missing: give the table-wide fields (dataset, …)",
    ],
  ])('%s: a DatasetError that says what is missing', (_, options, message) => {
    const error = thrownBy(() => parseTableCsv('fx', text, options as never));
    expect(error).toBeInstanceOf(DatasetError);
    expect((error as DatasetError).message).toBe(message);
  });
});

describe('the margins loaders without their options', () => {
  it.each([
    [
      'parseMarginsCsv',
      () => parseMarginsCsv('region,tax,trade,transport\n', undefined as never),
      'margins.csv: the options argument is missing: give { dataset } (id, version, source, …)',
    ],
    [
      'parseNaioMargins',
      () => parseNaioMargins('', null as never),
      'naio_10_cp15.tsv: the options argument is missing: give { year, tradeShare, classifications }',
    ],
  ])('%s: a DatasetError that says what to give', (_, run, message) => {
    const error = thrownBy(run);
    expect(error).toBeInstanceOf(DatasetError);
    expect((error as DatasetError).message).toBe(message);
  });
});

describe('createTableDatasets given no tables object', () => {
  it.each([[null], [undefined], [42], ['fx'], [[]]])('%j: a DatasetError', (tables) => {
    const error = thrownBy(() => createTableDatasets(tables as never));
    expect(error).toBeInstanceOf(DatasetError);
    expect((error as DatasetError).message).toBe(
      'tables: expected an object of tables by part (cloudCoefficients, fx, …), got ' +
        (tables === null
          ? 'null'
          : Array.isArray(tables)
            ? 'an array'
            : tables === undefined
              ? 'undefined'
              : `a ${typeof tables}`) +
        '.',
    );
  });
});
