import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAYERS } from '../../eslint/layers.js';
import { importGraph } from './import-graph';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/** The unit of a path inside src/: its first folder, or the file itself at the root. */
const unitOf = (path: string) => path.split('/')[0]!;

describe('the layer table (eslint/layers.js)', () => {
  it('places every folder and root file of src/', () => {
    const units = readdirSync(join(repo, 'src')).filter((name) => !name.endsWith('.d.ts'));
    expect(units.filter((unit) => !(unit in LAYERS))).toEqual([]);
  });

  it('lets a unit import only units of its own layer or below', () => {
    const upward = Object.entries(LAYERS).flatMap(([unit, { layer, imports }]) =>
      imports.filter((allowed) => LAYERS[allowed]!.layer > layer).map((allowed) => `${unit} -> ${allowed}`),
    );
    expect(upward).toEqual([]);
  });

  it('holds for src/ as it is (every import between units is one the table allows)', () => {
    const outside = [...importGraph(join(repo, 'src'))].flatMap(([file, targets]) =>
      targets
        .filter((target) => unitOf(target) !== unitOf(file))
        .filter((target) => !LAYERS[unitOf(file)]!.imports.includes(unitOf(target)))
        .map((target) => `${file} -> ${target}`),
    );
    expect(outside).toEqual([]);
  });
});

// `npm run lint` runs ESLint with eslint.config.js; here the same config and binary run on a small tree of the
// same shape (a copy of the config and layer table, a tsconfig, two source files), so the repo is never touched.
describe('npm run lint and the layer rule', () => {
  let tree: string;
  const lint = async (probe: string) => {
    writeFileSync(join(tree, 'src/core/probe.ts'), probe);
    return run(join(repo, 'node_modules/.bin/eslint'), ['src/core/probe.ts'], { cwd: tree }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
  };

  beforeAll(() => {
    tree = mkdtempSync(join(tmpdir(), 'co2e-layers-'));
    cpSync(join(repo, 'eslint.config.js'), join(tree, 'eslint.config.js'));
    cpSync(join(repo, 'eslint'), join(tree, 'eslint'), { recursive: true });
    cpSync(join(repo, 'package.json'), join(tree, 'package.json'));
    symlinkSync(join(repo, 'node_modules'), join(tree, 'node_modules'));
    writeFileSync(
      join(tree, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, module: 'ESNext', moduleResolution: 'Bundler' },
        include: ['src'],
      }),
    );
    mkdirSync(join(tree, 'src/core'), { recursive: true });
    mkdirSync(join(tree, 'src/cloud'), { recursive: true });
    writeFileSync(join(tree, 'src/core/units.ts'), '/** One. */\nexport const one = 1;\n');
    writeFileSync(
      join(tree, 'src/cloud/cpu.ts'),
      "import { one } from '../core/units';\n\n/** Two. */\nexport const two = one + 1;\n",
    );
  });
  afterAll(() => rmSync(tree, { recursive: true, force: true }));

  it('fails on an import up the layers (core importing a calculator), naming the rule and the layer', async () => {
    const result = await lint(
      "import { two } from '../cloud/cpu';\n\n/** Three. */\nexport const three = two + 1;\n",
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('import-x/no-restricted-paths');
    expect(result.stdout).toContain("layer 1 'core' may import only nothing else in src/");
  }, 60_000);

  it('passes the same file importing down (within core)', async () => {
    const result = await lint(
      "import { one } from './units';\n\n/** Three. */\nexport const three = one + 2;\n",
    );
    expect(result).toEqual({ code: 0, stdout: '' });
  }, 60_000);
});
