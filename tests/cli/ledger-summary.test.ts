import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { monthOf } from '../../src/cli/pipeline/ledger-summary';
import { massText, roundedText } from '../../src/cli/pipeline/mass-text';
import { cli, tempFile, tempPath } from './harness';

/**
 * Issue 37 item 4: `--summary FILE` for `spend` and `cloud`, read back from the output. Hand-worked values as in
 * spend.test.ts and cloud.test.ts: ISIC 4711 in DE 2019 with margins 0.19/0.1/0.02 on 1000 EUR → 690 EUR ×
 * 0.0272 = 18.768 kg; ISIC 62, 500 EUR × 0.1333 = 66.65 kg.
 */

/** Runs `command` on `input` with `--out <out>` and `--summary` into a fresh file: the run, the file, and its JSON. */
async function runWithSummary(command: 'spend' | 'cloud', input: string, out = 'out.csv') {
  const summaryFile = tempPath('summary.json');
  const run = await cli([command, input, '--out', tempPath(out), '--summary', summaryFile]);
  return { run, summaryFile, summary: JSON.parse(readFileSync(summaryFile, 'utf8')) };
}

const SPEND_HEADER =
  'id,supplier,invoice_date,team,classification_type,classification_code,spend_year,spend_region,money,money_unit,tax_margin,trade_margin,transport_margin';

describe('spend --summary', () => {
  it('totals in kg and t, by classification (with names), country, year, currency, supplier, month, tag', async () => {
    const input = tempFile(
      'ledger.csv',
      [
        SPEND_HEADER,
        'a,Shop GmbH,2019-03-15,ops,isic4,4711,2019,DE,1000,eur,0.19,0.1,0.02',
        'b,Code Ltd,2019-04-02,dev,isic4,62,2019,DE,500,eur,0,0,0',
        'c,Code Ltd,2019-04-09,dev,isic4,9999,2019,DE,200,eur,,,',
        'd,Code Ltd,2019-04-10,dev,isic4,62,2019,DE,abc,eur,,,',
      ].join('\n'),
    );
    const { run, summaryFile, summary } = await runWithSummary('spend', input);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`co2e-engine spend: summary in ${summaryFile}`);
    const retail =
      'Retail trade (except of motor vehicles and motorcycles) and repair of personal and household goods (services)';
    expect(summary).toMatchObject({
      command: 'spend',
      rows: 4,
      estimated_rows: 2,
      not_estimated_rows: 2,
      // 18.768 + 66.65
      total_kg: 85.418,
      total_t: 0.085418,
      columns: { supplier: 'supplier', date: 'invoice_date', tag: 'team' },
      by_classification: {
        'isic4 4711': { name: retail, kg: 18.768, rows: 1 },
        'isic4 62': { name: 'Computer and related services', kg: 66.65, rows: 1 },
      },
      by_country: { DE: { kg: 85.418, rows: 2 } },
      by_year: { '2019': { kg: 85.418, rows: 2 } },
      // 1000 + 500 + 200 readable EUR (abc is not), 1500 of them estimated: 15/17.
      by_currency: {
        EUR: { kg: 85.418, rows: 4, money: 1700, money_estimated: 1500, share_estimated: 15 / 17 },
      },
      by_supplier: { 'Shop GmbH': { kg: 18.768, rows: 1 }, 'Code Ltd': { kg: 66.65, rows: 1 } },
      by_month: { '2019-03': { kg: 18.768, rows: 1 }, '2019-04': { kg: 66.65, rows: 1 } },
      by_tag: { ops: { kg: 18.768, rows: 1 }, dev: { kg: 66.65, rows: 1 } },
      by_error_code: {
        unknown_classification_code: { rows: 1, example: expect.stringMatching(/^row 3: '9999' is not/) },
        invalid_request: { rows: 1, example: "row 4: 'money' must be a number, got 'abc'." },
      },
    });
    expect(
      summary.factors.map((factor: { kg: number; source: string }) => [factor.kg, factor.source]),
    ).toEqual([
      [66.65, 'EXIOBASE'],
      [18.768, 'EXIOBASE'],
    ]);
    // The datasets the spend calculator reads, described by their own tables (licence, attribution).
    const spendFactors = summary.sources.find((source: { source: string }) => source.source === 'EXIOBASE');
    expect(spendFactors).toMatchObject({ licence: 'CC-BY-SA-4.0' });
    expect(spendFactors.attribution).toContain('EXIOBASE 3');
  });

  it('the same summary from a JSON Lines and a gzipped CSV output', async () => {
    const input = tempFile(
      'two.csv',
      `${SPEND_HEADER}\na,S,2019-03-15,ops,isic4,4711,2019,DE,1000,eur,0.19,0.1,0.02\nb,S,2019-03-16,ops,isic4,62,2019,DE,500,eur,0,0,0\n`,
    );
    const summaries = [];
    for (const out of ['out.jsonl', 'out.csv.gz']) {
      const { run, summary } = await runWithSummary('spend', input, out);
      expect(run.code).toBe(0);
      summaries.push(summary);
    }
    expect(summaries[0]).toEqual(summaries[1]);
    expect(summaries[0].total_kg).toBe(85.418);
  });

  it('reads the amounts of an Excel-saved (`;`, decimal comma) ledger as the run did', async () => {
    // As Excel writes it in Germany: BOM, `;`, CRLF, decimal commas. 1000,50 EUR at margins 0.19/0.1/0.02:
    // 1000.5 × 0.69 × 0.0272 = 18.777384 kg; 500,25 EUR of ISIC 62 at margins 0: 500.25 × 0.1333 = 66.683325 kg.
    const lines = [
      SPEND_HEADER.replaceAll(',', ';'),
      'a;S;2019-03-15;ops;isic4;4711;2019;DE;1000,50;eur;0,19;0,1;0,02',
      'b;S;2019-03-16;ops;isic4;62;2019;DE;500,25;eur;0;0;0',
    ];
    const input = tempFile('excel.csv', `\uFEFF${lines.join('\r\n')}\r\n`);
    const { run, summary } = await runWithSummary('spend', input);
    expect(run.code).toBe(0);
    expect(summary.total_kg).toBe(85.460709);
    expect(summary.by_currency.EUR).toMatchObject({
      money: 1500.75,
      money_estimated: 1500.75,
      share_estimated: 1,
    });
  });
});

describe('cloud --summary', () => {
  it('totals, kWh, by provider, calculator, region, service and tag; error codes with an example', async () => {
    const input = tempFile(
      'usage.csv',
      [
        'resource,team,calculator,provider,region,instance,cpu_count,data,data_unit,duration,duration_unit',
        // 2 CPU-hour → 0.0020885816 kg (0.0048124 kWh at 0.434 kg/kWh)
        'web,web,cpu,aws,us_east_1,,4,,,30,min',
        // t2.micro 1 h: 0.0021301093915472068539… kg; CPU 0.0024062 + memory 0.00047772921233408 kWh
        'vm,web,instance,aws,us_east_1,t2.micro,,,,1,h',
        // 100 GB → 0.049259 kg (0.1135 kWh)
        'egress,data,networking,AWS,us-east-1,,,100,GB,,',
        'gpu,data,gpu,aws,us_east_1,,,,,1,h',
      ].join('\n'),
    );
    const { run, summary } = await runWithSummary('cloud', input);
    expect(run.code).toBe(1);
    expect(summary).toMatchObject({
      command: 'cloud',
      rows: 4,
      estimated_rows: 3,
      not_estimated_rows: 1,
      total_kg: Number('0.053477690991547207'),
      total_t: Number('0.000053477690991547207'),
      // 0.0048124 + 0.00288392921233408 + 0.1135
      total_kwh: Number('0.12119632921233408'),
      columns: { service: 'resource', tag: 'team' },
      by_provider: { aws: { kg: Number('0.053477690991547207'), rows: 3 } },
      by_calculator: {
        cpu: { kg: 0.0020885816, rows: 1 },
        instance: { kg: Number('0.0021301093915472068539'), rows: 1 },
        networking: { kg: 0.049259, rows: 1 },
      },
      // us_east_1 and us-east-1 are one region, under AWS's own id
      by_region: { 'us-east-1': { kg: Number('0.053477690991547207'), rows: 3 } },
      by_tag: { web: { kg: Number('0.0042186909915472068539'), rows: 2 }, data: { kg: 0.049259, rows: 1 } },
      by_error_code: { invalid_request: { rows: 1, example: expect.stringMatching(/^row 4: 'gpu' is not/) } },
    });
    expect(summary.sources.map((source: { source: string }) => source.source)).toEqual(
      expect.arrayContaining(['CCF', 'Electricity Maps']),
    );
  });

  it("one region entry whatever the spelling, under the provider's own region id", async () => {
    const input = tempFile(
      'spellings.csv',
      [
        'calculator,provider,region,cpu_count,average_vcpu_utilization,duration,duration_unit',
        'cpu,aws,us-east-1,4,0.5,1,hour',
        'cpu,aws,US-EAST-1,4,0.5,1,hour',
        'cpu,azure,West Europe,4,0.5,1,hour',
        'cpu,azure,westeurope,4,0.5,1,hour',
        'cpu,gcp,europe_west1,4,0.5,1,hour',
      ].join('\n'),
    );
    const { run, summary } = await runWithSummary('cloud', input);
    expect(run.code).toBe(0);
    expect(Object.keys(summary.by_region)).toEqual(['europe-west1', 'us-east-1', 'westeurope']);
    // Each provider here has one region, so a region's entry is its provider's.
    expect(summary.by_region['us-east-1']).toEqual(summary.by_provider.aws);
    expect(summary.by_region.westeurope).toEqual(summary.by_provider.azure);
    expect(summary.by_region.westeurope.rows).toBe(2);
  });
});

describe('the end report: sensible digits', () => {
  it('masses to four significant digits, grouped, in t from 1,000 kg', () => {
    expect(massText('13109927.4666890335481455')).toBe('13,110 t');
    expect(massText('999.95')).toBe('1,000 kg');
    expect(massText('85.418')).toBe('85.42 kg');
    expect(massText('85.418', true)).toBe('0.08542 t');
    expect(massText('0')).toBe('0 kg');
    expect(roundedText('-1234.5')).toBe('-1,235');
  });

  it('property: the rounded text is within half a unit of the fourth significant digit', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-6, max: 1e12, noNaN: true }), (value) => {
        const shown = Number(roundedText(value).replaceAll(',', ''));
        const unit = 10 ** (Math.floor(Math.log10(value)) - 3);
        return Math.abs(shown - value) <= unit / 2 + value * 1e-12;
      }),
    );
  });

  it('months from the usual date forms', () => {
    expect(monthOf('2024-03-15')).toBe('2024-03');
    expect(monthOf('2024/3/01')).toBe('2024-03');
    expect(monthOf('15.03.2024')).toBe('2024-03');
    expect(monthOf('2024-03-15T10:00:00Z')).toBe('2024-03');
    expect(monthOf('March')).toBeUndefined();
  });
});
