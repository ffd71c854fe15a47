import { inflateSync } from 'node:zlib';

/**
 * pdf.js (through unpdf) inflates a FlateDecode stream whole, with no limit, so a 195 KB PDF can unpack to
 * hundreds of megabytes. Before pdf.js sees the file, this finds its stream objects (ISO 32000-1:2008, 7.3.8:
 * `stream` followed by CRLF or LF, its dictionary before it) and inflates those whose filter is FlateDecode
 * (7.4.4, zlib data, RFC 1950), counting what they give under one budget and keeping none of it.
 *
 * A stream it cannot inflate on its own (another filter first, encryption, damage) is left to pdf.js, which runs
 * in a worker with a heap and time limit (server-kit isolated-worker.ts): that is the backstop, this the clear answer.
 */

const STREAM = Buffer.from('stream');
/** How far back to look for the stream's dictionary: dictionaries are short; a longer look only costs time. */
const DICTIONARY_WINDOW = 4096;

function filterIsFlate(bytes: Buffer, streamAt: number): boolean {
  const dictionary = bytes.toString('latin1', Math.max(0, streamAt - DICTIONARY_WINDOW), streamAt);
  const start = dictionary.lastIndexOf(' obj');
  const own = start >= 0 ? dictionary.slice(start) : dictionary;
  // `/Filter /FlateDecode` or an array whose first (outermost) filter is FlateDecode.
  return /\/Filter\s*(\[\s*)?\/FlateDecode/.test(own);
}

function dataStart(bytes: Buffer, afterKeyword: number): number | undefined {
  if (bytes[afterKeyword] === 0x0d && bytes[afterKeyword + 1] === 0x0a) return afterKeyword + 2;
  if (bytes[afterKeyword] === 0x0a) return afterKeyword + 1;
  return undefined;
}

/** Whether the file's FlateDecode streams inflate to more than `maxBytes` in total. */
export function pdfStreamsExceed(bytes: Buffer, maxBytes: number): boolean {
  let total = 0;
  for (let at = bytes.indexOf(STREAM); at >= 0; at = bytes.indexOf(STREAM, at + STREAM.length)) {
    if (at >= 3 && bytes.toString('latin1', at - 3, at) === 'end') continue;
    const start = dataStart(bytes, at + STREAM.length);
    if (start === undefined || !filterIsFlate(bytes, at)) continue;
    try {
      // zlib stops at the end of its own data, so the bytes after it (`endstream`, later objects) do not matter.
      total += inflateSync(bytes.subarray(start), { maxOutputLength: maxBytes - total + 1 }).length;
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return true;
      continue;
    }
    if (total > maxBytes) return true;
  }
  return false;
}
