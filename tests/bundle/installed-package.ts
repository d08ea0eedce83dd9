import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * The package as an app gets it: `npm pack` of the built package, installed with its dependencies into a scratch
 * project, as `npm install co2e-engine` would. Packed and installed once per build: the project is kept in the
 * temporary directory under a hash of the packed inputs (package.json, dist/, openapi.json), so later runs and other
 * test files reuse it (a second or two instead of the pack and install). Each build made one of 63 MB and none was
 * removed (24 of them, 1.5 GB, in two days of CI runs): each use now removes those of other builds not used for an
 * hour ({@link removeStaleProjects}).
 */

const PROJECT_PREFIX = 'co2e-engine-installed-';
/** A project (or a half-installed one) not used for this long belongs to no running suite: the suite takes minutes. */
export const STALE_PROJECT_MS = 60 * 60 * 1000;

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

function hashTree(hash: ReturnType<typeof createHash>, path: string): void {
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path).sort()) hashTree(hash, join(path, name));
  } else {
    hash.update(path.slice(ROOT.length)).update(readFileSync(path));
  }
}

/** A hash of what `npm pack` puts in the tarball that a build changes. */
function buildHash(): string {
  const hash = createHash('sha256');
  for (const path of ['package.json', 'openapi.json', 'dist'])
    if (existsSync(join(ROOT, path))) hashTree(hash, join(ROOT, path));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The directory of a scratch project with the packed package installed in `node_modules/co2e-engine`.
 *
 * @throws Error when the package is not built (`npm run build` first) or npm fails.
 */
export async function installedPackage(): Promise<string> {
  if (!existsSync(join(ROOT, 'dist', 'index.js')))
    throw new Error('The budgets are measured on the packed package; run `npm run build` first.');
  const project = join(tmpdir(), `${PROJECT_PREFIX}${buildHash()}`);
  if (existsSync(join(project, 'node_modules', 'co2e-engine', 'package.json'))) {
    const now = new Date();
    utimesSync(project, now, now); // in use: another build's run leaves it (removeStaleProjects)
    removeStaleProjects(tmpdir(), project, now.getTime());
    return project;
  }

  // Built beside, then renamed into place, so a run cut short never leaves a half-installed project to reuse.
  const scratch = `${project}.${process.pid}.partial`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', scratch], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string }>;
  if (packed === undefined) throw new Error(`npm pack printed no package: ${stdout}`);
  writeFileSync(
    join(scratch, 'package.json'),
    JSON.stringify({ name: 'budget-app', private: true, type: 'module' }),
  );
  await run(
    'npm',
    [
      'install',
      join(scratch, packed.filename),
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--package-lock=false',
    ],
    { cwd: scratch, maxBuffer: 64 * 1024 * 1024 },
  );
  try {
    renameSync(scratch, project);
  } catch {
    rmSync(scratch, { recursive: true, force: true }); // another run got there first: use its project
  }
  removeStaleProjects(tmpdir(), project, Date.now());
  return project;
}

/**
 * Removes from `folder` the projects of other builds, and half-installed ones left by runs cut short, that were not
 * made or used for {@link STALE_PROJECT_MS}; `keep` stays whatever its age. Returns the names removed.
 */
export function removeStaleProjects(folder: string, keep: string, now: number): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (!name.startsWith(PROJECT_PREFIX) || path === keep) continue;
    let modified: number;
    try {
      modified = statSync(path).mtimeMs;
    } catch {
      continue; // removed meanwhile by another run
    }
    if (now - modified < STALE_PROJECT_MS) continue;
    rmSync(path, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
