import { documentKind, extractDocumentText } from '@exam/server-kit/document-text/extract-text';

/** A worker-thread task (server-kit isolated-worker.ts): the text of one uploaded answer file. */
export type AnswerDocumentInput = { fileName: string; bytes: Uint8Array; maxDecompressedBytes: number };

/** The text, or null when the file is no PDF/Word document, or one that does not read (DocumentTextError). */
export default async function answerDocumentTask({
  fileName,
  bytes,
  maxDecompressedBytes,
}: AnswerDocumentInput): Promise<string | null> {
  const kind = documentKind(fileName);
  if (!kind) return null;
  // A Buffer arrives as a plain Uint8Array (structured clone); wrap it without copying.
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return extractDocumentText(kind, buffer, { maxDecompressedBytes }).catch(() => null);
}
