import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The v1 routes name a region (`region_name`) with Intl.DisplayNames, whose first instance loads ICU's region names:
 * about 20 ms. The CLI bundles the HTTP server, so every command would pay it at start-up if it were made when the
 * module loads; it is made on the first region named.
 */
const OriginalDisplayNames = Intl.DisplayNames;

/** Puts `Replacement` in Intl.DisplayNames' place until the test ends. */
const replaceDisplayNames = (Replacement: typeof Intl.DisplayNames) => {
  Object.defineProperty(Intl, 'DisplayNames', { value: Replacement, configurable: true, writable: true });
};

describe('regionName', () => {
  // Each test imports the module afresh, also after another test file of the same worker loaded it, and leaves
  // no copy made under a replaced Intl.DisplayNames to the files after it.
  beforeEach(() => vi.resetModules());
  afterEach(() => {
    replaceDisplayNames(OriginalDisplayNames);
    vi.resetModules();
  });

  it('makes no Intl.DisplayNames until a region is named, then one for all', async () => {
    let made = 0;
    replaceDisplayNames(
      class extends OriginalDisplayNames {
        constructor(...args: ConstructorParameters<typeof Intl.DisplayNames>) {
          super(...args);
          made += 1;
        }
      },
    );
    const { regionName } = await import('../../src/http/v1/cloud');
    expect(made).toBe(0);
    expect(regionName('DE')).toBe('Germany');
    expect(regionName('HK-HKG')).toBe('Hong Kong SAR China'); // its country part
    expect(regionName('GLOBAL')).toBe('GLOBAL');
    expect(regionName('ZA')).toBe('South Africa');
    expect(made).toBe(1);
  });

  it('answers with the code where the runtime has no Intl.DisplayNames', async () => {
    replaceDisplayNames(
      class {
        constructor() {
          throw new TypeError('Intl.DisplayNames is not a constructor');
        }
      } as unknown as typeof Intl.DisplayNames,
    );
    const { regionName } = await import('../../src/http/v1/cloud');
    expect(regionName('DE')).toBe('DE');
    expect(regionName('ZA')).toBe('ZA');
  });
});
