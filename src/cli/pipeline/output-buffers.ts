/**
 * The buffers that chunks' output rows are written into (chunk.ts), reused once their bytes are written, one pool per
 * thread. A new buffer per chunk was memory outside V8's heap, counted towards the heap's limit until its object
 * was collected: the queued writes kept about 16 MB of them alive (output-file.ts), so many outlived two
 * young-generation collections and were freed only by full ones, which that memory then brought on more often
 * (bench/cli.md, "Output buffers reused").
 *
 * A buffer is reused only where it is known to be done with: written to the output file, or compressed (gzip).
 * Only the pool's own buffers are taken back (made by {@link outputBuffer}, or moved in from another thread with
 * {@link ownBuffer} or {@link spareBuffer}), so a view into memory shared with anything else (Node's small-buffer
 * pool, zlib's output) is never written over.
 */

/** Written buffers kept for reuse; a few chunks' worth, since a chunk's buffer is taken as the last one is written. */
export const MAX_FREE_BUFFERS = 16;

const ours = new WeakSet<ArrayBuffer>();
const free: ArrayBuffer[] = [];
let made = 0;

/**
 * A buffer of at least `minimum` bytes to write a chunk's rows into: the last one written, when it is large enough,
 * else a new one.
 *
 * @example
 * ```ts
 * const buffer = outputBuffer(64 * 1024);
 * const length = buffer.write('id,co2e\n');
 * await output.write(buffer.subarray(0, length)); // taken back once written: recycleBuffer
 * ```
 */
export function outputBuffer(minimum: number): Buffer {
  const last = free.pop();
  // One too small is let go rather than kept: chunks' outputs are much of a size, so the next is likely too.
  if (last !== undefined && last.byteLength >= minimum) return Buffer.from(last);
  const buffer = Buffer.allocUnsafeSlow(minimum);
  ours.add(buffer.buffer);
  made += 1;
  return buffer;
}

/**
 * Takes back the buffer under `bytes` once nothing reads them any more (they are written, or were copied), if it is
 * one of the pool's; anything else is left alone.
 *
 * @example
 * ```ts
 * await writeAt(fd, bytes, position);
 * recycleBuffer(bytes);
 * ```
 */
export function recycleBuffer(bytes: Uint8Array): void {
  const { buffer } = bytes;
  // A buffer moved to another thread since is empty (detached) here.
  if (!(buffer instanceof ArrayBuffer) || !ours.has(buffer) || buffer.byteLength === 0) return;
  if (free.length >= MAX_FREE_BUFFERS || free.includes(buffer)) return;
  free.push(buffer);
}

/**
 * Counts as the pool's a buffer moved in from another thread that is in use (a worker's chunk output, written here
 * later), so that it is taken back once written.
 */
export function ownBuffer(buffer: ArrayBuffer): void {
  ours.add(buffer);
}

/** A written buffer to move to another thread (a worker writes its next chunk into it), if the pool has one. */
export function takeSpareBuffer(): ArrayBuffer | undefined {
  return free.pop();
}

/** Adds to the pool a buffer moved in from another thread to be written into (see {@link takeSpareBuffer}). */
export function spareBuffer(buffer: ArrayBuffer): void {
  ours.add(buffer);
  if (free.length < MAX_FREE_BUFFERS) free.push(buffer);
}

/** Buffers this thread's pool has made so far, for tests and benchmarks. */
export const buffersMade = (): number => made;
