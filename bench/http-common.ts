import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';

/** Shared by bench/http.ts and bench/soak.ts: servers as child processes, RSS, flags, the results section. */

export const ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface Child {
  process: ChildProcess;
  port: number;
  stop(): Promise<void>;
}

/** Starts `node <args>` and waits for `listening on http://127.0.0.1:<port>` on stderr. */
export function startChild(args: string[]): Promise<Child> {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr);
      if (match)
        resolve({
          process: child,
          port: Number(match[1]),
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`)));
  });
}

/** `co2e-engine serve` from the build, on a free loopback port. */
export const startServe = (extra: string[] = []) =>
  startChild([join(ROOT, 'dist', 'cli.js'), 'serve', '--port', '0', '--max-connections', '10000', ...extra]);

/** Resident memory of a process in MB, from /proc. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return Math.round(kb / 1024);
}

/** User + system CPU of a process so far, in milliseconds (clock ticks of 10 ms), from /proc. */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** `--name value` from the command line, as a number. */
export function numberFlag(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  if (index === -1) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} needs a number`);
  return value;
}

/** Replaces (or appends) the `<!-- name:start -->…<!-- name:end -->` block of bench/results.md. */
export async function writeSection(name: string, markdown: string): Promise<void> {
  const file = join(ROOT, 'bench', 'results.md');
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const from = previous.indexOf(start);
  const to = previous.indexOf(end);
  const next =
    from !== -1 && to !== -1
      ? previous.slice(0, from) + block + previous.slice(to + end.length)
      : `${previous.trimEnd()}\n\n${block}\n`;
  const options = (await resolveConfig(file)) ?? {};
  writeFileSync(file, await format(next, { ...options, filepath: file }));
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
