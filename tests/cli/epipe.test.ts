import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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
