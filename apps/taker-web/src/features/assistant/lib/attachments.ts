import { CHAT_MAX_FILE_BYTES, CHAT_MAX_FILES, type ChatFile } from '@exam/domain/llm';

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** A file counts only when it is a file with a non-empty name and a size of at least 0. */
export function isValidFile(value: unknown): value is File {
  return value instanceof File && value.name.length > 0 && Number.isFinite(value.size) && value.size >= 0;
}

/**
 * Adds picked files to the ones already attached. Invalid files are skipped silently (nothing the candidate could fix); files past
 * the gateway's caps (CHAT_MAX_FILES, CHAT_MAX_FILE_BYTES) are skipped with a reason to show.
 */
export function acceptFiles(current: File[], incoming: Iterable<unknown>): { files: File[]; skipped: string[] } {
  const files = [...current];
  const skipped: string[] = [];
  for (const candidate of incoming) {
    if (!isValidFile(candidate)) continue;
    if (candidate.size > CHAT_MAX_FILE_BYTES)
      skipped.push(`${candidate.name} is larger than ${megabytes(CHAT_MAX_FILE_BYTES)}.`);
    else if (files.length >= CHAT_MAX_FILES)
      skipped.push(`${candidate.name}: at most ${CHAT_MAX_FILES} files per message.`);
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
