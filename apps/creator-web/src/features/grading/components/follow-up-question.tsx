import type { FollowUpForGrader, FollowUpRubricLevel } from '@exam/domain/follow-up';
import { formatPoints } from '@exam/domain/grading';
import { Badge } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { Textarea } from '@exam/ui/input';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, userMessageOf } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { useMarkFollowUp } from '../api/follow-up.ts';

type FollowUpQuestionData = FollowUpForGrader['questions'][number];
type MarkMutation = ReturnType<typeof useMarkFollowUp>;

/** Still being asked, and this one has no answer yet: nothing to mark. */
const isOpen = (status: FollowUpForGrader['status'], q: FollowUpQuestionData) =>
  (status === 'pending' || status === 'asking') && q.answeredAt === null && !q.timedOut;

/**
 * One follow-up question as a grader reads it beside the answer it probes (docs/product.md, "Follow-up questions"):
 * what the assistant asked, what the candidate answered and when, and a mark on the exam's follow-up rubric.
 */
export function FollowUpQuestion({
  resultId,
  status,
  rubric,
  question,
}: {
  resultId: string;
  status: FollowUpForGrader['status'];
  rubric: FollowUpRubricLevel[];
  question: FollowUpQuestionData;
}) {
  const { t } = useTranslation('grading');
  const headingId = useId();
  const save = useMarkFollowUp(resultId, question.n);
  const { n, mark } = question;
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-lg border border-line bg-canvas p-4"
      data-testid={`follow-up-${n}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <h4 id={headingId} className="font-semibold text-ink">
          {t('followUp.questionN', { n })}
        </h4>
        {question.timedOut && <Badge tone="warning">{t('followUp.timedOut')}</Badge>}
        {mark && <Badge tone="brand">{t('followUp.marked')}</Badge>}
      </div>
      <p className="whitespace-pre-wrap text-sm text-ink">{question.text}</p>
      <div>
        <p className="text-xs font-medium uppercase tracking-wide text-muted">{t('followUp.answer')}</p>
        <pre className="mt-1 whitespace-pre-wrap break-words rounded-md bg-surface p-3 font-sans text-sm text-ink">
          {question.answer.trim() === '' ? t('followUp.noAnswer') : question.answer}
        </pre>
        <p className="mt-1 text-xs text-muted">
          {question.askedAt ? t('followUp.askedAt', { at: formatDateTime(question.askedAt) }) : t('followUp.notAsked')}
          {' · '}
          {question.answeredAt
            ? t('followUp.answeredAt', { at: formatDateTime(question.answeredAt) })
            : t('followUp.notAnswered')}
        </p>
      </div>
      {isOpen(status, question) ? (
        <p className="text-sm text-muted">{t('followUp.notAnsweredYet')}</p>
      ) : (
        // Keyed by the saved mark, so the choices start again from what the server holds after each save or clear.
        <FollowUpMarking key={mark?.markedAt ?? 'unmarked'} rubric={rubric} question={question} save={save} />
      )}
      <p role="status" className="text-xs text-muted">
        {mark &&
          t('followUp.markedBy', {
            by: mark.markedBy,
            at: formatDateTime(mark.markedAt),
            level: rubric[mark.level]?.label ?? t('followUp.levelN', { n: mark.level + 1 }),
            points: formatPoints(mark.points),
            count: mark.points,
          })}
      </p>
    </section>
  );
}

/** The rubric as radio buttons, feedback, and explicit Save and Clear (a mark is never saved by a click alone). */
function FollowUpMarking({
  rubric,
  question,
  save,
}: {
  rubric: FollowUpRubricLevel[];
  question: FollowUpQuestionData;
  save: MarkMutation;
}) {
  const { t } = useTranslation('grading');
  const name = useId();
  const feedbackId = useId();
  const errorId = useId();
  const { n, mark } = question;
  const [level, setLevel] = useState<number | null>(mark?.level ?? null);
  const [feedback, setFeedback] = useState(mark?.feedback ?? '');
  const issues = save.error instanceof ApiError ? save.error.issues : [];
  const levelError = issues.find((i) => i.path.replace(/^body\./, '') === 'level')?.message;
  const feedbackError = issues.find((i) => i.path.replace(/^body\./, '') === 'feedback')?.message;
  const otherError = save.isError && !levelError && !feedbackError ? userMessageOf(save.error) : null;
  const unchanged = mark !== null && mark.level === level && mark.feedback === feedback;
  const canClear = mark !== null || level !== null || feedback !== '';

  const clear = () => {
    if (mark) save.mutate({ level: null, feedback: '' });
    else {
      setLevel(null);
      setFeedback('');
      save.reset();
    }
  };

  return (
    <div className="flex flex-col gap-3 border-t border-line pt-3">
      <fieldset
        role="radiogroup"
        className="flex flex-col gap-1"
        aria-invalid={levelError ? true : undefined}
        aria-describedby={levelError ? errorId : undefined}
      >
        <legend className="mb-1 text-sm font-medium text-ink">{t('followUp.levelLegend', { n })}</legend>
        {rubric.map((l, i) => (
          <label key={i} className="flex items-start gap-2 text-sm">
            <input
              type="radio"
              name={name}
              value={i}
              checked={level === i}
              onChange={() => setLevel(i)}
              className="mt-1"
            />
            <span>
              {t('followUp.levelOption', { label: l.label, points: formatPoints(l.points), count: l.points })}
            </span>
          </label>
        ))}
        {levelError && (
          <p id={errorId} role="alert" className="text-xs text-danger">
            {levelError}
          </p>
        )}
      </fieldset>
      <div className="flex flex-col gap-1">
        <label htmlFor={feedbackId} className="text-sm font-medium text-ink">
          {t('followUp.feedbackLabel', { n })}
        </label>
        <Textarea
          id={feedbackId}
          value={feedback}
          maxLength={2000}
          rows={2}
          aria-invalid={feedbackError ? true : undefined}
          aria-describedby={feedbackError ? `${feedbackId}-error` : undefined}
          onChange={(e) => setFeedback(e.target.value)}
          placeholder={t('followUp.feedbackPlaceholder')}
        />
        {feedbackError && (
          <p id={`${feedbackId}-error`} role="alert" className="text-xs text-danger">
            {feedbackError}
          </p>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          disabled={level === null || unchanged || save.isPending}
          onClick={() => level !== null && save.mutate({ level, feedback })}
        >
          {save.isPending ? t('followUp.saving') : t('followUp.save')}
        </Button>
        <Button variant="ghost" size="sm" disabled={!canClear || save.isPending} onClick={clear}>
          {t('followUp.clear')}
        </Button>
      </div>
      {otherError && (
        <p role="alert" className="text-sm text-danger">
          {t('followUp.saveFailed', { message: otherError })}
        </p>
      )}
    </div>
  );
}
