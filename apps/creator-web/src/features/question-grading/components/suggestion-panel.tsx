import { formatPoints } from '@exam/domain/grading';
import type { GradingSuggestion, QuestionAnswers } from '@exam/domain/question-grading';
import { Badge } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Progress } from '@exam/ui/progress';
import { Sparkles } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useSuggestMark } from '../api/suggest-marks.ts';
import type { MarkingSession } from '../hooks/use-marking-session.ts';
import type { AnswerItem } from '../lib/answer-items.ts';
import { SuggestionBatchControls } from './suggestion-batch.tsx';
import { formatCount } from '../../../lib/format-number.ts';

type Props = { examId: string; data: QuestionAnswers; session: MarkingSession };

/** The exam's grading budget: tokens its suggestions used of those the creator allowed. */
function Budget({ data }: { data: QuestionAnswers }) {
  const { t } = useTranslation('question-grading');
  const { usedTokens, budgetTokens } = data.suggestions;
  if (budgetTokens <= 0) return null;
  return (
    <div className="flex flex-col gap-1" data-testid="grading-budget">
      <p className="text-xs text-muted">
        {t('suggestion.budget', { used: formatCount(usedTokens), budget: formatCount(budgetTokens) })}
      </p>
      <Progress value={(usedTokens / budgetTokens) * 100} label={t('suggestion.budgetLabel')} />
    </div>
  );
}

/** One suggestion: points, points per criterion, the rationale and the passage it quotes, and its doubts. */
function SuggestionView({ suggestion, data, session }: { suggestion: GradingSuggestion } & Omit<Props, 'examId'>) {
  const { t } = useTranslation('question-grading');
  const criteria = new Map(data.rubric?.criteria.map((c) => [c.id, c]) ?? []);
  return (
    <div className="flex flex-col gap-3" data-testid="suggestion">
      <p className="text-sm font-semibold text-ink" data-testid="suggested-points">
        {t('suggestion.points', {
          points: formatPoints(suggestion.points),
          max: formatPoints(data.maxPoints),
          count: data.maxPoints,
        })}
      </p>
      {suggestion.uncertain && (
        <Badge tone="warning" className="self-start" data-testid="suggestion-uncertain">
          {t('suggestion.uncertain', { samples: suggestion.samplePoints.map(formatPoints).join(', ') })}
        </Badge>
      )}
      {!suggestion.current && <p className="text-xs text-danger">{t('suggestion.stale')}</p>}
      {suggestion.rubric.length > 0 && (
        <ul className="flex flex-col gap-0.5 text-sm" aria-label={t('suggestion.perCriterion')}>
          {suggestion.rubric.map((r) => {
            const criterion = criteria.get(r.criterionId);
            return (
              <li key={r.criterionId} className="flex justify-between gap-2">
                <span>{criterion?.description ?? r.criterionId}</span>
                <span className="tabular-nums">
                  {t('suggestion.criterionPoints', {
                    points: formatPoints(r.points),
                    max: formatPoints(criterion?.points ?? r.points),
                  })}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <p className="text-sm text-ink" data-testid="suggestion-rationale">
        {suggestion.rationale}
      </p>
      {suggestion.quote && (
        <blockquote className="border-l-2 border-yellow-300 pl-2 text-sm">
          <span className="sr-only">{t('suggestion.quoteLabel')}</span>
          <mark className="bg-yellow-100">{suggestion.quote}</mark>
        </blockquote>
      )}
      <p className="text-xs text-muted">
        {t('suggestion.madeBy', { provider: suggestion.provider, model: suggestion.model })}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          onClick={() => session.accept()}
          disabled={!suggestion.current || session.mark.isPending}
          aria-keyshortcuts="A"
        >
          {t('suggestion.accept')}
        </Button>
        <Button variant="secondary" size="sm" onClick={() => session.edit()} disabled={session.mark.isPending}>
          {t('suggestion.edit')}
        </Button>
      </div>
    </div>
  );
}

/** "Suggest a mark" for the item on screen: a group asks with its representative's answer and its mark covers all. */
function SuggestOne({ examId, questionIndex, item }: { examId: string; questionIndex: number; item: AnswerItem }) {
  const { t } = useTranslation('question-grading');
  const suggest = useSuggestMark(examId, questionIndex);
  const group = item.rows.length > 1 ? item.rows.length : 0;
  return (
    <div className="flex flex-col gap-2">
      <Button
        variant="secondary"
        disabled={suggest.isPending}
        onClick={() => suggest.mutate(item.representative.resultId)}
      >
        <Sparkles aria-hidden className="h-4 w-4" />{' '}
        {suggest.isPending ? t('suggestion.asking') : t('suggestion.suggest')}
      </Button>
      {group > 0 && <p className="text-xs text-muted">{t('suggestion.forGroup', { count: group })}</p>}
      {suggest.isError && (
        <p role="alert" className="text-sm text-danger">
          {userMessageOf(suggest.error)}
        </p>
      )}
    </div>
  );
}

/**
 * AI-suggested marks beside the answer (docs/product.md): ask for one answer's (a group's representative stands for
 * the group), or for every unmarked answer in a batch. A suggestion is applied only when the grader accepts or
 * edits it; without a provider the panel says why and everything else keeps working.
 */
export function SuggestionPanel({ examId, data, session }: Props) {
  const { t } = useTranslation('question-grading');
  const { available, reason } = data.suggestions;
  const item = session.item;
  return (
    <Card role="region" aria-label={t('suggestion.title')}>
      <CardHeader title={t('suggestion.title')} />
      <CardBody className="flex flex-col gap-4">
        {!data.humanGraded ? (
          <p className="text-sm text-muted">{t('suggestion.notHumanGraded')}</p>
        ) : (
          <>
            {!available && (
              <p className="text-sm text-ink" data-testid="suggestions-unavailable">
                {reason ?? t('suggestion.unavailable')}
              </p>
            )}
            {available && item && (
              // Keyed by the item: another answer starts without the last one's error.
              <SuggestOne key={item.key} examId={examId} questionIndex={data.questionIndex} item={item} />
            )}
            {/* A suggestion made before the provider went away can still be taken: it needs no provider. */}
            {session.suggestion && <SuggestionView suggestion={session.suggestion} data={data} session={session} />}
            <SuggestionBatchControls examId={examId} questionIndex={data.questionIndex} canStart={available} />
          </>
        )}
        <Budget data={data} />
      </CardBody>
    </Card>
  );
}
