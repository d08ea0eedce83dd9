import cliProgress from 'cli-progress';

/** A run's progress, told row by row. */
export interface Progress {
  /** Called after every row; redraws at most every 100 ms. */
  tick(rows: number, bytes: number): void;
  stop(): void;
}

const REDRAW_MS = 100;

/**
 * A progress bar with rows/s on stderr, shown only when stderr is a terminal (elsewhere every call does nothing).
 *
 * @example
 * ```ts
 * const progress = createProgress(process.stderr, fileSize);
 * progress.tick(rows, bytes);
 * progress.stop();
 * ```
 */
export function createProgress(
  stderr: NodeJS.WritableStream & { isTTY?: boolean },
  totalBytes: number | undefined,
): Progress {
  if (stderr.isTTY !== true) return { tick: () => undefined, stop: () => undefined };
  const known = totalBytes !== undefined && totalBytes > 0;
  const bar = new cliProgress.SingleBar(
    {
      stream: stderr,
      format: known
        ? '{bar} {percentage}% | {rows} rows | {speed} rows/s | {duration_formatted}'
        : '{rows} rows | {speed} rows/s | {duration_formatted}',
      hideCursor: true,
      clearOnComplete: true,
      fps: 10,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = performance.now();
  let drawn = 0;
  bar.start(known ? totalBytes : 1, 0, { rows: 0, speed: 0 });
  return {
    tick(rows, bytes) {
      const now = performance.now();
      if (now - drawn < REDRAW_MS) return;
      drawn = now;
      const speed = Math.round(rows / Math.max((now - started) / 1000, 0.001));
      bar.update(known ? Math.min(bytes, totalBytes) : 0, { rows, speed });
    },
    stop() {
      bar.stop();
    },
  };
}
