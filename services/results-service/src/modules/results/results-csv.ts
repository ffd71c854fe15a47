import type { StoredGrade } from '../../grading/snapshot.ts';

export type CsvCandidate = {
  userName: string;
  studentId: string;
  startedAt: Date;
  completedAt: Date;
  timeSpent: number;
  grades: StoredGrade[];
  score: number | null;
  focusLost: number;
  blockedPastes: number;
  fullscreenExits: number;
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

/** 1 for correct, 0 for graded incorrect, blank while a grader has not decided. */
const mark = (grade: StoredGrade | undefined) => (grade?.isGraded ? (grade.isCorrect === true ? 1 : 0) : null);

/** One row per submitted candidate; lines end with CRLF as RFC 4180 specifies. */
export function resultsCsv(candidates: CsvCandidate[], questionCount: number): string {
  const questions = Array.from({ length: questionCount }, (_v, i) => `q${i + 1}`);
  const header = [
    'name',
    'studentId',
    'startedAt',
    'completedAt',
    'timeSpent',
    ...questions,
    'score',
    'focusLost',
    'blockedPastes',
    'fullscreenExits',
  ];
  const lines = candidates.map((c) =>
    [
      c.userName,
      c.studentId,
      c.startedAt.toISOString(),
      c.completedAt.toISOString(),
      c.timeSpent,
      ...questions.map((_q, i) => mark(c.grades[i])),
      c.score,
      c.focusLost,
      c.blockedPastes,
      c.fullscreenExits,
    ]
      .map(csvField)
      .join(','),
  );
  return [header.join(','), ...lines].map((line) => `${line}\r\n`).join('');
}
