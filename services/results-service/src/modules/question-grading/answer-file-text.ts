/**
 * The readable text of a candidate's uploaded answer file, for grading by question: shown beside the file, grouped
 * on, and what an AI suggestion reads. Plain-text files are decoded as UTF-8; PDF and DOCX go through the text
 * extraction exam-service uses for course materials. Cut at ANSWER_FILE_TEXT_MAX characters.
 */

/** The contract's cut (QuestionAnswerRowSchema.fileText). */
export const ANSWER_FILE_TEXT_MAX = 20_000;

/** An answer file as stored, without its bytes (answer_files). */
export type AnswerFileMeta = {
  attemptId: string;
  /** The candidate's index. */
  questionIndex: number;
  fileName: string;
  mimeType: string;
  size: number;
  uploadedAt: Date;
};

export type AnswerFileTexts = {
  /** The file's text, or null when it has none a reader could use; `content` loads the bytes when needed. */
  textOf(file: AnswerFileMeta, content: () => Promise<Buffer>): Promise<string | null>;
};

const PLAIN_TEXT =
  /\.(txt|md|markdown|csv|tsv|json|xml|html?|py|js|ts|java|c|cc|cpp|h|hpp|cs|go|rs|rb|php|sql|r|m|tex)$/i;

/** Whether the file is read as plain UTF-8 text (by its type, else its extension). */
export function isPlainTextFile(file: Pick<AnswerFileMeta, 'fileName' | 'mimeType'>): boolean {
  return file.mimeType.startsWith('text/') || PLAIN_TEXT.test(file.fileName);
}

/** UTF-8 text, or null for bytes that are not valid UTF-8 (a binary file with a text name). */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replaceAll('\u0000', '');
  } catch {
    return null;
  }
}

/** The cut every reader applies, and the same whitespace at the ends as the extraction leaves. */
export function cutFileText(text: string): string {
  return text.replace(/\r\n/g, '\n').trim().slice(0, ANSWER_FILE_TEXT_MAX);
}
