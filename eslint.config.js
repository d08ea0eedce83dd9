// @ts-check
// The house rules (CONTRIBUTING.md): typescript-eslint's strict set, the type-aware rules that catch real bugs
// (promises, `any` leaking, needless assertions), TSDoc on every exported function, and the layer table of
// docs/architecture.md (eslint/layers.js) as an import rule. `npm run lint` runs it; CI runs `npm run lint`.
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import jsdoc from 'eslint-plugin-jsdoc';
import tsdoc from 'eslint-plugin-tsdoc';
import tseslint from 'typescript-eslint';
import { LAYERS } from './eslint/layers.js';

/** One zone per unit of src/: all of src/ is off limits but the unit itself and what the table lets it import. */
const layerZones = Object.entries(LAYERS).map(([unit, { layer, imports }]) => ({
  target: `./src/${unit}`,
  from: './src',
  except: [`./${unit}`, ...imports.map((allowed) => `./${allowed}`)],
  message: `layer ${layer} '${unit}' may import only ${imports.join(', ') || 'nothing else in src/'} (docs/architecture.md)`,
}));

/** Decimal arithmetic goes through src/core/decimal.ts, so the library can be swapped there alone. */
const BIG_JS_ONLY_IN_THE_SEAM = {
  paths: [{ name: 'big.js', message: 'use the decimal seam, src/core/decimal.ts (docs/architecture.md)' }],
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '**/*.generated.ts'] },
  {
    files: ['src/**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.strict],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { 'import-x': importX, jsdoc, tsdoc },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/no-unsafe-argument': 'error',
      '@typescript-eslint/no-unsafe-assignment': 'error',
      '@typescript-eslint/no-unsafe-call': 'error',
      '@typescript-eslint/no-unsafe-member-access': 'error',
      '@typescript-eslint/no-unsafe-return': 'error',
      // Off: cells read from files are `unknown`, narrowed to `{}` past a null check, and String() of one is the point;
      // the rule flags every such read (15 when tried, none a bug).
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      'jsdoc/require-jsdoc': [
        'error',
        { publicOnly: true, require: { FunctionDeclaration: true, ClassDeclaration: true } },
      ],
      'tsdoc/syntax': 'error',
      // With noUncheckedIndexedAccess, `!` is how hot loops state an index known to be in range; a check there
      // would be a branch per element that can never fire.
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-restricted-imports': ['error', BIG_JS_ONLY_IN_THE_SEAM],
    },
  },
  // The seam itself is the one file that may import big.js.
  { files: ['src/core/decimal.ts'], rules: { 'no-restricted-imports': 'off' } },
);
