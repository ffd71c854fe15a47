import {
  cutFileText,
  decodeUtf8,
  isPlainTextFile,
  type AnswerFileMeta,
  type AnswerFileTexts,
} from './answer-file-text.ts';

/** Extracts a PDF's or DOCX's text (the shared extraction); null when the file has none that can be read. */
export type DocumentTextExtractor = (file: AnswerFileMeta, bytes: Buffer) => Promise<string | null>;

/** Texts kept in memory: a grading view re-reads every answer of a question on each load. */
const CACHE_ENTRIES = 2000;

/**
 * The answer files' texts, each read once and kept (a file never changes under its key: a new upload has a new
 * uploaded_at). Plain text is decoded here; other kinds go to `extractDocument` (absent: unreadable).
 */
export function createAnswerFileTexts(extractDocument?: DocumentTextExtractor): AnswerFileTexts {
  const cache = new Map<string, string | null>();
  return {
    async textOf(file, content) {
      const key = `${file.attemptId}:${file.questionIndex}:${file.uploadedAt.getTime()}:${file.size}`;
      if (cache.has(key)) {
        const text = cache.get(key)!;
        // Least recently used goes first: re-inserting moves the key to the end.
        cache.delete(key);
        cache.set(key, text);
        return text;
      }
      const bytes = await content();
      const raw = isPlainTextFile(file)
        ? decodeUtf8(bytes)
        : extractDocument
          ? await extractDocument(file, bytes)
          : null;
      const text = raw === null ? null : cutFileText(raw) || null;
      cache.set(key, text);
      if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
      return text;
    },
  };
}
