import type { FollowUpForGrader } from '@exam/domain/follow-up';
import { formatPoints } from '@exam/domain/grading';
import type { QuestionAnswer } from '@exam/domain/result';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../lib/api-client.ts';
import { FollowUpQuestion } from './follow-up-question.tsx';
// Follow-ups name the probed question in the exam's own order, as the cards are listed.
import { examIndexOf } from '../lib/exam-numbering.ts';

type FollowUpQuery = UseQueryResult<FollowUpForGrader>;

/**
 * The follow-up's own figure, kept apart from the exam's score (it is never added to it): "Follow-up: 3 of 4
 * points (2 of 2 marked)", or why there is none yet. Nothing for an exam without follow-up questions.
 */
export function FollowUpSummary({ query }: { query: FollowUpQuery }) {
  const { t } = useTranslation('grading');
  if (query.isPending) return null;
  if (query.isError) {
    return (
      <p className="text-sm text-danger" data-testid="follow-up-summary">
        {t('followUp.loadFailed', { message: userMessageOf(query.error) })}
      </p>
    );
  }
  const { status, note, points, questions } = query.data;
  if (status === 'off') return null;
  if (status === 'skipped') {
    return (
      <div className="text-sm" data-testid="follow-up-summary">
        <p className="font-medium text-ink">{t('followUp.skipped')}</p>
        {note && <p className="text-xs text-muted">{note}</p>}
      </div>
    );
  }
  const text =
    status === 'pending' || status === 'asking'
      ? t('followUp.notFinished')
      : t('followUp.summary', {
          awarded: formatPoints(points.awarded),
          max: formatPoints(points.max),
          count: points.max,
          marked: points.marked,
          total: questions.length,
        });
  return (
    <div aria-live="polite" className="text-sm" data-testid="follow-up-summary">
      <p className="font-medium text-ink">{text}</p>
      {status === 'done' && <p className="text-xs text-muted">{t('followUp.notInScore')}</p>}
    </div>
  );
}

/** The follow-up questions that probe one answer, for the bottom of that answer's card. */
export function FollowUpsForQuestion({
  resultId,
  followUp,
  examQuestionIndex,
}: {
  resultId: string;
  followUp: FollowUpForGrader | undefined;
  examQuestionIndex: number;
}) {
  const { t } = useTranslation('grading');
  const questions = followUp?.questions.filter((q) => q.questionIndex === examQuestionIndex) ?? [];
  if (!followUp || followUp.status === 'off' || questions.length === 0) return null;
  return (
    <div className="flex flex-col gap-3 border-t border-line pt-3">
      <p className="text-xs font-medium uppercase tracking-wide text-muted">{t('followUp.aboutThisAnswer')}</p>
      {questions.map((q) => (
        <FollowUpQuestion
          key={q.n}
          resultId={resultId}
          status={followUp.status}
          rubric={followUp.rubric}
          question={q}
        />
      ))}
    </div>
  );
}

/** Follow-ups whose probed question has no card on the page (it should not happen; they are still shown). */
export function OtherFollowUps({
  resultId,
  followUp,
  answers,
}: {
  resultId: string;
  followUp: FollowUpForGrader | undefined;
  answers: ReadonlyArray<Pick<QuestionAnswer, 'questionIndex' | 'examQuestionIndex'>>;
}) {
  const { t } = useTranslation('grading');
  const shown = new Set(answers.map(examIndexOf));
  const others = followUp?.questions.filter((q) => !shown.has(q.questionIndex)) ?? [];
  if (!followUp || followUp.status === 'off' || others.length === 0) return null;
  return (
    <Card>
      <CardHeader title={t('followUp.otherTitle')} />
      <CardBody className="flex flex-col gap-3">
        {others.map((q) => (
          <FollowUpQuestion
            key={q.n}
            resultId={resultId}
            status={followUp.status}
            rubric={followUp.rubric}
            question={q}
          />
        ))}
      </CardBody>
    </Card>
  );
}
