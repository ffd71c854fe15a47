import { Inflate } from 'fflate';

/**
 * A zip reader for untrusted uploads. fflate's unzipSync inflates every entry at once with no budget, and trusts a
 * central directory whose entries may share or overlap their data, so a 5 MB upload can unpack to gigabytes
 * ("A better zip bomb", D. Fifield, WOOT '19: overlapping entries give a quadratic expansion). This reads the
 * central directory itself (PKWARE APPNOTE.TXT 6.3.10: end record 4.3.16, central headers 4.3.12, local headers
 * 4.3.7), refuses overlapping data, too many entries and large declared sizes before inflating anything, then
 * inflates only the entries asked for, one at a time, never past an entry's declared size or the archive's budget.
 */

/** What an archive may hold; IMPORT_MAX_UNZIPPED_BYTES and IMPORT_MAX_ZIP_ENTRIES in exam-service's config. */
export type ZipLimits = { maxUnzippedBytes: number; maxEntries: number };

export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxUnzippedBytes: 50 * 1024 * 1024, maxEntries: 1000 };

/** An archive refused before or while unpacking; the message says why, for the creator. */
export class ZipRefusedError extends Error {}

type Entry = {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  localOffset: number;
  /** Where this entry's bytes end: its local header, name, extra field and data (4.3.6). */
  dataStart: number;
  dataEnd: number;
};

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
const MAX_16 = 0xffff;
const MAX_32 = 0xffffffff;
const STORED = 0;
const DEFLATED = 8;
const ENCRYPTED = 0x1;
/** fflate inflates whatever one push allows; DEFLATE expands at most about 1032:1, so a 1 KB push adds ~1 MB. */
const PUSH_BYTES = 1024;

const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;

function findEndRecord(bytes: Uint8Array, view: DataView): number {
  // The end record is 22 bytes plus a comment of at most 65535 bytes (4.3.16).
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - MAX_16); at--) {
    if (view.getUint32(at, true) === END_OF_CENTRAL_DIRECTORY) return at;
  }
  throw new ZipRefusedError('Not a readable zip file: no end of central directory record');
}

function readEntries(bytes: Uint8Array, limits: ZipLimits): Entry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEndRecord(bytes, view);
  const count = view.getUint16(end + 10, true);
  const directorySize = view.getUint32(end + 12, true);
  const directoryOffset = view.getUint32(end + 16, true);
  // ZIP64 (4.3.14) is for archives past 4 GB or 65535 entries: never a question package.
  if (count === MAX_16 || directoryOffset === MAX_32) throw new ZipRefusedError('ZIP64 archives are not accepted');
  if (count > limits.maxEntries)
    throw new ZipRefusedError(`The zip holds ${count} entries; at most ${limits.maxEntries} are accepted`);
  if (directoryOffset + directorySize > end)
    throw new ZipRefusedError('Not a readable zip file: bad central directory');
  const entries: Entry[] = [];
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || view.getUint32(at, true) !== CENTRAL_FILE_HEADER)
      throw new ZipRefusedError('Not a readable zip file: bad central directory');
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const localOffset = view.getUint32(at + 42, true);
    const compressedSize = view.getUint32(at + 20, true);
    const uncompressedSize = view.getUint32(at + 24, true);
    if (compressedSize === MAX_32 || uncompressedSize === MAX_32 || localOffset === MAX_32)
      throw new ZipRefusedError('ZIP64 archives are not accepted');
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    if (localOffset + 30 > directoryOffset || view.getUint32(localOffset, true) !== LOCAL_FILE_HEADER)
      throw new ZipRefusedError(`Not a readable zip file: no local header for ${name}`);
    const dataStart =
      localOffset + 30 + view.getUint16(localOffset + 26, true) + view.getUint16(localOffset + 28, true);
    const dataEnd = dataStart + compressedSize;
    if (dataEnd > directoryOffset) throw new ZipRefusedError(`Not a readable zip file: ${name} runs past its data`);
    entries.push({
      name,
      method: view.getUint16(at + 10, true),
      flags: view.getUint16(at + 8, true),
      compressedSize,
      uncompressedSize,
      localOffset,
      dataStart,
      dataEnd,
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Each entry's bytes (local header to end of data) must be its own: overlapping ones are a zip bomb's tool. */
function refuseOverlaps(entries: Entry[]): void {
  const byOffset = [...entries].sort((a, b) => a.localOffset - b.localOffset);
  for (let i = 1; i < byOffset.length; i++) {
    const previous = byOffset[i - 1]!;
    const entry = byOffset[i]!;
    if (entry.localOffset < previous.dataEnd)
      throw new ZipRefusedError(
        `The zip's entries ${previous.name} and ${entry.name} share their data (overlapping entries, a zip bomb)`,
      );
  }
}

function refuseLargeDeclaredSizes(entries: Entry[], limits: ZipLimits): void {
  const declared = entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
  if (declared > limits.maxUnzippedBytes)
    throw new ZipRefusedError(
      `The zip unpacks to ${mb(declared)}; at most ${mb(limits.maxUnzippedBytes)} are accepted (IMPORT_MAX_UNZIPPED_BYTES)`,
    );
}

/** An untrusted archive, checked whole; its entries are inflated one at a time, on request, under one budget. */
export type SafeZip = {
  /** Entry names (directories included), in the central directory's order. */
  names: string[];
  /** The entry's content, or undefined when there is no such file. Throws ZipRefusedError past a limit. */
  read(name: string): Uint8Array | undefined;
};

export function openZip(bytes: Uint8Array, limits: ZipLimits = DEFAULT_ZIP_LIMITS): SafeZip {
  const entries = readEntries(bytes, limits);
  refuseOverlaps(entries);
  refuseLargeDeclaredSizes(entries, limits);
  const byName = new Map(entries.map((e) => [e.name, e]));
  let spent = 0;

  function inflate(entry: Entry): Uint8Array {
    const data = bytes.subarray(entry.dataStart, entry.dataEnd);
    if (entry.flags & ENCRYPTED) throw new ZipRefusedError(`${entry.name} is encrypted`);
    if (entry.method === STORED) {
      if (data.length !== entry.uncompressedSize) throw new ZipRefusedError(`${entry.name} has a wrong size`);
      return data.slice();
    }
    if (entry.method !== DEFLATED) throw new ZipRefusedError(`${entry.name} uses an unsupported compression method`);
    const chunks: Uint8Array[] = [];
    let produced = 0;
    const inflater = new Inflate((chunk) => {
      produced += chunk.length;
      // The declared sizes passed the budget; an entry that inflates past its own is lying about it.
      if (produced > entry.uncompressedSize)
        throw new ZipRefusedError(`${entry.name} unpacks to more than the ${entry.uncompressedSize} bytes it declares`);
      chunks.push(chunk);
    });
    try {
      for (let at = 0; at < data.length; at += PUSH_BYTES) {
        inflater.push(data.subarray(at, at + PUSH_BYTES), at + PUSH_BYTES >= data.length);
      }
      if (data.length === 0) inflater.push(data, true);
    } catch (error) {
      if (error instanceof ZipRefusedError) throw error;
      throw new ZipRefusedError(`Not a readable zip file: ${entry.name}: ${(error as Error).message}`);
    }
    if (produced !== entry.uncompressedSize) throw new ZipRefusedError(`${entry.name} has a wrong size`);
    const out = new Uint8Array(produced);
    let at = 0;
    for (const chunk of chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }

  return {
    names: entries.map((e) => e.name),
    read(name) {
      const entry = byName.get(name);
      if (!entry || name.endsWith('/')) return undefined;
      if (spent + entry.uncompressedSize > limits.maxUnzippedBytes)
        throw new ZipRefusedError(`The zip unpacks to more than ${mb(limits.maxUnzippedBytes)}`);
      const content = inflate(entry);
      spent += content.length;
      return content;
    },
  };
}
