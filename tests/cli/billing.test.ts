import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BILLING_COLUMNS, estimateBilling } from '../../src/billing/index';
import { defaultDatasets } from '../../src/embedded/index';
import { FIXTURES, readFixture } from '../billing/fixtures';
import { cli, parseCsv, tempFile, tempPath } from './harness';

/**
 * `co2e-engine billing FILE`: the billing rows through the file pipeline. Every row must equal what the library
 * gives for it (tests/billing has the hand-checked values).
 */

const fixture = (name: string) => join(FIXTURES, name);
const cell = (value: unknown) => (value === null || value === undefined ? '' : String(value));

describe('billing FILE', () => {
  it.each([
    'focus-aws.csv',
    'focus-azure.csv',
    'focus-gcp.csv',
    'focus-oracle.csv',
    'focus-spec-aws.csv',
    'focus-spec-azure.csv',
    'aws-cur.csv',
    'aws-cur-regions.csv',
    'aws-cur2.csv',
    'gcp-export.csv',
    'azure-export.csv',
  ])('%s --out out.csv: input columns, then the co2e columns equal to the library', async (name) => {
    const out = tempFile(`${name}.out.csv`, '');
    const { code, stderr } = await cli(['billing', fixture(name), '--out', out, '--force']);
    expect(stderr).not.toContain('failed:');
    expect(code).toBe(0);
    const rows = parseCsv(readFileSync(out, 'utf8'));
    const input = readFixture(name);
    const expected = estimateBilling(input, defaultDatasets).rows;
    expect(rows).toHaveLength(input.length);
    expect(Object.keys(rows[0]!)).toEqual([...Object.keys(input[0]!), ...BILLING_COLUMNS]);
    rows.forEach((row, index) => {
      for (const column of BILLING_COLUMNS) expect(row[column]).toBe(cell(expected[index]![column]));
      for (const [key, value] of Object.entries(input[index]!)) expect(row[key]).toBe(value);
    });
  });

  it('JSON Lines of a nested GCP export, and a gzipped CSV', async () => {
    const jsonl = await cli(['billing', fixture('gcp-export.jsonl')]);
    expect(jsonl.code).toBe(0);
    const lines = jsonl.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines[0].sku.description).toBe('N1 Predefined Instance Core running in Americas');
    expect(lines[0].co2e_calculator).toBe('cpu');
    const gz = tempFile('aws-cur.csv.gz', '');
    writeFileSync(gz, gzipSync(readFileSync(fixture('aws-cur.csv'))));
    const zipped = await cli(['billing', gz]);
    expect(zipped.code).toBe(0);
    expect(parseCsv(zipped.stdout)).toHaveLength(readFixture('aws-cur.csv').length);
  });

  it('--summary FILE: the library summary; stderr groups by provider and lists the reasons', async () => {
    const out = tempFile('summary-out.csv', '');
    const summaryFile = tempFile('summary.json', '');
    const { code, stderr } = await cli([
      'billing',
      fixture('aws-cur.csv'),
      '--out',
      out,
      '--force',
      '--summary',
      summaryFile,
    ]);
    expect(code).toBe(0);
    const expected = estimateBilling(readFixture('aws-cur.csv'), defaultDatasets).summary;
    expect(JSON.parse(readFileSync(summaryFile, 'utf8'))).toEqual(expected);
    expect(stderr).toContain('by provider:');
    expect(stderr).toContain('not estimated, by reason (rows):');
    expect(stderr).toMatch(/\d+\.\d % of cost estimated; summary in /);
  });

  it.each(['csv', 'parquet'])(
    '--summary of a nested GCP JSON Lines export written as %s: the library summary',
    async (format) => {
      const out = tempFile(`gcp-summary-out.${format}`, '');
      const summaryFile = tempFile(`gcp-summary-${format}.json`, '');
      const { code, stderr } = await cli([
        'billing',
        fixture('gcp-export.jsonl'),
        '--out',
        out,
        '--force',
        '--summary',
        summaryFile,
      ]);
      expect(stderr).not.toContain('matches no billing export format');
      expect(code).toBe(0);
      const input = readFileSync(fixture('gcp-export.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const expected = estimateBilling(input, defaultDatasets).summary;
      expect(JSON.parse(readFileSync(summaryFile, 'utf8'))).toEqual(expected);
    },
  );

  it('--unknown cost-ratio labels the rows it estimates; --export-format forces a format', async () => {
    const ratio = await cli(['billing', fixture('aws-cur.csv'), '--unknown', 'cost-ratio']);
    expect(ratio.code).toBe(0);
    const rows = parseCsv(ratio.stdout);
    const expected = estimateBilling(readFixture('aws-cur.csv'), defaultDatasets, {
      unknown: 'cost-ratio',
    }).rows;
    expect(rows.map((row) => row.co2e_calculator)).toEqual(expected.map((row) => cell(row.co2e_calculator)));
    expect(rows.map((row) => row.co2e_kg)).toEqual(expected.map((row) => cell(row.co2e_kg)));
    expect(rows.filter((row) => row.co2e_calculator === 'cost-ratio')).toHaveLength(3);

    // Forcing the format a file is gives the rows detection gives (those of the run above without cost-ratio).
    const forced = await cli(['billing', fixture('aws-cur.csv'), '--export-format', 'aws-cur']);
    expect(forced.code).toBe(0);
    expect(parseCsv(forced.stdout).map((row) => row.co2e_kg)).toEqual(
      parseCsv(ratio.stdout).map((row) => (row.co2e_calculator === 'cost-ratio' ? '' : row.co2e_kg)),
    );
  });

  it.each([
    ['azure-export.csv', 'aws-cur', 'lineItem/UsageType, lineItem/UsageAmount', 'azure'],
    ['focus-aws.csv', 'aws-cur', 'lineItem/UsageType, lineItem/UsageAmount', 'focus'],
    [
      'aws-cur.csv',
      'gcp',
      'sku.description|sku_description, service.description|service_description',
      'aws-cur',
    ],
  ])(
    '%s --export-format %s: none of its columns, so exit 2 before --out is written',
    async (name, format, columns, detected) => {
      const out = tempPath(`forced-${name}-${format}.csv`);
      const { code, stderr } = await cli(['billing', fixture(name), '--export-format', format, '--out', out]);
      expect(code).toBe(2);
      expect(stderr).toContain(
        `--export-format ${format}: the header has none of its columns (${columns}); it reads as ${detected}`,
      );
      expect(existsSync(out)).toBe(false);
    },
  );

  it('usage errors: an unknown header, --summary without --out, a bad --export-format', async () => {
    const unknown = await cli(['billing', tempFile('plain.csv', 'a,b\n1,2\n'), '--unknown', 'cost-ratio']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('matches no billing export format');
    const noOut = await cli(['billing', fixture('aws-cur.csv'), '--summary', tempFile('s.json', '')]);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toContain('--summary needs --out');
    const bad = await cli(['billing', fixture('aws-cur.csv'), '--export-format', 'oracle']);
    expect(bad.code).toBe(2);
  });

  it('a header of no known format stops before --out is created, naming the formats and columns', async () => {
    const out = tempPath('never.csv');
    const { code, stderr } = await cli(['billing', tempFile('plain2.csv', 'a,b\n1,2\n'), '--out', out]);
    expect(code).toBe(2);
    expect(stderr).toContain('The header matches no billing export format');
    expect(stderr).toContain('Columns looked for: focus: BilledCost, ChargeCategory, ChargePeriodStart');
    expect(existsSync(out)).toBe(false);
    const oci = await cli([
      'billing',
      tempFile(
        'oci.csv',
        'lineItem/referenceNo,product/service,usage/billedQuantity,cost/myCost\nr1,COMPUTE,1,0.5\n',
      ),
      '--out',
      out,
    ]);
    expect(oci.code).toBe(2);
    expect(oci.stderr).toContain('OCI cost report: not supported');
    expect(existsSync(out)).toBe(false);
  });

  it('stdin of no known format: every row says so (nothing can be read ahead)', async () => {
    const { code, stdout } = await cli(['billing', '-'], { stdin: 'a,b\n1,2\n' });
    expect(code).toBe(1);
    expect(parseCsv(stdout)[0]?.co2e_reason).toMatch(
      /^invalid_request: The header matches no billing export format/,
    );
  });

  it('--group-by tag:team and month: the report and --summary carry the library totals', async () => {
    const summaryFile = tempPath('grouped.json');
    const { code, stderr } = await cli([
      'billing',
      fixture('focus-spec-aws.csv'),
      '--out',
      tempPath('grouped.csv'),
      '--group-by',
      'tag:team',
      '--group-by',
      'month',
      '--summary',
      summaryFile,
    ]);
    expect(code).toBe(0);
    const expected = estimateBilling(readFixture('focus-spec-aws.csv'), defaultDatasets, {
      groupBy: ['tag:team', 'month'],
    }).summary;
    const written = JSON.parse(readFileSync(summaryFile, 'utf8'));
    expect(written.groups).toEqual(expected.groups);
    expect(written.missing_columns).toEqual(expected.missing_columns);
    expect(stderr).toContain('by tag:team:');
    expect(stderr).toContain('no x_UsageType: AWS instance types');
    const bad = await cli(['billing', fixture('focus-spec-aws.csv'), '--group-by', 'colour']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("'colour' is not a group-by");
  });

  it('on worker threads (--jobs 2, 2,500 rows) the output equals one thread', async () => {
    const text = readFileSync(fixture('aws-cur.csv'), 'utf8').trim().split('\n');
    const body = text.slice(1);
    const big = tempFile(
      'big-cur.csv',
      [text[0], ...Array.from({ length: 2500 }, (_, i) => body[i % body.length])].join('\n') + '\n',
    );
    const one = tempPath('one.csv');
    const two = tempPath('two.csv');
    expect((await cli(['billing', big, '--out', one, '--jobs', '1'])).code).toBe(0);
    expect((await cli(['billing', big, '--out', two, '--jobs', '2'])).code).toBe(0);
    expect(readFileSync(two, 'utf8')).toBe(readFileSync(one, 'utf8'));
    expect(parseCsv(readFileSync(one, 'utf8'))).toHaveLength(2500);
  });

  it('Parquet out: the co2e columns typed (kg, kWh and activity as DOUBLE)', async () => {
    const out = tempPath('bill.parquet');
    expect((await cli(['billing', fixture('aws-cur.csv'), '--out', out])).code).toBe(0);
    const file = await asyncBufferFromFile(out);
    const rows = (await parquetReadObjects({ file, metadata: await parquetMetadataAsync(file) })) as Array<
      Record<string, unknown>
    >;
    const expected = estimateBilling(readFixture('aws-cur.csv'), defaultDatasets).rows;
    expect(rows.map((row) => row.co2e_kg)).toEqual(expected.map((row) => row.co2e_kg));
    expect(rows.map((row) => row.co2e_reason)).toEqual(expected.map((row) => row.co2e_reason));
    // and back in: a Parquet bill is read like any other
    const again = await cli(['billing', out, '--format', 'csv']);
    expect(again.code).toBe(0);
    expect(parseCsv(again.stdout).map((row) => row.co2e_kg)).toEqual(
      expected.map((row) => cell(row.co2e_kg)),
    );
  });
});

describe('--summary read back for the columns it needs', () => {
  // The summary reads the output's co2e columns and the columns the estimator reads, not the others: it must be the
  // library's summary of the whole rows, for every CSV format, tags in their own columns (CUR) or in JSON (FOCUS).
  const tagged = () => {
    const [header, ...lines] = readFileSync(fixture('aws-cur.csv'), 'utf8').trim().split('\n');
    const text = [
      `${header},resourceTags/user:team,notes`,
      ...lines.map((line, index) => `${line},${['web', 'data', ''][index % 3]},"free, text"`),
    ].join('\n');
    return tempFile('aws-cur-tagged.csv', `${text}\n`);
  };
  const files = [
    'aws-cur.csv',
    'aws-cur2.csv',
    'azure-export.csv',
    'focus-aws.csv',
    'focus-gcp.csv',
    'focus-spec-aws.csv',
    'gcp-export.csv',
  ];
  it.each([...files, 'tagged CUR'])('%s: the library summary of the whole rows', async (name) => {
    const input = name === 'tagged CUR' ? tagged() : fixture(name);
    const summaryFile = tempPath(`read-back-${name}.json`);
    const groupBy = ['tag:team', 'account', 'month'];
    const { code } = await cli([
      'billing',
      input,
      '--out',
      tempPath(`read-back-${name}.csv`),
      '--force',
      ...groupBy.flatMap((key) => ['--group-by', key]),
      '--summary',
      summaryFile,
    ]);
    expect(code).toBe(0);
    const rows = parseCsv(readFileSync(input, 'utf8')) as Array<Record<string, unknown>>;
    const expected = estimateBilling(rows, defaultDatasets, { groupBy }).summary;
    expect(JSON.parse(readFileSync(summaryFile, 'utf8'))).toEqual(expected);
  });
});
