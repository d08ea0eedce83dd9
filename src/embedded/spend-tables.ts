/**
 * The embedded spend tables, one binding each (internal: `co2e-engine/datasets/spend` exports them as
 * `spendTables`). Modules that compose datasets name these bindings rather than spreading or reading properties of
 * `spendTables`: a bundler keeps a spread or a property read even where the result is unused, and with it every
 * table the object holds.
 */
import { deepFreeze } from '../core/freeze';
import exiobaseClassificationsJson from '../../datasets/spend/exiobase-classifications.json';
import exiobaseFactorsJson from '../../datasets/spend/exiobase-factors.oefdb.json';
import exiobaseMarginsJson from '../../datasets/spend/exiobase-margins.json';
import fxJson from '../../datasets/spend/fx-imf.json';
import inflationJson from '../../datasets/spend/inflation-worldbank.json';
import type {
  ClassificationsTable,
  FxTable,
  InflationTable,
  MarginsTable,
  SpendFactorsTable,
} from '../datasets/tables';

// JSON imports widen literal types; the tables are validated against their schemas in tests/datasets.
export const exiobaseFactorsTable = /* @__PURE__ */ deepFreeze(exiobaseFactorsJson as SpendFactorsTable);
export const exiobaseClassificationsTable = /* @__PURE__ */ deepFreeze(
  exiobaseClassificationsJson as ClassificationsTable,
);
export const exiobaseMarginsTable = /* @__PURE__ */ deepFreeze<MarginsTable>(exiobaseMarginsJson);
export const inflationTable = /* @__PURE__ */ deepFreeze(inflationJson as InflationTable);
export const fxTable = /* @__PURE__ */ deepFreeze(fxJson as FxTable);

/**
 * The EXIOBASE spend tables by part, a new object at each call: a pure call, which a bundler drops where its result
 * is unused (a shared object would be kept, with every table it holds).
 *
 * @example
 * ```ts
 * lazyTableDatasets(exiobaseSpendTables(), spendSupplements);
 * ```
 */
export const exiobaseSpendTables = () => ({
  spendFactors: exiobaseFactorsTable,
  classifications: exiobaseClassificationsTable,
  margins: exiobaseMarginsTable,
  inflation: inflationTable,
  fx: fxTable,
});
