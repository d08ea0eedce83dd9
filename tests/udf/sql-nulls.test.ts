import { describe, expect, it } from 'vitest';
import { EmissionsError } from '../../src/core/errors';
import { defaultDatasets } from '../../src/embedded/index';
import { calculateSpend } from '../../src/index';
import { spendUdf } from '../../src/udf/spend-udf';
import { withoutNulls } from '../../src/udf/sql-nulls';

// A warehouse row's request object may carry any key its JSON or struct had, `__proto__` included: its copy
// without SQL NULLs must keep that key as a key, never make it the copy's prototype, whose fields the calculator
// would then read as the request's own (the UDF answered 0.136 kg where the library said 'money' is required).
const HOSTILE = JSON.parse(
  '{"__proto__": {"money": 5}, "activity": {"classification_type": "isic4", "classification_code": "4711", "__proto__": {"x": 1}}, "spend_year": 2019, "spend_region": "DE", "money_unit": "eur", "tax_margin": null}',
) as Record<string, unknown>;

describe('withoutNulls', () => {
  it('drops null fields, at the top and one level down', () => {
    expect(withoutNulls({ money: 10, tax_margin: null, activity: { a: 1, b: null } })).toEqual({
      money: 10,
      activity: { a: 1 },
    });
  });

  it('keeps a `__proto__` key as an own key, at both levels, and the copy an ordinary object', () => {
    const copy = withoutNulls(HOSTILE) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect('money' in copy).toBe(false);
    const activity = copy.activity as Record<string, unknown>;
    expect(Object.getPrototypeOf(activity)).toBe(Object.prototype);
    expect(Object.hasOwn(activity, '__proto__')).toBe(true);
    expect('x' in activity).toBe(false);
  });

  it('so the UDF answers a `__proto__` key as the library does', () => {
    let thrown: unknown;
    try {
      calculateSpend(HOSTILE as never, defaultDatasets);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(EmissionsError);
    expect(spendUdf(defaultDatasets)(HOSTILE)).toEqual((thrown as EmissionsError).toJSON());
  });
});
