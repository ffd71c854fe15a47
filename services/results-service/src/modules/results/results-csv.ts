import type { ResultStatus } from '@exam/domain/grading';
import type { ProcessRecord } from '@exam/domain/timeline';
import { percentageOf, type StoredGrade } from '../../scoring/score.ts';

export type CsvCandidate = {
  /** The result's id, by which columns from other modules find their row (CsvExtraColumns). */
  id: string;
  userName: string;
  studentId: string;
  startedAt: Date;
  completedAt: Date;
  timeSpent: number;
  grades: ReadonlyArray<StoredGrade | undefined>;
  score: number;
  maxScore: number;
  status: ResultStatus;
  focusLost: number;
  blockedPastes: number;
  fullscreenExits: number;
  /** results.process: how the answers came to be; null for results made before operations were recorded. */
  process: ProcessRecord | null;
};

/**
 * Columns a module above this one adds to the full export (insights' aided/unaided ability and reliance), passed in
 * at request time: their names, and each result's cells by its id (blank cells for a result it has no row for).
 */
export type CsvExtraColumns = {
  header: readonly string[];
  cellsOf(resultId: string): ReadonlyArray<string | number | null> | undefined;
};

/**
 * A field quoted as RFC 4180 requires (comma, quote or line break inside). Text a spreadsheet would run
 * as a formula (=, +, -, @, tab, CR at the start) gets a leading apostrophe (OWASP "CSV Injection").
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Points to the hundredth, as formatPoints shows them; blank while a grader has not decided. */
const hundredths = (n: number) => Math.round(n * 100) / 100;
const points = (grade: StoredGrade | undefined) =>
  grade === undefined || grade.points === null ? null : hundredths(grade.points);
/** One decimal, as formatPercentage rounds it (without the % sign, so spreadsheets read a number). */
const percentage = (c: CsvCandidate) => Math.round(percentageOf(c.score, c.maxScore) * 10) / 10;

/**
 * The process columns (results.process): the shares of the final answers' characters typed, pasted from within the
 * exam and copied from the assistant; whether any answer has a transcription-like span; the typing speed over all
 * answers (each answer's characters per minute weighted by its keystrokes). Review signals, never verdicts. Blank
 * without a process record.
 */
function processColumns(process: ProcessRecord | null): Array<string | number | null> {
  if (!process) return [null, null, null, null, null];
  const timed = process.answers.filter((a) => a.signals.charsPerMinute !== null && a.signals.keystrokes > 0);
  const keystrokes = timed.reduce((sum, a) => sum + a.signals.keystrokes, 0);
  const rate =
    keystrokes > 0
      ? Math.round(
          (timed.reduce((sum, a) => sum + a.signals.charsPerMinute! * a.signals.keystrokes, 0) / keystrokes) * 10,
        ) / 10
      : null;
  return [
    process.summary.typedPercent,
    process.summary.pastedPercent,
    process.summary.assistantPercent,
    process.answers.some((a) => a.signals.transcriptionLike.flagged) ? 'yes' : 'no',
    rate,
  ];
}

/**
 * One row per submitted candidate: each question's points under its header (question-columns.ts, the exam's order;
 * `grades` already in that order), then the score, maximum, percentage and status as every screen shows them, the
 * integrity counts, the process columns (processColumns) and the `extra` columns. Lines end with CRLF as RFC 4180
 * specifies.
 */
export function resultsCsv(
  candidates: CsvCandidate[],
  questionHeaders: readonly string[],
  extra: CsvExtraColumns = { header: [], cellsOf: () => undefined },
): string {
  const blank = extra.header.map(() => null);
  const header = [
    'name',
    'studentId',
    'startedAt',
    'completedAt',
    'timeSpent',
    ...questionHeaders,
    'score',
    'maxScore',
    'percentage',
    'status',
    'focusLost',
    'blockedPastes',
    'fullscreenExits',
    'typedPercent',
    'pastedPercent',
    'assistantPercent',
    'transcriptionLike',
    'typedCharsPerMinute',
    ...extra.header,
  ];
  const lines = candidates.map((c) =>
    [
      c.userName,
      c.studentId,
      c.startedAt.toISOString(),
      c.completedAt.toISOString(),
      c.timeSpent,
      ...questionHeaders.map((_q, i) => points(c.grades[i])),
      hundredths(c.score),
      hundredths(c.maxScore),
      percentage(c),
      c.status,
      c.focusLost,
      c.blockedPastes,
      c.fullscreenExits,
      ...processColumns(c.process),
      ...(extra.cellsOf(c.id) ?? blank),
    ].map(csvField),
  );
  return csvText([header.map(csvField), ...lines]);
}

/** Rows joined with commas and each line ended by CRLF (RFC 4180). */
const csvText = (rows: ReadonlyArray<readonly string[]>) => rows.map((cells) => `${cells.join(',')}\r\n`).join('');

/**
 * The UTF-8 byte-order mark Excel looks for: without it, Excel opens a double-clicked CSV in the system's legacy
 * code page and "José" reads "JosÃ©". Opt-in (the `bom` query), since LMS imports and scripts expect plain UTF-8.
 */
export const withBom = (csv: string) => `\uFEFF${csv}`;

/**
 * The gradebook variant: one row per candidate (the result the exam's keepGrade keeps), ready for a spreadsheet or
 * an LMS gradebook import. Identity first (name, candidate ID, and the roster's e-mail when `emailOf` is given),
 * each question's points under its title in the exam's order, then total, maximum, percentage, status and when it
 * was submitted. The total and percentage are blank while a grader has not finished, so a gradebook never receives
 * a score that will change (questions already marked keep their points).
 *
 * Import layouts. Moodle's "Import grades from CSV" lets the teacher map any column to a grade item and identify
 * users by a column matched against their e-mail, username or ID number (moodle/moodle
 * grade/import/csv/classes/load_data.php, map_user_data_with_value), so "Email" or "Candidate ID" and "Total" map
 * directly. Canvas' gradebook import needs a student column (name, Canvas ID or SIS User ID), SIS Login ID, Section
 * and one column per assignment, as its own gradebook export lays them out (Ohio State's CarmenCanvas guide,
 * teaching.resources.osu.edu/toolsets/carmencanvas/guides/calculating-final-grades/import-csv-file-carmen-grades):
 * export the course's gradebook and paste "Total" into the assignment's column, matched by candidate ID.
 */
export type GradebookCandidate = Pick<
  CsvCandidate,
  'userName' | 'studentId' | 'completedAt' | 'score' | 'maxScore' | 'status' | 'grades'
>;

export function gradebookCsv(
  candidates: ReadonlyArray<GradebookCandidate>,
  questionHeaders: readonly string[],
  emailOf?: (studentId: string) => string | null | undefined,
): string {
  const header = [
    'Name',
    'Candidate ID',
    ...(emailOf ? ['Email'] : []),
    ...questionHeaders,
    'Total',
    'Max',
    'Percentage',
    'Status',
    'Submitted at',
  ];
  const lines = candidates.map((c) => {
    const final = c.status !== 'pending';
    return [
      c.userName,
      c.studentId,
      ...(emailOf ? [emailOf(c.studentId) ?? null] : []),
      ...questionHeaders.map((_q, i) => points(c.grades[i])),
      final ? hundredths(c.score) : null,
      hundredths(c.maxScore),
      final ? Math.round(percentageOf(c.score, c.maxScore) * 10) / 10 : null,
      c.status,
      c.completedAt.toISOString(),
    ].map(csvField);
  });
  return csvText([header.map(csvField), ...lines]);
}
