import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DatasetError, type DatasetInfo, type Datasets } from '../../src/index';
import { parseDatasetsFile, parseTableCsv, parseTableJson, type TableMeta } from '../../src/loaders/index';
import { loadTableFile } from '../../src/node/index';

const root = mkdtempSync(join(tmpdir(), 'co2e-hostile-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const dataset: DatasetInfo = {
  id: 'acme',
  version: '1',
  source: 'ACME',
  source_dataset: 'ACME grid',
  licence: 'internal',
  attribution: 'ACME',
};
const meta: TableMeta<'cloudRegions'> = { dataset, default_year: 2022, unit: 'kg/kWh', gwp: 'ar5' };
const HEADER = 'provider,region,location,grid_zone,year,grid_factor,grid_source';

function error(run: () => unknown): DatasetError {
  try {
    run();
  } catch (caught) {
    if (caught instanceof DatasetError) return caught;
    throw caught;
  }
  throw new Error('expected a DatasetError');
}

// Issue 23 item 9: a number that underflows a double was read as 0 without a word.
describe('a number below the double range is refused, not read as 0', () => {
  it('in a CSV cell, with its line and column', () => {
    const text = `${HEADER}\naws,us-east-1,US,US-MIDA-PJM,2022,0.4,x\naws,eu-west-1,IE,IE,2022,1e-400,x\n`;
    const problem = error(() => parseTableCsv('cloudRegions', text, { meta }));
    expect(problem.message).toBe(
      'cloudRegions.csv at line 3, column 6 (grid_factor): grid_factor: 1e-400 is too small to be read as a number (it would be 0); write 0 or a value of at least 5e-324',
    );
  });

  it('in a JSON table, with its line and column', () => {
    const text = JSON.stringify(
      {
        ...meta,
        regions: [
          {
            provider: 'aws',
            region: 'us-east-1',
            location: 'US',
            grid_zone: 'US',
            grid_factors: { '2022': 12345 },
            grid_sources: { '2022': 'x' },
          },
        ],
      },
      null,
      2,
    ).replace('12345', '-2.5E-401');
    const problem = error(() => parseTableJson('cloudRegions', text, { file: 'grid.json' }));
    expect(problem.message).toMatch(
      /^grid\.json at line 20, column 17: -2\.5E-401 is too small to be read as a number \(it would be 0\)/,
    );
  });

  it('zero spelled any way and the smallest doubles stay accepted', () => {
    for (const value of ['0', '0e-400', '0.000', '5e-324', '2.2250738585072014e-308']) {
      const text = `${HEADER}\naws,us-east-1,US,US,2022,${value},x\n`;
      expect(parseTableCsv('cloudRegions', text, { meta }).regions[0]?.grid_factors['2022']).toBe(
        Number(value),
      );
    }
  });
});

// Issue 23 item 9: bytes that are not UTF-8 were replaced by U+FFFD without a word.
describe('a table file that is not UTF-8 is refused, at its line', () => {
  const bad = Buffer.concat([
    Buffer.from(`${HEADER}\naws,us-east-1,US,US,2022,0.4,ok\naws,eu-west-1,IE,IE,2022,0.3,Caf`),
    Buffer.from([0xe9]), // Latin-1 é
    Buffer.from('\n'),
  ]);

  it('a CSV table', () => {
    const path = join(root, 'grid.csv');
    writeFileSync(path, bad);
    writeFileSync(join(root, 'grid.meta.json'), JSON.stringify(meta));
    expect(error(() => loadTableFile('cloudRegions', path)).message).toBe(
      `${path} at line 3, column 33: not UTF-8 text (byte 0xe9 at offset ${bad.length - 2}); save the file as UTF-8`,
    );
  });

  it('a JSON table and a meta file', () => {
    const json = join(root, 'bad.json');
    writeFileSync(
      json,
      Buffer.concat([Buffer.from('{"dataset": "\n'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
    );
    expect(error(() => loadTableFile('fx', json)).message).toMatch(
      /bad\.json at line 2, column 1: not UTF-8 text \(byte 0xff/,
    );
    const csv = join(root, 'fx.csv');
    writeFileSync(csv, 'currency,year,rate\neur,2019,0.9\n');
    writeFileSync(
      join(root, 'fx.meta.json'),
      Buffer.concat([Buffer.from('{"dataset": "'), Buffer.from([0xc3]), Buffer.from('"}')]),
    );
    expect(error(() => loadTableFile('fx', csv)).message).toMatch(
      /fx\.meta\.json at line 1, column 14: not UTF-8 text/,
    );
  });
});

// Issue 23 item 6: a `__proto__` or `constructor` key in a --datasets file crashed with a TypeError's stack trace.
describe('keys that name Object.prototype members in a dataset file', () => {
  const base: Datasets = {};
  const file = (layer: string) => `{"format": "co2e-engine-datasets/1", "layers": [${layer}]}`;
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('a layer part named %s', (part) => {
    const problem = error(() =>
      parseDatasetsFile(file(`{"${part}": {"dataset": {}}}`), base, { file: 'd.json' }),
    );
    expect(problem.message).toBe(
      `d.json at layers[0].${part}: unknown dataset part; valid parts: cloudCoefficients, cloudRegions, cloudInstances, spendFactors, classifications, margins, inflation, fx`,
    );
  });
  it('a __proto__ key inside a table is dropped by the schema, never merged into a prototype', () => {
    const fx = JSON.stringify({ dataset, rates: { eur: { '2019': 0.9 }, usd: { '2019': 1 } } }).replace(
      '"eur"',
      '"__proto__": {"2019": 1, "polluted": 1}, "eur"',
    );
    const datasets = parseDatasetsFile(file(`{"fx": ${fx}}`), base, { file: 'd.json' });
    expect(datasets.fx?.currencies).toEqual(['eur', 'usd']);
    expect(datasets.fx?.rate('eur', 2019)).toBe(0.9);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  it('a top-level __proto__ key changes nothing: the file is read as written', () => {
    const fx = JSON.stringify({ dataset, rates: { eur: { '2019': 0.9 }, usd: { '2019': 1 } } });
    const text = `{"__proto__": {"format": "x"}, "format": "co2e-engine-datasets/1", "layers": [{"fx": ${fx}}]}`;
    expect(parseDatasetsFile(text, base, { file: 'd.json' }).fx?.rate('eur', 2019)).toBe(0.9);
  });
});
