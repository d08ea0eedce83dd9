import { describe, expect, it } from 'vitest';
import { cli } from './harness';

/** A typo on the command line gets the closest spelling, as a typo in a request does. */
describe('CLI typos get a suggestion', () => {
  it.each([
    [['list', 'coverag'], "cannot list 'coverag'. Did you mean: coverage?"],
    [['list', 'regions', 'awz'], "no regions for 'awz'. Did you mean: aws?"],
    [['list', 'codes', 'isic'], "no codes for 'isic'. Did you mean: isic4?"],
    [
      ['spend', 'examples/ledger.csv', '--datasets', 'hosted-api-2012'],
      'not a preset (presets: default, hosted-api-2021, ccf-grid, ccf-app, electricitymaps-grid, useeio, ceda). Did you mean: hosted-api-2021?',
    ],
  ])('%j', async (args, words) => {
    const { code, stderr } = await cli(args);
    expect(code).toBe(2);
    expect(stderr).toContain(words);
  });

  it('no suggestion when nothing is close; the valid names are still listed', async () => {
    const { code, stderr } = await cli(['list', 'planets']);
    expect(code).toBe(2);
    expect(stderr).not.toContain('Did you mean');
    expect(stderr).toContain('regions, instances, currencies, codes, coverage');
  });
});

describe('list coverage takes the region aliases the spend calculator takes', () => {
  it.each([
    ['UK', 'GB'],
    ['el', 'GR'],
  ])('list coverage %s lists %s', async (alias, region) => {
    const { code, stdout } = await cli(['list', 'coverage', alias, '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).map((row: { region: string }) => row.region)).toEqual([region]);
  });
});
