// A service type-checks only its own src, so the ambient types of word-extractor travel with the file that imports it.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../types/word-extractor.d.ts" />
import mammoth from 'mammoth';
import { extractText as extractPdfText } from 'unpdf';
import WordExtractor from 'word-extractor';
import { checkDocxArchive } from './docx-archive.ts';
import { pdfStreamsExceed } from './pdf-streams.ts';

/**
 * The text of an uploaded document, the one extraction of the platform: exam-service reads course materials with
 * it, results-service candidates' uploaded answers. CPU-heavy and fed untrusted files, so each service runs it in a
 * worker thread with a heap and time limit (isolated-worker.ts); the archive and stream checks below refuse
 * decompression bombs before a parser inflates them.
 */

export const DOCUMENT_KINDS = ['pdf', 'doc', 'docx', 'txt'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** The kind by file extension; undefined for any other file. */
export function documentKind(fileName: string): DocumentKind | undefined {
  const extension = fileName.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1] ?? '';
  return DOCUMENT_KINDS.find((k) => k === extension);
}

/** Why a document gave no text: it is not what its name says, or it unpacks past the limit. */
export type DocumentTextFailure = 'unreadable' | 'too-large';

export class DocumentTextError extends Error {
  readonly reason: DocumentTextFailure;
  constructor(reason: DocumentTextFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}

async function extractByKind(kind: DocumentKind, bytes: Buffer): Promise<string> {
  switch (kind) {
    case 'pdf': {
      const { text } = await extractPdfText(new Uint8Array(bytes), { mergePages: true });
      return text;
    }
    case 'docx':
      return (await mammoth.extractRawText({ buffer: bytes })).value;
    case 'doc':
      return (await new WordExtractor().extract(bytes)).getBody();
    case 'txt':
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  }
}

/**
 * The document's text, line ends as LF, without NUL characters (PostgreSQL text cannot hold them; some Word files
 * carry them), trimmed. Throws DocumentTextError: 'too-large' when a docx or PDF unpacks past `maxDecompressedBytes`
 * (checked before its parser inflates it), 'unreadable' when the content does not parse as `kind`.
 */
export async function extractDocumentText(
  kind: DocumentKind,
  bytes: Buffer,
  limits: { maxDecompressedBytes: number },
): Promise<string> {
  const unpacksTooLarge = () =>
    new DocumentTextError('too-large', `unpacks to more than ${limits.maxDecompressedBytes} bytes`);
  if (kind === 'docx') {
    const archive = await checkDocxArchive(bytes, limits.maxDecompressedBytes);
    if (archive === 'unreadable') throw new DocumentTextError('unreadable', `not a valid ${kind} file`);
    if (archive === 'too-large') throw unpacksTooLarge();
  }
  if (kind === 'pdf' && pdfStreamsExceed(bytes, limits.maxDecompressedBytes)) throw unpacksTooLarge();
  try {
    return (await extractByKind(kind, bytes)).replace(/\r\n/g, '\n').replaceAll('\u0000', '').trim();
  } catch {
    throw new DocumentTextError('unreadable', `not a valid ${kind} file`);
  }
}
