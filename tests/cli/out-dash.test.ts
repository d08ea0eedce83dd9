import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cli, tempFile } from './harness';

// Issue 23 item 9: `--out -` created a file named `-`.
describe('--out - means stdout', () => {
  it('writes the rows to stdout and creates no file named -', async () => {
    const input = tempFile(
      'dash.csv',
      'id,classification_type,classification_code,spend_year,spend_region,money,money_unit\n1,isic4,4711,2019,DE,10,eur\n',
    );
    const run = await cli(['spend', input, '--out', '-', '--jobs', '1']);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[1]).toMatch(/^1,isic4,4711,2019,DE,10,eur,0\.272,/);
    expect(existsSync('-')).toBe(false);
    expect((await cli(['spend', input, '--out', '-', '--resume'])).stderr).toContain('--resume needs --out');
  });
});
