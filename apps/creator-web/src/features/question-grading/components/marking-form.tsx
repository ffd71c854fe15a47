import { formatPoints } from '@exam/domain/grading';
import type { QuestionAnswers } from '@exam/domain/question-grading';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { Input, Textarea } from '@exam/ui/input';
import { Select } from '@exam/ui/select';
import { Save, Sparkles } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../lib/api-client.ts';
import type { MarkingSession } from '../hooks/use-marking-session.ts';
import { parsePoints } from '../lib/mark-draft.ts';

/** How much of a bank comment the picker shows. */
const COMMENT_LABEL_CHARS = 80;

/** Feedback picked from the comment bank goes after what is already written, on its own line. */
const withComment = (feedback: string, comment: string) =>
  feedback.trim() === '' ? comment : `${feedback.trimEnd()}\n${comment}`;

/**
 * The mark for the item on screen: rubric ticks (the points are their sum), points, feedback with the question's
 * comment bank, and Save (which moves on to the next unmarked answer). Keys do the same (the shortcut legend).
 */
export function MarkingForm({ data, session }: { data: QuestionAnswers; session: MarkingSession }) {
  const { t } = useTranslation('question-grading');
  const pointsId = useId();
  const feedbackId = useId();
  const bankId = useId();
  const { draft, item } = session;
  if (!draft || !item) return null;
  const max = formatPoints(data.maxPoints);
  const outOfRange = draft.points !== '' && parsePoints(draft.points, data.maxPoints) === undefined;
  const pointsError = session.invalid || outOfRange ? t('form.pointsError', { max }) : undefined;
  const count = item.rows.length;
  return (
    <Card className="flex flex-col gap-4 p-5" role="form" aria-label={t('form.label')}>
      {draft.suggestionId && (
        <p className="flex items-center gap-2 text-sm text-brand-700" data-testid="taking-suggestion">
          <Sparkles aria-hidden className="h-4 w-4" /> {t('form.takingSuggestion')}
        </p>
      )}
      {data.rubric && (
        <fieldset className="flex flex-col gap-1">
          <legend className="text-sm font-medium text-ink">{data.rubric.title || t('form.rubric')}</legend>
          {data.rubric.criteria.map((c, index) => (
            <label key={c.id} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={draft.criteria.includes(c.id)}
                onChange={() => session.toggleCriterion(index)}
                aria-keyshortcuts={index < 9 ? String(index + 1) : undefined}
              />
              {index < 9 && (
                <kbd aria-hidden className="rounded border border-line px-1 text-xs text-muted">
                  {index + 1}
                </kbd>
              )}
              {t('form.criterionPoints', {
                description: c.description,
                points: formatPoints(c.points),
                count: c.points,
              })}
            </label>
          ))}
        </fieldset>
      )}
      <div className="flex flex-wrap items-end gap-2">
        <div className="flex flex-col gap-1">
          <label htmlFor={pointsId} className="text-sm font-medium text-ink">
            {t('form.points', { max })}
          </label>
          <Input
            id={pointsId}
            type="number"
            className="w-32"
            min={0}
            max={data.maxPoints}
            step={0.01}
            value={draft.points}
            aria-invalid={pointsError ? true : undefined}
            aria-describedby={pointsError ? `${pointsId}-error` : undefined}
            onChange={(e) => session.setDraft({ ...draft, points: e.target.value, criteria: [] })}
          />
        </div>
        <Button
          variant={draft.points === max ? 'primary' : 'secondary'}
          size="sm"
          onClick={() => session.setPoints(data.maxPoints)}
          aria-keyshortcuts="F"
        >
          {t('form.fullMarks')}
        </Button>
        <Button
          variant={draft.points === '0' ? 'primary' : 'secondary'}
          size="sm"
          onClick={() => session.setPoints(0)}
          aria-keyshortcuts="0"
        >
          {t('form.zero')}
        </Button>
      </div>
      {pointsError && (
        <p id={`${pointsId}-error`} role="alert" className="text-xs text-danger">
          {pointsError}
        </p>
      )}
      <div className="flex flex-col gap-1">
        <label htmlFor={feedbackId} className="text-sm font-medium text-ink">
          {t('form.feedback')}
        </label>
        <Textarea
          id={feedbackId}
          value={draft.feedback}
          maxLength={20000}
          onChange={(e) => session.setDraft({ ...draft, feedback: e.target.value })}
          placeholder={t('form.feedbackPlaceholder')}
          aria-keyshortcuts="Control+Enter Meta+Enter"
        />
      </div>
      {data.commentBank.length > 0 && (
        <div className="flex flex-col gap-1">
          <label htmlFor={bankId} className="text-sm font-medium text-ink">
            {t('form.commentBank')}
          </label>
          <Select
            id={bankId}
            value=""
            placeholder={t('form.commentBankPlaceholder')}
            options={data.commentBank.map((entry, index) => ({
              value: String(index),
              label: t('form.comment', {
                text:
                  entry.text.length > COMMENT_LABEL_CHARS ? `${entry.text.slice(0, COMMENT_LABEL_CHARS)}…` : entry.text,
                count: entry.uses,
              }),
            }))}
            onValueChange={(value) => {
              const comment = data.commentBank[Number(value)];
              if (comment) session.setDraft({ ...draft, feedback: withComment(draft.feedback, comment.text) });
            }}
          />
        </div>
      )}
      {session.mark.isError && (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-danger">
          {t('form.saveFailed', { message: userMessageOf(session.mark.error) })}
        </p>
      )}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-muted">{count > 1 ? t('form.appliesToAll', { count }) : ''}</p>
        <Button onClick={() => session.save()} disabled={session.mark.isPending} aria-keyshortcuts="Enter">
          <Save aria-hidden className="h-4 w-4" /> {session.mark.isPending ? t('form.saving') : t('form.save')}
        </Button>
      </div>
    </Card>
  );
}
