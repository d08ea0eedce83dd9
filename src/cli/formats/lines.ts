/**
 * Physical lines of a byte stream, decoded as UTF-8 (a leading BOM dropped), pulled one chunk at a time so memory
 * stays bounded by the longest line, and a line longer than the limit is reported instead of buffered.
 */

export interface PhysicalLine {
  /** The line without its terminator (`\n` or `\r\n`). */
  text: string;
  /** 1-based line number. */
  line: number;
  /** The line was longer than the limit; `text` is empty. */
  tooLong: boolean;
  /** The line held bytes that are not UTF-8 (shown as U+FFFD in `text`). */
  invalidUtf8: boolean;
}

/** Default longest line or record, in UTF-16 code units. */
export const MAX_LINE_CHARS = 1_000_000;

const REPLACEMENT = '\uFFFD';

/**
 * @param source - byte chunks (a file or stdin stream)
 * @param onChunk - called with each chunk's byte length, for progress
 */
export async function* readLines(
  source: AsyncIterable<Uint8Array | string>,
  maxLineChars = MAX_LINE_CHARS,
  onChunk: (bytes: number) => void = () => undefined,
): AsyncGenerator<PhysicalLine> {
  for await (const batch of readLineBatches(source, maxLineChars, onChunk)) yield* batch;
}

/**
 * {@link readLines} a source chunk at a time: the lines each chunk completes, as one array (possibly empty). A file
 * run takes its records this way, so reading costs one await per 64 KB chunk rather than one per line.
 */
export async function* readLineBatches(
  source: AsyncIterable<Uint8Array | string>,
  maxLineChars = MAX_LINE_CHARS,
  onChunk: (bytes: number) => void = () => undefined,
): AsyncGenerator<PhysicalLine[]> {
  // Not fatal: one bad byte must fail its row, not the run. U+FFFD then marks the line.
  const decoder = new TextDecoder('utf-8');
  let partial = '';
  let partialTooLong = false;
  let line = 0;
  const finish = (text: string): PhysicalLine => {
    line += 1;
    const tooLong = partialTooLong || text.length > maxLineChars;
    partialTooLong = false;
    const clean = text.endsWith('\r') ? text.slice(0, -1) : text;
    return {
      text: tooLong ? '' : clean,
      line,
      tooLong,
      invalidUtf8: !tooLong && clean.includes(REPLACEMENT),
    };
  };

  for await (const chunk of source) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    onChunk(typeof chunk === 'string' ? chunk.length : chunk.byteLength);
    const batch: PhysicalLine[] = [];
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      const piece = partialTooLong
        ? ''
        : partial === ''
          ? text.slice(start, end)
          : partial + text.slice(start, end);
      partial = '';
      batch.push(finish(piece));
      start = end + 1;
    }
    if (!partialTooLong) partial += text.slice(start);
    if (partial.length > maxLineChars) {
      partial = '';
      partialTooLong = true; // drop the rest of this line as it arrives
    }
    yield batch;
  }
  const rest = partialTooLong ? '' : partial + decoder.decode();
  if (rest !== '' || partialTooLong) yield [finish(rest)];
}
