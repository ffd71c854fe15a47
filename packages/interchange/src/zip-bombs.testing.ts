import { deflateSync } from 'fflate';

/**
 * Test helpers: zip bombs built in memory (no binary bombs in the repository), written field by field after
 * PKWARE APPNOTE.TXT 6.3.10 (local header 4.3.7, central header 4.3.12, end record 4.3.16), so a test can make
 * an archive lie in exactly one way. The constructions follow D. Fifield, "A better zip bomb" (WOOT '19).
 */

/** CRC-32 as APPNOTE 4.4.7 specifies it (the ISO 3309 polynomial, reflected: 0xEDB88320). */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  const table = Int32Array.from(CRC_TABLE);
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export type RawEntry = {
  name: string;
  /** The bytes after the local header: deflated, or stored as is. */
  data: Uint8Array;
  method: 'stored' | 'deflate';
  crc: number;
  uncompressedSize: number;
};

export function deflated(name: string, content: Uint8Array, declaredSize = content.length): RawEntry {
  return {
    name,
    data: deflateSync(content, { level: 9 }),
    method: 'deflate',
    crc: crc32(content),
    uncompressedSize: declaredSize,
  };
}

export function stored(name: string, content: Uint8Array): RawEntry {
  return { name, data: content, method: 'stored', crc: crc32(content), uncompressedSize: content.length };
}

function localHeader(entry: RawEntry): Uint8Array {
  const name = Buffer.from(entry.name, 'utf8');
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(entry.method === 'deflate' ? 8 : 0, 8);
  header.writeUInt32LE(entry.crc, 14);
  header.writeUInt32LE(entry.data.length, 18);
  header.writeUInt32LE(entry.uncompressedSize, 22);
  header.writeUInt16LE(name.length, 26);
  return Buffer.concat([header, name]);
}

function centralHeader(entry: RawEntry, localOffset: number): Uint8Array {
  const name = Buffer.from(entry.name, 'utf8');
  const header = Buffer.alloc(46);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(20, 6);
  header.writeUInt16LE(entry.method === 'deflate' ? 8 : 0, 10);
  header.writeUInt32LE(entry.crc, 16);
  header.writeUInt32LE(entry.data.length, 20);
  header.writeUInt32LE(entry.uncompressedSize, 24);
  header.writeUInt16LE(name.length, 28);
  header.writeUInt32LE(localOffset, 42);
  return Buffer.concat([header, name]);
}

function endRecord(count: number, directorySize: number, directoryOffset: number): Uint8Array {
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(directorySize, 12);
  end.writeUInt32LE(directoryOffset, 16);
  return end;
}

/** An ordinary archive: each entry's local header and data, then the central directory. */
export function buildZip(entries: RawEntry[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const local = localHeader(entry);
    centrals.push(centralHeader(entry, offset));
    parts.push(local, entry.data);
    offset += local.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  return Buffer.concat([...parts, directory, endRecord(entries.length, directory.length, offset)]);
}

/**
 * Fifield's "full overlap": one deflated kernel of `kernelBytes` zeros, named by `copies` central headers that all
 * point at the same local header. Unpacked naively it is `copies` × `kernelBytes`; its own size barely grows.
 */
export function fullOverlapBomb(copies: number, kernelBytes: number): Uint8Array {
  const kernel = deflated('item0.xml', new Uint8Array(kernelBytes));
  const local = localHeader(kernel);
  const centrals = Array.from({ length: copies }, (_, i) => centralHeader({ ...kernel, name: `item${i}.xml` }, 0));
  const directory = Buffer.concat(centrals);
  const directoryOffset = local.length + kernel.data.length;
  return Buffer.concat([local, kernel.data, directory, endRecord(copies, directory.length, directoryOffset)]);
}

/**
 * Fifield's "quoted overlap": every entry has its own local header, but the first entry is stored and its data
 * quotes (contains) the second entry's local header and data, so the two entries' byte ranges overlap.
 */
export function quotedOverlapBomb(kernelBytes: number): Uint8Array {
  const inner = deflated('inner.xml', new Uint8Array(kernelBytes));
  const innerBytes = Buffer.concat([localHeader(inner), inner.data]);
  const outer = stored('outer.xml', innerBytes);
  const outerLocal = localHeader(outer);
  const centrals = Buffer.concat([centralHeader(outer, 0), centralHeader(inner, outerLocal.length)]);
  const directoryOffset = outerLocal.length + innerBytes.length;
  return Buffer.concat([outerLocal, innerBytes, centrals, endRecord(2, centrals.length, directoryOffset)]);
}

/** `count` entries of `bytes` zeros each, with honest sizes: the bomb the body limit alone cannot stop. */
export function honestBomb(count: number, bytes: number): Uint8Array {
  const kernel = deflated('item.xml', new Uint8Array(bytes));
  return buildZip(Array.from({ length: count }, (_, i) => ({ ...kernel, name: `item${i}.xml` })));
}

/** One entry that declares `declaredSize` bytes and inflates to `actualBytes`. */
export function understatedBomb(actualBytes: number, declaredSize = 1): Uint8Array {
  return buildZip([deflated('item.xml', new Uint8Array(actualBytes), declaredSize)]);
}

/** `count` empty files. */
export function manyEntries(count: number): Uint8Array {
  return buildZip(Array.from({ length: count }, (_, i) => stored(`f${i}.xml`, new Uint8Array(0))));
}
