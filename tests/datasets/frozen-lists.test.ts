import { describe, expect, it } from 'vitest';
import { defaultDatasets, defaultTables } from '../../src/embedded/index';
import { CLOUD_PROVIDERS } from '../../src/datasets/constants';
import {
  calculateCpu,
  createTableDatasets,
  type Datasets,
  EmissionsError,
  mergeDatasets,
} from '../../src/index';

/**
 * The lists a provider hands out (`list`, `productsIn`, `years`, …) are the provider's own, kept and handed to every
 * caller: the calculators' "did you mean" and `valid_values` read them. A caller that sorted, reversed or emptied
 * one changed every later error for everyone.
 */

const asDatasets = (value: unknown) => value as Datasets;

/** Every array a provider's methods return, called with each argument its own lists name, and with unknown ones. */
function listsHandedOut(datasets: Datasets): Array<[string, unknown]> {
  const found: Array<[string, unknown]> = [];
  const call = (name: string, result: unknown) => {
    if (result !== undefined) found.push([name, result]);
  };
  const { cloudRegions, cloudInstances, spendFactors, classifications, fx } = datasets;
  for (const provider of [...CLOUD_PROVIDERS, 'ibm' as (typeof CLOUD_PROVIDERS)[number]]) {
    call(`cloudRegions.list(${provider})`, cloudRegions?.list(provider));
    call(`cloudRegions.unsupported(${provider})`, cloudRegions?.unsupported?.(provider));
    call(`cloudInstances.list(${provider})`, cloudInstances?.list(provider));
    call(`cloudInstances.excluded(${provider})`, cloudInstances?.excluded?.(provider));
  }
  call('cloudInstances.years', cloudInstances?.years);
  for (const region of [...(spendFactors?.regions ?? []), 'XX']) {
    call(`spendFactors.productsIn(${region})`, spendFactors?.productsIn?.(region));
  }
  call('spendFactors.regions', spendFactors?.regions);
  for (const type of [...(classifications?.types ?? []), 'nope']) {
    const codes = classifications?.codes?.(type) ?? [];
    call(`classifications.codes(${type})`, codes);
    for (const code of [...codes.slice(0, 50), '0000000'])
      call(`classifications.products(${type}, ${code})`, classifications?.products(type, code));
  }
  call('classifications.types', classifications?.types);
  for (const currency of [...(fx?.currencies ?? []), 'xxx'])
    call(`fx.years(${currency})`, fx?.years(currency));
  call('fx.currencies', fx?.currencies);
  return found;
}

function unfrozen(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  return !Object.isFrozen(value) || Object.values(value).some(unfrozen);
}

describe('every list a dataset provider hands out is frozen', () => {
  const partial = createTableDatasets({
    cloudRegions: defaultTables.cloudRegions,
    cloudInstances: defaultTables.cloudInstances,
    spendFactors: defaultTables.spendFactors,
    classifications: defaultTables.classifications,
    fx: defaultTables.fx,
  });
  it.each([
    ['defaultDatasets', () => asDatasets(defaultDatasets)],
    ['createTableDatasets', () => asDatasets(partial)],
    ['mergeDatasets', () => mergeDatasets(asDatasets(defaultDatasets), asDatasets(partial))],
  ])('%s', (_, datasets) => {
    const lists = listsHandedOut(datasets());
    // Each kind of list is reached, so a frozen-looking pass cannot come from calling nothing.
    for (const kind of ['list', 'unsupported', 'excluded', 'productsIn', 'codes', 'products', 'years'])
      expect(lists.some(([name]) => name.includes(`.${kind}(`))).toBe(true);
    expect(lists.filter(([, list]) => unfrozen(list)).map(([name]) => name)).toEqual([]);
  });

  it('a caller cannot empty the region list the next caller’s "did you mean" reads', () => {
    const misspelt = () => {
      try {
        calculateCpu('aws', { cpu_count: 1, region: 'us_eats_1', duration: 1 }, defaultDatasets);
      } catch (error) {
        return error as EmissionsError;
      }
      throw new Error('us_eats_1 was answered');
    };
    const before = misspelt();
    expect(before.message).toContain('Did you mean: us_east_1?');
    const regions = defaultDatasets.cloudRegions.list('aws') as string[];
    expect(() => regions.reverse()).toThrow(TypeError);
    expect(() => {
      regions.length = 0;
    }).toThrow(TypeError);
    expect(misspelt().message).toBe(before.message);
    expect(misspelt().valid_values).toEqual(before.valid_values);
  });
});
