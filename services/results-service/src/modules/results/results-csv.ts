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
 * One row per submitted candidate: each question's points, then the score, maximum, percentage and status
 * as every screen shows them, the integrity counts, the process columns (processColumns) and the `extra` columns.
 * Lines end with CRLF as RFC 4180 specifies.
 */
export function resultsCsv(
  candidates: CsvCandidate[],
  questionCount: number,
  extra: CsvExtraColumns = { header: [], cellsOf: () => undefined },
): string {
  const blank = extra.header.map(() => null);
  const questions = Array.from({ length: questionCount }, (_v, i) => `q${i + 1}`);
  const header = [
    'name',
    'studentId',
    'startedAt',
    'completedAt',
    'timeSpent',
    ...questions,
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
      ...questions.map((_q, i) => points(c.grades[i])),
      hundredths(c.score),
      hundredths(c.maxScore),
      percentage(c),
      c.status,
      c.focusLost,
      c.blockedPastes,
      c.fullscreenExits,
      ...processColumns(c.process),
      ...(extra.cellsOf(c.id) ?? blank),
    ]
      .map(csvField)
      .join(','),
  );
  return [header.join(','), ...lines].map((line) => `${line}\r\n`).join('');
}

/**
 * The gradebook variant: one row per candidate (the result the exam's keepGrade keeps), with the points and
 * the maximum an LMS gradebook imports (Canvas and Moodle read a name or ID column and a points column). The
 * points are blank while a grader has not finished, so a gradebook never receives a score that will change.
 */
export type GradebookCandidate = Pick<
  CsvCandidate,
  'userName' | 'studentId' | 'completedAt' | 'score' | 'maxScore' | 'status'
>;

export function gradebookCsv(candidates: ReadonlyArray<GradebookCandidate>): string {
  const header = ['name', 'studentId', 'points', 'maxPoints', 'percentage', 'status', 'completedAt'];
  const lines = candidates.map((c) => {
    const final = c.status !== 'pending';
    return [
      c.userName,
      c.studentId,
      final ? hundredths(c.score) : null,
      hundredths(c.maxScore),
      final ? Math.round(percentageOf(c.score, c.maxScore) * 10) / 10 : null,
      c.status,
      c.completedAt.toISOString(),
    ]
      .map(csvField)
      .join(',');
  });
  return [header.join(','), ...lines].map((line) => `${line}\r\n`).join('');
}
