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
  /**
   * For a line too long, read as CSV: its cells, those longer than {@link KEPT_CELL_CHARS} emptied, so the row
   * can still show its own ids. A quote left open at the line's end empties the last cell.
   */
  cells?: string[];
  /** The line held bytes that are not UTF-8 (shown as U+FFFD in `text`). */
  invalidUtf8: boolean;
}

/**
 * A line as read ({@link PhysicalLine}). Lines and records are made with `new`, not as object literals: V8 watches
 * how long the objects of each literal live, and the first lines a run holds while it starts (its header read, its
 * first chunk) outlived young collections, so V8 put every later line of that literal straight in the old generation.
 * There each line held its young text alive through young collections, which then promoted it, with the 64 KB chunk
 * it is sliced from, until the next full collection (bench/cli.md, "Output buffers reused, lines and records made with `new`").
 */
export class ReadLine implements PhysicalLine {
  constructor(
    public text: string,
    public line: number,
    public tooLong: boolean,
    public invalidUtf8: boolean,
  ) {}
}

/**
 * A record that is its line's text (or lines', joined), the usual record: made with `new` for the reason
 * {@link ReadLine} is.
 */
export class LineRecord {
  constructor(
    public line: number,
    public text: string,
  ) {}
}

/** Default longest line or record, in UTF-16 code units. */
export const MAX_LINE_CHARS = 1_000_000;

const REPLACEMENT = '\uFFFD';

/** The longest cell of a too-long line that is kept (its ids, amounts, codes); longer cells are emptied. */
export const KEPT_CELL_CHARS = 10_000;
/** The most cells of a too-long line that are kept. */
const KEPT_CELLS = 10_000;

/**
 * The cells of one CSV line fed a piece at a time, keeping at most {@link KEPT_CELL_CHARS} of each: memory stays
 * bounded however long the line. Quotes as in RFC 4180 (a quote opens a field only at its start; `""` inside);
 * cells trimmed as csv-parse trims them.
 */
class CellSqueezer {
  private readonly cells: string[] = [];
  private cell = '';
  private length = 0;
  private atStart = true;
  private inQuotes = false;
  private quoted = false; // the cell opened with a quote: its text is kept as quoted, untrimmed
  private quoteSeen = false; // a quote inside quotes: the closing one, or the first of `""`

  constructor(private readonly delimiter: string) {}

  feed(text: string): void {
    for (let index = 0; index < text.length; index++) {
      const character = text[index] as string;
      if (this.inQuotes) {
        if (this.quoteSeen) {
          this.quoteSeen = false;
          if (character === '"') {
            this.add('"');
            continue;
          }
          this.inQuotes = false; // it closed the field: read this character outside quotes
        } else {
          if (character === '"') this.quoteSeen = true;
          else this.add(character);
          continue;
        }
      }
      if (character === this.delimiter) this.end();
      else if (character === '"' && this.atStart) {
        this.inQuotes = true;
        this.quoted = true;
        this.atStart = false;
      } else if (this.quoted) {
        // After the closing quote: spaces, or text that makes the record malformed; neither is the cell's.
      } else if (!(this.atStart && (character === ' ' || character === '\t'))) {
        this.atStart = false;
        this.add(character);
      }
    }
  }

  finish(): string[] {
    if (this.inQuotes && !this.quoteSeen) {
      this.length = Infinity; // never closed: the cell's end is unknown
    }
    this.end();
    return this.cells;
  }

  private add(character: string): void {
    this.length += 1;
    if (this.length <= KEPT_CELL_CHARS) this.cell += character;
  }

  private end(): void {
    if (this.cells.length < KEPT_CELLS)
      this.cells.push(
        this.length > KEPT_CELL_CHARS
          ? ''
          : this.quoted
            ? this.cell
            : this.cell.replace(/^[ \t\f\r\n]+|[ \t\f\r\n]+$/g, ''),
      );
    this.cell = '';
    this.length = 0;
    this.atStart = true;
    this.inQuotes = false;
    this.quoted = false;
    this.quoteSeen = false;
  }
}

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
 *
 * @param delimiter - for CSV, the delimiter given the header (the first line with text): a too-long line then keeps
 *   its short cells ({@link PhysicalLine.cells}); undefined (JSON Lines) keeps nothing of it
 */
export async function* readLineBatches(
  source: AsyncIterable<Uint8Array | string>,
  maxLineChars = MAX_LINE_CHARS,
  onChunk: (bytes: number) => void = () => undefined,
  delimiter: (header: string) => string | undefined = () => undefined,
): AsyncGenerator<PhysicalLine[]> {
  // Not fatal: one bad byte must fail its row, not the run. U+FFFD then marks the line.
  const decoder = new TextDecoder('utf-8');
  let partial = '';
  let partialTooLong = false;
  let squeezer: CellSqueezer | undefined;
  let line = 0;
  let header: string | undefined;
  const squeezerFor = (text: string) => {
    const separator = delimiter(header ?? '');
    if (separator === undefined) return undefined;
    const cells = new CellSqueezer(separator);
    cells.feed(text);
    return cells;
  };
  const finish = (text: string): PhysicalLine => {
    line += 1;
    const tooLong = partialTooLong || text.length > maxLineChars;
    const cells = !tooLong ? undefined : partialTooLong ? squeezer : squeezerFor(text);
    partialTooLong = false;
    squeezer = undefined;
    const clean = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (header === undefined && !tooLong && clean.trim() !== '') header = clean;
    const read = new ReadLine(tooLong ? '' : clean, line, tooLong, !tooLong && clean.includes(REPLACEMENT));
    // Built without a spread: a literal with a conditional spread is made by V8's slower generic path on every line.
    return cells === undefined ? read : { ...read, cells: cells.finish() };
  };

  for await (const chunk of source) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    onChunk(typeof chunk === 'string' ? chunk.length : chunk.byteLength);
    const batch: PhysicalLine[] = [];
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      if (partialTooLong) squeezer?.feed(text.slice(start, end));
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
    else squeezer?.feed(text.slice(start));
    if (partial.length > maxLineChars) {
      squeezer = squeezerFor(partial);
      partial = '';
      partialTooLong = true; // the rest of this line goes only to the squeezer, a cell's head at most
    }
    yield batch;
  }
  if (partialTooLong) squeezer?.feed(decoder.decode());
  const rest = partialTooLong ? '' : partial + decoder.decode();
  if (rest !== '' || partialTooLong) yield [finish(rest)];
}
