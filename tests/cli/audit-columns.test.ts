import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { cli, parseCsv, parseJsonl, tempPath } from './harness';

/**
 * What an auditor needs to check a row by hand, in every output format: the factor's region and year; for spend the
 * exchange rate and its year, each margin and its source, and the inflation applied; for cloud rows the kWh.
 * Values worked out by hand from the tables (see tests/http/routes.test.ts and tests/spend/golden.test.ts).
 */

const SPEND = [
  'id,classification_type,classification_code,spend_year,spend_region,money,money_unit,tax_margin,trade_margin,transport_margin',
  // 1000 EUR, 2019 (the factor year), margins supplied: 1000 × 0.69 = 690 EUR × 0.0272 = 18.768 kg, no conversion
  '1,isic4,4711,2019,DE,1000,eur,0.19,0.1,0.02',
  // margins not supplied: the margins table is empty, so each is 0 with source none
  '2,isic4,4711,2019,DE,1000,eur,,,',
].join('\n');

const CLOUD = [
  'calculator,provider,region,cpu_count,duration,instance,instance_count',
  // 1 vCPU-hour at 50 %: (0.74 + 0.5 × 2.76) W = 2.12 W → 0.00212 kWh × PUE 1.135 = 0.0024062 kWh
  'cpu,aws,us_east_1,1,1,,',
  // t2.micro 1 h: CPU 0.0024062 + memory 1.073741824 GB × 0.000392 × 1.135 = 0.00047772921233408 kWh
  'instance,aws,us_east_1,,1,t2.micro,',
  // embodied: no electricity
  'embodied,aws,,,24,m5.large,3',
].join('\n');

async function readParquet(path: string) {
  const file = await asyncBufferFromFile(path);
  return (await parquetReadObjects({ file, metadata: await parquetMetadataAsync(file) })) as Array<
    Record<string, unknown>
  >;
}

describe('spend rows carry the factor and the money steps', () => {
  it.each(['csv', 'jsonl', 'parquet'] as const)('%s', async (format) => {
    const out = tempPath(`audit-spend.${format}`);
    const run = await cli(['spend', '-', '--out', out, '--jobs', '1'], { stdin: `${SPEND}\n` });
    expect(run.code).toBe(0);
    const { readFileSync } = await import('node:fs');
    const rows =
      format === 'csv'
        ? parseCsv(readFileSync(out, 'utf8'))
        : format === 'jsonl'
          ? parseJsonl(readFileSync(out, 'utf8'))
          : await readParquet(out);
    const value = (row: Record<string, unknown> | undefined, column: string) => {
      const cell = row?.[column];
      return format === 'csv' && typeof cell === 'string' && cell !== '' && !Number.isNaN(Number(cell))
        ? Number(cell)
        : cell === ''
          ? null
          : cell;
    };
    const [supplied, defaults] = rows;
    expect(value(supplied, 'co2e')).toBe(18.768);
    expect(value(supplied, 'factor_region')).toBe('DE');
    expect(value(supplied, 'factor_year')).toBe(2019);
    expect(value(supplied, 'exchange_rate')).toBe(1);
    expect(value(supplied, 'exchange_rate_year')).toBe(null);
    expect(value(supplied, 'tax_margin_applied')).toBe(0.19);
    expect(value(supplied, 'tax_margin_source')).toBe('supplied');
    expect(value(supplied, 'trade_margin_applied')).toBe(0.1);
    expect(value(supplied, 'transport_margin_applied')).toBe(0.02);
    expect(value(supplied, 'transport_margin_source')).toBe('supplied');
    expect(value(supplied, 'inflation_applied')).toBe(0);
    expect(value(supplied, 'energy_kwh')).toBe(null);
    expect(value(defaults, 'tax_margin_applied')).toBe(0);
    expect(value(defaults, 'tax_margin_source')).toBe('none');
    expect(value(defaults, 'co2e')).toBe(27.2); // 1000 × 0.0272
  });

  // Federal Reserve H.10 comes first since issue 18 item 1: its 2019 annual average is 1.1194 USD per EUR, which
  // datasets/exchange-rates publishes as 0.8933 EUR per USD (IMF's 0.8932762570674088 is now only a fallback).
  it('a conversion shows its rate and year: 1000 USD of 2019 at H.10 0.8933 EUR per USD', async () => {
    const run = await cli(['spend', '-', '--format', 'jsonl', '--jobs', '1'], {
      stdin: `${SPEND.split('\n')[0]}\n3,isic4,4711,2019,DE,1000,usd,0,0,0\n`,
    });
    const [row] = parseJsonl(run.stdout);
    expect(row?.exchange_rate).toBe(0.8933);
    expect(row?.exchange_rate_year).toBe(2019);
  });
});

describe('cloud rows carry the factor and the kWh', () => {
  it('cpu, instance and embodied rows', async () => {
    const run = await cli(['cloud', '-', '--format', 'jsonl', '--jobs', '1'], { stdin: `${CLOUD}\n` });
    expect(run.code).toBe(0);
    const [cpu, instance, embodied] = parseJsonl(run.stdout);
    expect(cpu?.energy_kwh).toBe(0.0024062);
    expect(cpu?.factor_region).toBe('US');
    expect(cpu?.factor_year).toBe(2022);
    expect(instance?.energy_kwh).toBe(0.00288392921233408);
    expect(embodied?.energy_kwh).toBe(null);
    expect(embodied?.factor_year).toBe(2021);
    expect(embodied?.factor_region).toBe('GLOBAL');
  });
});
