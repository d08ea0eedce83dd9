// The layer table of docs/architecture.md, as the lint rule reads it: each unit of src/ (a folder, or a file at the
// root of src/) and the units it may import. Imports run only down; a unit not listed here fails the layer test, so
// a new folder has to be placed in the table before it lands.

/** @type {Readonly<Record<string, { layer: number, imports: readonly string[] }>>} */
export const LAYERS = {
  core: { layer: 1, imports: [] },
  datasets: { layer: 2, imports: ['core'] },
  loaders: { layer: 2, imports: ['core', 'datasets'] },
  node: { layer: 2, imports: ['core', 'datasets', 'loaders'] },
  cloud: { layer: 3, imports: ['core', 'datasets'] },
  spend: { layer: 3, imports: ['core', 'datasets'] },
  'calculators.ts': { layer: 4, imports: ['core', 'datasets', 'cloud', 'spend'] },
  'capabilities.ts': { layer: 4, imports: ['core', 'datasets', 'cloud', 'spend'] },
  'calculator-datasets.ts': { layer: 4, imports: ['core', 'datasets', 'cloud', 'spend', 'calculators.ts'] },
  'engine.ts': { layer: 4, imports: ['core', 'datasets', 'cloud', 'spend', 'calculators.ts'] },
  'index.ts': {
    layer: 4,
    imports: [
      'core',
      'datasets',
      'cloud',
      'spend',
      'calculators.ts',
      'capabilities.ts',
      'calculator-datasets.ts',
      'engine.ts',
    ],
  },
  billing: {
    layer: 4,
    imports: ['core', 'datasets', 'cloud', 'spend', 'calculators.ts', 'calculator-datasets.ts'],
  },
  http: {
    layer: 5,
    imports: [
      'core',
      'datasets',
      'cloud',
      'spend',
      'calculators.ts',
      'capabilities.ts',
      'calculator-datasets.ts',
      'engine.ts',
    ],
  },
  udf: {
    layer: 5,
    imports: ['core', 'datasets', 'cloud', 'spend', 'calculators.ts', 'calculator-datasets.ts', 'engine.ts'],
  },
  'impact-framework': {
    layer: 5,
    imports: [
      'core',
      'datasets',
      'node',
      'cloud',
      'spend',
      'calculators.ts',
      'calculator-datasets.ts',
      'engine.ts',
    ],
  },
  cli: {
    layer: 5,
    imports: [
      'core',
      'datasets',
      'loaders',
      'node',
      'cloud',
      'spend',
      'calculators.ts',
      'capabilities.ts',
      'calculator-datasets.ts',
      'engine.ts',
      'billing',
      'http',
    ],
  },
};
