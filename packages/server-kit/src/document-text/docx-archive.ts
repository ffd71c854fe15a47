import { createInflateRaw } from 'node:zlib';

/**
 * A .docx is a ZIP archive that mammoth (through JSZip) inflates whole in memory, so a few kilobytes can
 * unpack to gigabytes. This reads the central directory (PKWARE APPNOTE 6.3, sections 4.3.12–4.3.16) and
 * inflates each entry as a stream, counting bytes and dropping them, before mammoth sees the file.
 */

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
const ZIP64_EXTRA = 0x0001;
const MAX_32 = 0xffffffff;
const STORED = 0;
const DEFLATED = 8;

export type ArchiveCheck = 'ok' | 'too-large' | 'unreadable';

type Entry = { method: number; compressedSize: number; uncompressedSize: number; localOffset: number };

function findEndOfCentralDirectory(bytes: Buffer): number {
  // The end record is 22 bytes plus a comment of at most 65535 bytes.
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (bytes.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) return at;
  }
  return -1;
}

/** Sizes and offset of 0xFFFFFFFF are in the zip64 extended information field, in this order (4.5.3). */
function applyZip64(entry: Entry, extra: Buffer): void {
  for (let at = 0; at + 4 <= extra.length;) {
    const id = extra.readUInt16LE(at);
    const size = extra.readUInt16LE(at + 2);
    if (id === ZIP64_EXTRA) {
      let field = at + 4;
      const next = () => {
        const value = field + 8 <= at + 4 + size ? Number(extra.readBigUInt64LE(field)) : Number.POSITIVE_INFINITY;
        field += 8;
        return value;
      };
      if (entry.uncompressedSize === MAX_32) entry.uncompressedSize = next();
      if (entry.compressedSize === MAX_32) entry.compressedSize = next();
      if (entry.localOffset === MAX_32) entry.localOffset = next();
      return;
    }
    at += 4 + size;
  }
}

function readEntries(bytes: Buffer): Entry[] | undefined {
  const end = findEndOfCentralDirectory(bytes);
  if (end < 0) return undefined;
  const entries: Entry[] = [];
  let at = bytes.readUInt32LE(end + 16);
  while (at + 46 <= bytes.length && bytes.readUInt32LE(at) === CENTRAL_FILE_HEADER) {
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const entry: Entry = {
      method: bytes.readUInt16LE(at + 10),
      compressedSize: bytes.readUInt32LE(at + 20),
      uncompressedSize: bytes.readUInt32LE(at + 24),
      localOffset: bytes.readUInt32LE(at + 42),
    };
    const extraStart = at + 46 + nameLength;
    applyZip64(entry, bytes.subarray(extraStart, extraStart + extraLength));
    entries.push(entry);
    at = extraStart + extraLength + commentLength;
  }
  return entries.length > 0 ? entries : undefined;
}

function compressedData(bytes: Buffer, entry: Entry): Buffer | undefined {
  const at = entry.localOffset;
  if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== LOCAL_FILE_HEADER) return undefined;
  const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
  if (start + entry.compressedSize > bytes.length) return undefined;
  return bytes.subarray(start, start + entry.compressedSize);
}

/** How many bytes `data` inflates to, stopping as soon as it passes `limit`; the output is never kept. */
async function inflatedSize(data: Buffer, limit: number): Promise<number> {
  const inflater = createInflateRaw();
  inflater.end(data);
  let total = 0;
  for await (const chunk of inflater as AsyncIterable<Buffer>) {
    total += chunk.length;
    // Leaving the loop destroys the stream.
    if (total > limit) break;
  }
  return total;
}

/** Whether the archive unpacks to at most `maxBytes`, judged by the declared sizes and then by inflating. */
export async function checkDocxArchive(bytes: Buffer, maxBytes: number): Promise<ArchiveCheck> {
  const entries = readEntries(bytes);
  if (!entries) return 'unreadable';
  const declared = entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
  if (declared > maxBytes) return 'too-large';
  let total = 0;
  for (const entry of entries) {
    const data = compressedData(bytes, entry);
    if (!data) return 'unreadable';
    if (entry.method === STORED) total += data.length;
    else if (entry.method === DEFLATED) {
      try {
        total += await inflatedSize(data, maxBytes - total);
      } catch {
        return 'unreadable';
      }
    } else return 'unreadable';
    if (total > maxBytes) return 'too-large';
  }
  return 'ok';
}
