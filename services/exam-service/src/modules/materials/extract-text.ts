import { AppError, ErrorCode } from '@exam/domain/errors';
import { COURSE_MATERIAL_EXTENSIONS } from '@exam/domain/exam-ai';
import { DocumentTextError, extractDocumentText } from '@exam/server-kit/document-text/extract-text';

export type MaterialKind = (typeof COURSE_MATERIAL_EXTENSIONS)[number];

export const MIME_TYPES: Record<MaterialKind, string> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  txt: 'text/plain',
};

const ACCEPTED = COURSE_MATERIAL_EXTENSIONS.join(', ');

/** The kind by file extension (pdf, doc, docx and txt); anything else is refused. */
export function materialKind(fileName: string): MaterialKind {
  const extension = fileName.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1] ?? '';
  const kind = COURSE_MATERIAL_EXTENSIONS.find((k) => k === extension);
  if (!kind) {
    const message = `"${fileName}" is not a supported course material; upload ${ACCEPTED} files`;
    throw new AppError(ErrorCode.VALIDATION, message, [{ path: 'files', message }]);
  }
  return kind;
}

/** MATERIAL_MAX_TEXT_CHARS and MATERIAL_MAX_DECOMPRESSED_BYTES (config.ts). */
export type ExtractionLimits = { maxTextChars: number; maxDecompressedBytes: number };

export function unreadable(fileName: string, kind: MaterialKind): AppError {
  const message = `Could not read the text of "${fileName}"; is it a valid ${kind} file?`;
  return new AppError(ErrorCode.VALIDATION, message, [{ path: 'files', message }]);
}

function tooLarge(message: string): AppError {
  return new AppError(ErrorCode.PAYLOAD_TOO_LARGE, message, [{ path: 'files', message }]);
}

/**
 * The text the assistant will read, through the platform's one document extraction (server-kit
 * document-text/extract-text.ts). A file whose content does not match its extension is a 400, not a 500; a docx or
 * PDF that unpacks past the limit is refused before its parser inflates it, and text past the limit is refused.
 * CPU-heavy: materials.service.ts runs it in a worker thread (extract-text.task.ts).
 */
export async function extractMaterialText(
  fileName: string,
  kind: MaterialKind,
  bytes: Buffer,
  limits: ExtractionLimits,
): Promise<string> {
  let text: string;
  try {
    text = await extractDocumentText(kind, bytes, limits);
  } catch (error) {
    if (error instanceof DocumentTextError && error.reason === 'too-large')
      throw tooLarge(
        `"${fileName}" unpacks to more than ${limits.maxDecompressedBytes} bytes (MATERIAL_MAX_DECOMPRESSED_BYTES)`,
      );
    throw unreadable(fileName, kind);
  }
  if (text.length > limits.maxTextChars) {
    throw tooLarge(`"${fileName}" has more than ${limits.maxTextChars} characters of text (MATERIAL_MAX_TEXT_CHARS)`);
  }
  return text;
}
