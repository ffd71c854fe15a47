import { CHAT_MAX_FILE_BYTES, CHAT_MAX_FILES, type ChatFile } from '@exam/domain/llm';

/** A file counts only when it is a file with a non-empty name and a size of at least 0. */
export function isValidFile(value: unknown): value is File {
  return value instanceof File && value.name.length > 0 && Number.isFinite(value.size) && value.size >= 0;
}

/**
 * Adds picked files to the ones already attached. Invalid files are skipped silently (nothing the candidate could fix); files past
 * the gateway's caps (CHAT_MAX_FILES, CHAT_MAX_FILE_BYTES) are skipped with a reason to show.
 */
/** A file left out, and why: larger than CHAT_MAX_FILE_BYTES, or past CHAT_MAX_FILES. */
export type SkippedFile = { name: string; reason: 'tooLarge' | 'tooMany' };

export function acceptFiles(current: File[], incoming: Iterable<unknown>): { files: File[]; skipped: SkippedFile[] } {
  const files = [...current];
  const skipped: SkippedFile[] = [];
  for (const candidate of incoming) {
    if (!isValidFile(candidate)) continue;
    if (candidate.size > CHAT_MAX_FILE_BYTES) skipped.push({ name: candidate.name, reason: 'tooLarge' });
    else if (files.length >= CHAT_MAX_FILES) skipped.push({ name: candidate.name, reason: 'tooMany' });
    else files.push(candidate);
  }
  return { files, skipped };
}

/** Reads a file as base64 for the chat request; the gateway reads its content by type. */
export function toChatFile(file: File): Promise<ChatFile> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = typeof reader.result === 'string' ? reader.result : '';
      resolve({ name: file.name, type: file.type, size: file.size, dataBase64: url.slice(url.indexOf(',') + 1) });
    };
    reader.onerror = () => reject(new Error(`Failed to read ${file.name}`));
    reader.readAsDataURL(file);
  });
}
