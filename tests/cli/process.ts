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

/**
 * Starts the CLI; `stdin` and `stdout` may be file descriptors (redirects, as `< file` or `>> file` in a shell).
 * `fileSizeBytes` limits the size of any file the process writes (POSIX `ulimit -f`, in 512-byte blocks): a write
 * beyond it fails with EFBIG, as one on a full disk fails with ENOSPC.
 */
export function startCli(
  args: string[],
  stdin: 'ignore' | number = 'ignore',
  output: 'pipe' | number = 'pipe',
  fileSizeBytes?: number,
): {
  child: ChildProcess;
  done: Promise<ProcessRun>;
} {
  const command = [process.execPath, '--import', 'tsx', 'src/cli/launch.ts', ...args];
  const [file, ...argv] =
    fileSizeBytes === undefined
      ? command
      : ['/bin/sh', '-c', `ulimit -f ${Math.floor(fileSizeBytes / 512)} && exec "$@"`, 'sh', ...command];
  const child = spawn(file as string, argv, {
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
