import { type ExtractionLimits, extractMaterialText, type MaterialKind } from './extract-text.ts';

/** A worker-thread task (server-kit isolated-worker.ts): the text of one uploaded course material. */
export type ExtractTextInput = { fileName: string; kind: MaterialKind; bytes: Uint8Array; limits: ExtractionLimits };

export default function extractTextTask({ fileName, kind, bytes, limits }: ExtractTextInput): Promise<string> {
  // A Buffer arrives as a plain Uint8Array (structured clone); wrap it without copying.
  return extractMaterialText(fileName, kind, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), limits);
}
