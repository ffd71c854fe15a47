import type { WorkspaceFile } from '@exam/domain/internal';

/** A spreadsheet workbook collected from an excel workspace. */
export const isWorkbook = (name: string) => /\.xlsx$/i.test(name);

/** A SQL workbench's query log (the oracle-sql workspace appends each statement run to e.g. queries.sql). */
export const isQueryLog = (name: string) => /(^|\/)[^/]*quer[^/]*\.(sql|log|txt)$/i.test(name);

/** The file's bytes: a binary's collected bytes (contentBase64) decoded, else its text. */
export function bytesOf(file: Pick<WorkspaceFile, 'content' | 'contentBase64'>): Uint8Array {
  if (file.contentBase64 === undefined) return new TextEncoder().encode(file.content);
  const binary = atob(file.contentBase64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Whether the grader can open the file in the browser: a text file, or a workbook whose bytes were collected. */
export const canOpen = (name: string, file: WorkspaceFile) =>
  isWorkbook(name) ? file.contentBase64 !== undefined && !file.truncated : !file.isBinary;

export type LoggedStatement = {
  /** The comment lines just before it (a timestamp, the workbench's note), without their `--`. */
  notes: string[];
  sql: string;
};

/**
 * The statements of a query log in order: each ends at a line ending in `;` (or at the end of the log); `--` comment
 * lines before a statement are kept as its notes.
 */
export function loggedStatements(log: string): LoggedStatement[] {
  const statements: LoggedStatement[] = [];
  let notes: string[] = [];
  let lines: string[] = [];
  const flush = () => {
    const sql = lines.join('\n').trim();
    if (sql) statements.push({ notes, sql });
    notes = [];
    lines = [];
  };
  for (const line of log.replace(/\r\n/g, '\n').split('\n')) {
    const trimmed = line.trim();
    if (lines.length === 0 && trimmed.startsWith('--')) {
      notes.push(trimmed.replace(/^--\s?/, ''));
      continue;
    }
    if (lines.length === 0 && trimmed === '') continue;
    lines.push(line);
    if (trimmed.endsWith(';')) flush();
  }
  flush();
  return statements;
}
