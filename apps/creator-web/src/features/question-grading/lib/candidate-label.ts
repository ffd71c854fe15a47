import type { QuestionAnswerRow } from '@exam/domain/question-grading';
import { i18n } from '../../../i18n/index.ts';

/** "Candidate 7" while names are hidden (anonymous grading); "Ada Lovelace (S-12)" once the grader shows them. */
export function candidateLabel(row: Pick<QuestionAnswerRow, 'number' | 'candidate'>): string {
  if (!row.candidate) return i18n.t('question-grading:candidate.anonymous', { n: row.number });
  const name = row.candidate.name.trim() || i18n.t('question-grading:candidate.anonymous', { n: row.number });
  return row.candidate.studentId
    ? i18n.t('question-grading:candidate.named', { name, studentId: row.candidate.studentId })
    : name;
}

/** A file's size as people read it (B, KB, MB). */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return i18n.t('common:size.bytes', { size: bytes });
  if (bytes < 1024 * 1024) return i18n.t('common:size.kilobytes', { size: (bytes / 1024).toFixed(1) });
  return i18n.t('common:size.megabytes', { size: (bytes / (1024 * 1024)).toFixed(1) });
}
