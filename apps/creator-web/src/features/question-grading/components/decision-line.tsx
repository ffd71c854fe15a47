import type { QuestionAnswerRow } from '@exam/domain/question-grading';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format-date.ts';

/** Who decided the answer's mark and when: "Suggested by AI, accepted by ada@example.com · Jan 5, 2025 14:30". */
export function DecisionLine({ row }: { row: Pick<QuestionAnswerRow, 'decision'> }) {
  const { t } = useTranslation('question-grading');
  const decision = row.decision;
  if (!decision) return null;
  const by = { by: decision.by, at: formatDateTime(decision.at) };
  return (
    <p className="text-xs text-muted" data-testid="answer-decision">
      {decision.suggestion === 'accepted'
        ? t('decision.accepted', by)
        : decision.suggestion === 'edited'
          ? t('decision.edited', by)
          : t('decision.marked', by)}
    </p>
  );
}
