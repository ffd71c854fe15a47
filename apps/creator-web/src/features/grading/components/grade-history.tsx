import { formatPoints } from '@exam/domain/grading';
import type { GradeHistoryEntry } from '@exam/domain/result';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { formatDateTime } from '../../../lib/format-date.ts';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../../i18n/index.ts';
import { ownNumber, type ExamNumberOf } from '../lib/exam-numbering.ts';
import { useExamNumber } from './question-numbering.tsx';

const pointsOf = (side: GradeHistoryEntry['before']) =>
  side?.points === null || side?.points === undefined ? '—' : formatPoints(side.points);

/** Who decided: the grader, or "suggested by AI, accepted (edited) by" the grader when the mark took a suggestion. */
function decidedBy(entry: GradeHistoryEntry): string {
  if (entry.suggestion === 'accepted') return i18n.t('grading:gradeHistory.suggestionAccepted', { by: entry.by });
  if (entry.suggestion === 'edited') return i18n.t('grading:gradeHistory.suggestionEdited', { by: entry.by });
  return entry.by;
}

/**
 * "{time} · {by} · Q{n}: {before} → {after} points", or the release row of the whole result. Entries name the
 * candidate's question; n is the exam's number of it.
 */
export function historyLine(entry: GradeHistoryEntry, numberOf: ExamNumberOf = ownNumber): string {
  const head = { at: formatDateTime(entry.at), by: decidedBy(entry) };
  if (entry.kind === 'release') return i18n.t('grading:gradeHistory.released', head);
  if (entry.kind === 'unrelease') return i18n.t('grading:gradeHistory.unreleased', head);
  const question =
    entry.questionIndex === null
      ? i18n.t('grading:gradeHistory.result')
      : i18n.t('grading:gradeHistory.question', { n: numberOf(entry.questionIndex) });
  const line = i18n.t('grading:gradeHistory.change', {
    ...head,
    question,
    before: pointsOf(entry.before),
    after: pointsOf(entry.after),
    count: entry.after?.points ?? 0,
    context: entry.kind === 'tests' ? 'tests' : undefined,
  });
  return entry.reason ? i18n.t('grading:gradeHistory.withReason', { line, reason: entry.reason }) : line;
}

/** The result's append-only grade history, oldest first (docs/product.md#results-and-grading). */
export function GradeHistory({ history }: { history: GradeHistoryEntry[] }) {
  const { t } = useTranslation('grading');
  const numberOf = useExamNumber();
  return (
    <Card>
      <CardHeader title={t('gradeHistory.gradeHistory')} />
      <CardBody>
        {history.length === 0 ? (
          <p className="text-sm text-muted">{t('gradeHistory.noGradingChangesYet')}</p>
        ) : (
          <ul aria-label={t('gradeHistory.gradeHistory')} className="flex flex-col gap-1 text-sm">
            {history.map((entry, i) => (
              <li key={`${entry.at}-${i}`}>{historyLine(entry, numberOf)}</li>
            ))}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}
