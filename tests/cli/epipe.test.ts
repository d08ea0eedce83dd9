import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { testFolder } from '../temporary-folders';

/**
 * `co2e-engine list codes | head -1`: the reader closes the pipe after one line; the CLI ends quietly with exit 0
 * (no `write EPIPE` stack trace), as `head` expects of the commands it reads.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Runs the CLI with its stdout into a pipe that is closed after the first line arrives. */
function firstLineThenClose(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/launch.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let first = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    if (first.includes('\n')) return;
    first += chunk.toString();
    if (first.includes('\n')) child.stdout.destroy(); // what `head -1` does once it has its line
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; first: string; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, first: first.split('\n')[0] as string, stderr }));
  });
}

describe('a closed stdout', () => {
  it.each([[['list', 'codes']], [['list', 'instances']]])(
    '%j | head -1: exit 0, nothing on stderr',
    async (args) => {
      const { code, first, stderr } = await firstLineThenClose(args);
      expect(first).not.toBe('');
      expect(stderr).not.toContain('EPIPE');
      expect(stderr).toBe('');
      expect(code).toBe(0);
    },
  );
});

/** Runs the CLI with its stderr into a pipe whose reader is gone before anything is written (`2> >(true)`). */
function stderrClosed(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/launch.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr.destroy();
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  return new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

describe('a closed stderr', () => {
  it('spend --out --summary: both files written, exit 0, the messages dropped', async () => {
    const folder = testFolder('closed-stderr-');
    const input = join(folder, 'cred.csv');
    writeFileSync(
      input,
      'id,classification_type,classification_code,spend_year,spend_region,money,money_unit\n' +
        '1,isic4,62,2023,GB,10,gbp\n2,isic4,62,2023,GB,-4,gbp\n',
    );
    const out = join(folder, 'e2.csv');
    const summary = join(folder, 'e2.json');
    const { code, stdout } = await stderrClosed([
      'spend',
      input,
      '--credits',
      'net',
      '--out',
      out,
      '--summary',
      summary,
    ]);
    expect(stdout).toBe('');
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(3);
    expect(existsSync(summary)).toBe(true);
    expect(JSON.parse(readFileSync(summary, 'utf8'))).toMatchObject({ rows: 2, not_estimated_rows: 0 });
    expect(code).toBe(0);
  });
});
