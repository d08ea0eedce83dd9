import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The CLI as a real process (`node --import tsx src/cli/launch.ts …`: the executable, which may start a worker with
 * the process), for signals, links and redirected stdio.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ProcessRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Starts the CLI; `stdin` and `stdout` may be file descriptors (redirects, as `< file` or `>> file` in a shell). */
export function startCli(
  args: string[],
  stdin: 'ignore' | number = 'ignore',
  output: 'pipe' | number = 'pipe',
): {
  child: ChildProcess;
  done: Promise<ProcessRun>;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/launch.ts', ...args], {
    cwd: ROOT,
    stdio: [stdin, output, 'pipe'] as Array<'ignore' | 'pipe' | number>,
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<ProcessRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

export const runCliProcess = (args: string[], stdin: 'ignore' | number = 'ignore') =>
  startCli(args, stdin).done;
