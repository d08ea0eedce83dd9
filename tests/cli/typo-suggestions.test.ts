import { describe, expect, it } from 'vitest';
import { cli } from './harness';

/** A typo on the command line gets the closest spelling, as a typo in a request does. */
describe('CLI typos get a suggestion', () => {
  it.each([
    [['list', 'coverag'], "cannot list 'coverag'. Did you mean: coverage?"],
    [['list', 'regions', 'awz'], "no regions for 'awz'. Did you mean: aws?"],
    [['list', 'codes', 'isic'], "no codes for 'isic'. Did you mean: isic4?"],
    [['list', 'currencies', 'zzz'], "no currencies for 'zzz'"],
    [['list', 'currencies', 'eru'], "no currencies for 'eru'. Did you mean: eur"],
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

describe('list currencies filters by code, as the other subjects filter by provider, type or region', () => {
  it.each([
    ['eur', 'eur'],
    ['CHF', 'chf'], // any case, as in a spend request's money_unit
  ])('list currencies %s lists %s', async (filter, currency) => {
    const { code, stdout } = await cli(['list', 'currencies', filter, '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([{ currency }]);
  });
});
