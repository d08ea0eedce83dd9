import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  calculateCpu,
  calculateEmbodied,
  calculateInstance,
  calculateMemory,
  calculateNetworking,
  calculateSpend,
  calculateStorage,
} from '../../src/index';
import { MAX_MESSAGE_CHARS, messages } from '../../src/core/errors';
import { CLOUD_PROVIDERS } from '../../src/datasets/tables';
import { defaultDatasets } from '../../src/embedded/index';
import { DATASET_PRESET_NAMES, withDatasetPreset } from '../../src/embedded/presets';
import { meantNumber, strictNumber } from '../../src/cli/adapters/cells';
import { cloudRows } from '../../src/cli/adapters/cloud';
import { spendRows } from '../../src/cli/adapters/spend';
import { checkHeader } from '../../src/cli/pipeline/header';
import { fieldCountMessage } from '../../src/cli/pipeline/chunk';
import { SPEND_COLUMNS } from '../../src/cli/adapters/spend';

/**
 * Every error message is at most 200 characters (#37 item 5); the long detail (valid values, product lists) goes in
 * its own field (`valid_values`). This walks every template of src/core/errors.ts with the worst arguments the
 * datasets give, and every calculator and CLI adapter with a corpus of bad inputs that reaches each other place a
 * message is written; a last test fails when a file of src/ starts writing EmissionsError messages unwalked.
 */

const LONG = 'x'.repeat(300);
const datasetsOf = [
  defaultDatasets,
  ...DATASET_PRESET_NAMES.map((name) => withDatasetPreset(defaultDatasets, name)),
];

const tooLong = (found: Array<{ where: string; message: string }>) =>
  found.filter(({ message }) => message.length > MAX_MESSAGE_CHARS);

function collect(cases: Array<[string, () => unknown]>): Array<{ where: string; message: string }> {
  const found: Array<{ where: string; message: string }> = [];
  for (const [where, run] of cases) {
    try {
      run();
    } catch (error) {
      found.push({ where, message: (error as Error).message });
    }
  }
  return found;
}

describe('every error message is at most 200 characters', () => {
  it('every template of core/errors.ts, with the longest arguments the datasets give', () => {
    const walked: Record<keyof typeof messages, () => string[]> = {
      unsupportedProvider: () => [messages.unsupportedProvider(LONG.slice(0, 40), CLOUD_PROVIDERS)],
      unreadableRequest: () => [messages.unreadableRequest(LONG)],
      unreadableBatch: () => [messages.unreadableBatch(LONG)],
      missingProvider: () => [messages.missingProvider(CLOUD_PROVIDERS)],
      providerNotAString: () => [messages.providerNotAString('an object', CLOUD_PROVIDERS)],
      unknownRegion: () =>
        datasetsOf.flatMap((datasets) =>
          CLOUD_PROVIDERS.map((provider) => {
            const valid = datasets.cloudRegions.list(provider);
            const longest = [...valid].sort((a, b) => b.length - a.length).slice(0, 5);
            return messages.unknownRegion(provider, LONG, valid, longest);
          }),
        ),
      listedUnsupported: () =>
        datasetsOf.flatMap((datasets) =>
          CLOUD_PROVIDERS.flatMap((provider) => [
            ...(datasets.cloudRegions.unsupported?.(provider) ?? []).map((row) =>
              messages.listedUnsupported('region', provider, row.region, row.reason),
            ),
            ...(datasets.cloudInstances.excluded?.(provider) ?? []).map((row) =>
              messages.listedUnsupported(
                'instance type',
                provider,
                row.instance,
                `${row.reason} (${row.source})`,
              ),
            ),
          ]),
        ),
      unknownInstance: () =>
        datasetsOf.flatMap((datasets) =>
          CLOUD_PROVIDERS.map((provider) => {
            const longest = [...datasets.cloudInstances.list(provider)]
              .sort((a, b) => b.length - a.length)
              .slice(0, 5);
            return messages.unknownInstance(provider, LONG, longest);
          }),
        ),
      noFactorForYear: () => [
        messages.noFactorForYear(
          `region '${LONG.slice(0, 40)}'`,
          1999,
          [2019, 2020, 2021, 2022, 2023, 2024, 2025, 2026],
        ),
        messages.noFactorForYear(
          'embodied emissions',
          1999,
          [2019, 2020, 2021, 2022, 2023, 2024, 2025, 2026],
        ),
      ],
      batchTooLarge: () => [messages.batchTooLarge(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)],
      notABatch: () => [messages.notABatch()],
    };
    // A new template must be walked here.
    expect(Object.keys(walked).sort()).toEqual(Object.keys(messages).sort());
    const all = Object.entries(walked).flatMap(([where, run]) =>
      run().map((message) => ({ where, message })),
    );
    expect(all.length).toBeGreaterThan(50);
    expect(tooLong(all)).toEqual([]);
  });

  it('every calculator, over a corpus of bad requests', () => {
    const calculators = {
      cpu: calculateCpu,
      memory: calculateMemory,
      storage: calculateStorage,
      networking: calculateNetworking,
      embodied: calculateEmbodied,
      instance: calculateInstance,
    } as Record<string, (provider: string, request: unknown, datasets: unknown) => unknown>;
    const base = {
      cpu_count: 2,
      region: 'us_east_1',
      duration: 1,
      duration_unit: 'hour',
      data: 1,
      data_unit: 'GB',
      storage_type: 'ssd',
      instance: 'm5.large',
      instance_count: 1,
    };
    const values = [undefined, null, -1, 0, 1e30, 'abc', LONG, {}, [], true, 1.5, 1999, 3000, 'h', 'GB', 'm'];
    const fields = [
      ...Object.keys(base),
      'average_vcpu_utilization',
      'replication_factor',
      'year',
      'audit_trail',
      'extra',
      LONG,
    ];
    const cases: Array<[string, () => unknown]> = [];
    const unknownFields = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`extra_${index}`, 1]));
    for (const [name, calculate] of Object.entries(calculators))
      cases.push([
        `${name} 50 unknown fields`,
        () => calculate('aws', { ...base, ...unknownFields }, defaultDatasets),
      ]);
    for (const datasets of datasetsOf)
      for (const [name, calculate] of Object.entries(calculators))
        for (const provider of [...CLOUD_PROVIDERS, 'ibm', LONG]) {
          cases.push([`${name} not an object`, () => calculate(provider, 'x', datasets)]);
          for (const field of fields)
            for (const value of values)
              cases.push([
                `${name} ${field}`,
                () => calculate(provider, { ...base, [field]: value }, datasets),
              ]);
          for (const region of [
            'us-east-1',
            'useast1',
            'eastus',
            'europe-west1',
            'il-central-1',
            'usgovarizona',
          ])
            cases.push([`${name} region`, () => calculate(provider, { ...base, region }, datasets)]);
          for (const instance of ['m5.larg', 'c8i.large', 'Standard_A0', 'n2-standard'])
            cases.push([`${name} instance`, () => calculate(provider, { ...base, instance }, datasets)]);
        }
    const found = collect(cases);
    expect(found.length).toBeGreaterThan(1000);
    expect(tooLong(found)).toEqual([]);
  });

  it('spend, over a corpus of bad requests', () => {
    const base = {
      activity: { classification_type: 'isic4', classification_code: '4711' },
      spend_year: 2019,
      spend_region: 'DE',
      money: 1,
      money_unit: 'eur',
    };
    const values = [
      undefined,
      null,
      -1,
      0,
      1e30,
      'abc',
      LONG,
      {},
      [],
      true,
      1.5,
      1999,
      'ZZ',
      'XK',
      'zzz',
      'eru',
    ];
    const activities = [
      {},
      'x',
      { activity_id: LONG },
      { classification_type: 'unspsc', classification_code: '1' },
      { classification_type: LONG, classification_code: '1' },
      { classification_type: 'isic4', classification_code: LONG },
      { classification_type: 'isic4', classification_code: '99999' },
      { classification_type: 'isic4' },
      { activity_id: 'a', classification_type: 'isic4' },
    ];
    const cases: Array<[string, () => unknown]> = [];
    for (const datasets of datasetsOf) {
      for (const field of [
        ...Object.keys(base),
        'tax_margin',
        'trade_margin',
        'transport_margin',
        'audit_trail',
        'extra',
      ])
        for (const value of values)
          cases.push([
            `spend ${field}`,
            () => calculateSpend({ ...base, [field]: value } as never, datasets),
          ]);
      for (const activity of activities)
        cases.push(['spend activity', () => calculateSpend({ ...base, activity } as never, datasets)]);
    }
    const found = collect(cases);
    expect(found.length).toBeGreaterThan(300);
    expect(tooLong(found)).toEqual([]);
  });

  it('the CLI: cells, adapters, the header check, records', () => {
    const spend = spendRows(defaultDatasets);
    const cloud = cloudRows(defaultDatasets);
    const cells = [
      '1,234.50',
      '€1,234,567.89',
      `(${'1'.repeat(300)},5)`,
      LONG,
      '1.234',
      '1 234,50 EUR',
      '-5',
    ];
    const cases: Array<[string, () => unknown]> = [];
    for (const cell of cells)
      for (const decimalComma of [false, true]) {
        cases.push(['strictNumber', () => strictNumber(cell, 'transport_margin', decimalComma)]);
        cases.push([
          'spend row',
          () =>
            spend.compute(
              {
                classification_type: 'isic4',
                classification_code: '4711',
                spend_year: '2019',
                spend_region: 'DE',
                money: cell,
                money_unit: 'eur',
              },
              'csv',
              { decimalComma },
            ),
        ]);
      }
    for (const row of [
      {},
      { calculator: LONG, provider: 'aws' },
      { calculator: 'cpu' },
      { calculator: 'cpu', provider: LONG },
    ])
      cases.push(['cloud row', () => cloud.compute(row, 'csv')]);
    const longNames = Array.from({ length: 30 }, (_, index) => `${LONG}${index}`);
    cases.push(['header: every column missing', () => checkHeader(longNames, SPEND_COLUMNS)]);
    cases.push([
      'header: misspelt',
      () => checkHeader(['clasification_code', 'Monie', 'money_units', 'spend_yr'], SPEND_COLUMNS),
    ]);
    cases.push(['header: twice', () => checkHeader([`${LONG}`, 'money', `Money`, 'MONEY'], SPEND_COLUMNS)]);
    const found = collect(cases);
    found.push({
      where: 'fieldCountMessage',
      message: fieldCountMessage(Number.MAX_SAFE_INTEGER, 10_000, 1, '\t'),
    });
    for (const cell of cells)
      found.push({
        where: 'meantNumber',
        message: `'money' must be a number, got '${LONG.slice(0, 40)}…'; ${meantNumber(cell, false) ?? ''}`,
      });
    expect(found.length).toBeGreaterThan(25);
    expect(tooLong(found)).toEqual([]);
  });

  it('every file of src/ that writes an EmissionsError message is walked above (or listed here as such)', () => {
    const root = resolve(__dirname, '../../src');
    const files: string[] = [];
    const walk = (folder: string) => {
      for (const name of readdirSync(folder)) {
        const path = join(folder, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ts') && readFileSync(path, 'utf8').includes('new EmissionsError('))
          files.push(relative(root, path));
      }
    };
    walk(root);
    // Reached by the corpora above (calculators, spend, CLI adapters).
    const walkedByCorpus = [
      'cli/adapters/cells.ts',
      'cli/adapters/cloud.ts',
      'cli/adapters/spend.ts',
      'cloud/factors/use-phase.ts',
      'cloud/resolve.ts',
      'core/errors.ts',
      'core/estimate.ts',
      'core/validate.ts',
      'datasets/require.ts',
      'spend/classification.ts',
      'spend/currency.ts',
      'spend/regions.ts',
      'spend/spend.ts',
    ];
    // Fixed texts or texts bounded by construction, checked by their own tests: the HTTP adapter's statuses
    // (tests/http), batch shape errors (core/batch.ts: messages.batchTooLarge/notABatch), billing format detection
    // (tests/billing), a --group-by key (billing/groups.ts: shown to 60 characters), estimateBilling's rows that are
    // not an array (billing/index.ts: a fixed text and a typeof, tests/billing/misuse.test.ts), UDF bodies (tests/udf).
    const boundedElsewhere = [
      'billing/estimate.ts',
      'billing/index.ts',
      'billing/groups.ts',
      'billing/rules.ts',
      'core/batch.ts',
      'http/client-error.ts',
      'http/node-handler.ts',
      'http/read-json-body.ts',
      'http/responses.ts',
      'http/rules.ts',
      'udf/cloud-udf.ts',
      'udf/error-body.ts',
    ];
    expect(files.sort()).toEqual([...walkedByCorpus, ...boundedElsewhere].sort());
  });
});
