import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { Inflate } from 'fflate';
import { DatasetError } from '../datasets/errors';
import { inflateCap, tooLargeMessage } from './inflate-limits';

/**
 * Reads chosen entries of a zip file without loading the whole archive: EXIOBASE release zips are hundreds of
 * megabytes, of which the loaders need two files. Reads the central directory, then only the wanted entries'
 * bytes, and inflates them with fflate. Stored (0) and deflated (8) entries; no ZIP64 or encryption.
 */

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
const ZIP64_MARKER = 0xffffffff;

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

function read(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  const bytes = readSync(fd, buffer, 0, length, position);
  return bytes === length ? buffer : buffer.subarray(0, bytes);
}

/** Lists a zip's entries and reads the ones `wanted` picks, as bytes. */
export function readZip(
  path: string,
  wanted: (entries: readonly ZipEntry[]) => readonly ZipEntry[],
): Map<string, Uint8Array> {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const entries = centralDirectory(fd, size, path);
    const contents = new Map<string, Uint8Array>();
    for (const entry of wanted(entries)) contents.set(entry.name, entryBytes(fd, entry, path));
    return contents;
  } finally {
    closeSync(fd);
  }
}

function centralDirectory(fd: number, size: number, path: string): ZipEntry[] {
  // The end record is 22 bytes plus a comment of up to 65535 bytes, at the very end.
  const tailLength = Math.min(size, 22 + 0xffff);
  const tail = read(fd, size - tailLength, tailLength);
  let end = -1;
  for (let offset = tail.length - 22; offset >= 0; offset--) {
    if (tail.readUInt32LE(offset) === END_OF_CENTRAL_DIRECTORY) {
      end = offset;
      break;
    }
  }
  if (end < 0) throw new DatasetError(path, '', 'not a zip file (no end of central directory record)');
  const count = tail.readUInt16LE(end + 10);
  const directorySize = tail.readUInt32LE(end + 12);
  const directoryOffset = tail.readUInt32LE(end + 16);
  if (directoryOffset === ZIP64_MARKER || directorySize === ZIP64_MARKER || count === 0xffff) {
    throw new DatasetError(
      path,
      '',
      'ZIP64 archives are not supported; unzip it and load the folder instead',
    );
  }
  const directory = read(fd, directoryOffset, directorySize);
  const entries: ZipEntry[] = [];
  let offset = 0;
  for (let index = 0; index < count; index++) {
    if (offset + 46 > directory.length || directory.readUInt32LE(offset) !== CENTRAL_DIRECTORY_ENTRY) {
      throw new DatasetError(path, '', `corrupt zip central directory at entry ${index}`);
    }
    const flags = directory.readUInt16LE(offset + 8);
    const nameLength = directory.readUInt16LE(offset + 28);
    const extraLength = directory.readUInt16LE(offset + 30);
    const commentLength = directory.readUInt16LE(offset + 32);
    const nameBytes = directory.subarray(offset + 46, offset + 46 + nameLength);
    // Bit 11: UTF-8 names; otherwise CP437, identical to ASCII for EXIOBASE's file names.
    const name = new TextDecoder(flags & 0x800 ? 'utf-8' : 'latin1').decode(nameBytes);
    const entry = {
      name,
      method: directory.readUInt16LE(offset + 10),
      compressedSize: directory.readUInt32LE(offset + 20),
      size: directory.readUInt32LE(offset + 24),
      localHeaderOffset: directory.readUInt32LE(offset + 42),
    };
    if (flags & 0x1) throw new DatasetError(path, name, 'encrypted zip entries are not supported');
    entries.push(entry);
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** @throws {@link DatasetError} for a ZIP64 entry (sizes or offset past 4 GiB), which this reader does not read. */
function refuseZip64(entry: ZipEntry, path: string): void {
  if (
    entry.compressedSize === ZIP64_MARKER ||
    entry.size === ZIP64_MARKER ||
    entry.localHeaderOffset === ZIP64_MARKER
  )
    throw new DatasetError(
      path,
      entry.name,
      'ZIP64 entries are not supported; unzip the archive and load the folder instead',
    );
}

function entryBytes(fd: number, entry: ZipEntry, path: string): Uint8Array {
  refuseZip64(entry, path);
  checkDeclaredSize(entry, path);
  const header = read(fd, entry.localHeaderOffset, 30);
  if (header.length < 30 || header.readUInt32LE(0) !== LOCAL_FILE_HEADER)
    throw new DatasetError(path, entry.name, 'corrupt zip entry header');
  const start = entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  const data = read(fd, start, entry.compressedSize);
  if (data.length !== entry.compressedSize)
    throw new DatasetError(path, entry.name, 'zip entry is truncated');
  if (entry.method === 0 || entry.size === 0) return data;
  if (entry.method === 8) return inflateBounded(data, entry, path);
  throw new DatasetError(
    path,
    entry.name,
    `zip compression method ${entry.method} is not supported (only stored and deflate)`,
  );
}

/** Refuses an entry whose declared size is past its cap, before anything is read or inflated. */
function checkDeclaredSize(entry: ZipEntry, path: string): void {
  if (entry.method === 8 && entry.size > inflateCap(entry.compressedSize))
    throw new DatasetError(path, entry.name, tooLargeMessage(entry.size, entry.compressedSize));
}

/** Input fed to the inflater at a time: deflate expands at most ~1032:1, so one push yields at most ~17 MB. */
const PUSH_BYTES = 16 * 1024;

/**
 * Inflates a deflated entry into a buffer of its declared size, refusing it as soon as it would grow past that size
 * (the directory's size is not trusted: memory stays at what the checked declaration allows).
 */
function inflateBounded(data: Uint8Array, entry: ZipEntry, path: string): Uint8Array {
  const out = new Uint8Array(entry.size);
  let length = 0;
  const inflater = new Inflate((chunk) => {
    if (length + chunk.byteLength > out.byteLength)
      throw new DatasetError(path, entry.name, overDeclared(entry));
    out.set(chunk, length);
    length += chunk.byteLength;
  });
  pushSliced(inflater, data, true, entry, path);
  if (length !== entry.size)
    throw new DatasetError(
      path,
      entry.name,
      `zip entry is truncated: ${length} of its ${entry.size} bytes inflate`,
    );
  return out;
}

const overDeclared = (entry: ZipEntry) =>
  `too large: inflates to more than the ${entry.size.toLocaleString('en-US')} bytes its zip directory declares (a zip bomb or a corrupt file?)`;

/** Feeds `data` to the inflater in {@link PUSH_BYTES} slices; a deflate error becomes a "corrupt" DatasetError. */
function pushSliced(inflater: Inflate, data: Uint8Array, last: boolean, entry: ZipEntry, path: string): void {
  for (let offset = 0; offset < data.byteLength || offset === 0; offset += PUSH_BYTES) {
    const end = Math.min(data.byteLength, offset + PUSH_BYTES);
    try {
      inflater.push(data.subarray(offset, end), last && end >= data.byteLength);
    } catch (error) {
      if (error instanceof DatasetError) throw error;
      throw new DatasetError(
        path,
        entry.name,
        `corrupt deflate data: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (end >= data.byteLength) break;
  }
}

/**
 * A zip's entries (its central directory).
 *
 * @example
 * ```ts
 * zipEntries('IOT_2019_pxp.zip').map((entry) => entry.name); // ['IOT_2019_pxp/M.txt', …]
 * ```
 */
export function zipEntries(path: string): ZipEntry[] {
  const fd = openSync(path, 'r');
  try {
    return centralDirectory(fd, fstatSync(fd).size, path);
  } finally {
    closeSync(fd);
  }
}

/**
 * One entry's bytes in chunks, inflated while they are read: for entries too large to hold at once (the tables of
 * an EXIOBASE supply-use release unpack to gigabytes).
 */
export function* zipEntryChunks(path: string, entry: ZipEntry, chunkSize = 4 << 20): Generator<Uint8Array> {
  refuseZip64(entry, path);
  if (entry.method !== 0 && entry.method !== 8)
    throw new DatasetError(
      path,
      entry.name,
      `zip compression method ${entry.method} is not supported (only stored and deflate)`,
    );
  const fd = openSync(path, 'r');
  try {
    const header = read(fd, entry.localHeaderOffset, 30);
    if (header.length < 30 || header.readUInt32LE(0) !== LOCAL_FILE_HEADER)
      throw new DatasetError(path, entry.name, 'corrupt zip entry header');
    const start = entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
    const inflated: Uint8Array[] = [];
    let total = 0;
    const inflater = new Inflate((data) => {
      // Streamed entries never sit whole in memory, but an entry inflating past its declared size is refused.
      total += data.byteLength;
      if (total > entry.size) throw new DatasetError(path, entry.name, overDeclared(entry));
      inflated.push(data);
    });
    for (let offset = 0; offset < entry.compressedSize; offset += chunkSize) {
      const length = Math.min(chunkSize, entry.compressedSize - offset);
      const data = read(fd, start + offset, length);
      if (data.length !== length) throw new DatasetError(path, entry.name, 'zip entry is truncated');
      if (entry.method === 0) {
        yield data;
        continue;
      }
      for (let slice = 0; slice < length; slice += PUSH_BYTES) {
        const end = Math.min(length, slice + PUSH_BYTES);
        pushSliced(inflater, data.subarray(slice, end), offset + end >= entry.compressedSize, entry, path);
        yield* inflated.splice(0);
      }
    }
  } finally {
    closeSync(fd);
  }
}
