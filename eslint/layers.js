// The layer table of docs/architecture.md, as the lint rule reads it: each unit of src/ (a folder, or a file at the
// root of src/) and the units it may import. Imports run only down; a unit not listed here fails the layer test, so
// a new folder has to be placed in the table before it lands.

/** What the calculators and everything above them may import: the maths, the dataset contract, the calculators. */
const CALCULATION = ['core', 'datasets', 'cloud', 'spend'];
/** The root-entry units above the calculators (layer 4). */
const ENTRY = ['calculators.ts', 'capabilities.ts', 'calculator-datasets.ts', 'engine.ts'];

/** @type {Readonly<Record<string, { layer: number, imports: readonly string[] }>>} */
export const LAYERS = {
  core: { layer: 1, imports: [] },
  datasets: { layer: 2, imports: ['core'] },
  loaders: { layer: 2, imports: ['core', 'datasets'] },
  cloud: { layer: 3, imports: ['core', 'datasets'] },
  spend: { layer: 3, imports: ['core', 'datasets'] },
  // The embedded tables and their entry points, which also export the code describing the spend tables' regions.
  embedded: { layer: 3, imports: ['core', 'datasets', 'spend'] },
  node: { layer: 3, imports: ['core', 'datasets', 'loaders', 'embedded'] },
  'calculators.ts': { layer: 4, imports: CALCULATION },
  'capabilities.ts': { layer: 4, imports: CALCULATION },
  'calculator-datasets.ts': { layer: 4, imports: [...CALCULATION, 'calculators.ts'] },
  'engine.ts': { layer: 4, imports: [...CALCULATION, 'calculators.ts'] },
  'index.ts': { layer: 4, imports: [...CALCULATION, ...ENTRY] },
  'schemas.ts': { layer: 4, imports: [...CALCULATION, 'capabilities.ts'] },
  billing: { layer: 4, imports: [...CALCULATION, 'calculators.ts', 'calculator-datasets.ts'] },
  http: { layer: 5, imports: [...CALCULATION, ...ENTRY] },
  udf: {
    layer: 5,
    imports: [...CALCULATION, 'embedded', 'calculators.ts', 'calculator-datasets.ts', 'engine.ts'],
  },
  'impact-framework': { layer: 5, imports: [...CALCULATION, 'node', ...ENTRY] },
  cli: { layer: 5, imports: [...CALCULATION, 'embedded', 'loaders', 'node', ...ENTRY, 'billing', 'http'] },
};
