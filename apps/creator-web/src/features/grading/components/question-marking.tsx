import { formatPoints } from '@exam/domain/grading';
import type { QuestionAnswer } from '@exam/domain/result';
import { Button } from '@exam/ui/button';
import { Input, Textarea } from '@exam/ui/input';
import { useEffect, useId, useState } from 'react';
import { parsePoints, testsDone, type QuestionGrade } from '../grading-state.ts';
import { examIndexOf } from '../lib/exam-numbering.ts';
import { useTranslation } from 'react-i18next';

export type MarkingActions = {
  onPoints: (points: number) => void;
  onClear: () => void;
  onCriteria: (ticked: string[]) => void;
  onFeedback: (feedback: string) => void;
  onReason: (reason: string) => void;
};

/** The typed points follow the grade unless the grader is mid-way through typing a number. */
function usePointsDraft(points: number | null) {
  const [draft, setDraft] = useState(points === null ? '' : formatPoints(points));
  useEffect(() => {
    setDraft((current) =>
      Number(current) === points && current !== '' ? current : points === null ? '' : formatPoints(points),
    );
  }, [points]);
  return [draft, setDraft] as const;
}

/**
 * A grader's controls for one question (docs/product.md#results-and-grading): explicit actions only. Full
 * marks and Zero set the points (pressing one again changes nothing), Clear mark removes the mark, and a
 * rubric's ticked criteria add up to the points.
 */
export function QuestionMarking({
  qa,
  grade,
  actions,
  reasonError,
}: { qa: QuestionAnswer; grade: QuestionGrade } & {
  actions: MarkingActions;
  /** The server's refusal of a mark without a reason (400 grading.<n>.reason). */
  reasonError?: string | undefined;
}) {
  const { t } = useTranslation('grading');
  // Labels name the question by the exam's number, as its card is headed.
  const n = examIndexOf(qa) + 1;
  const pointsId = useId();
  const feedbackId = useId();
  const reasonId = useId();
  // Once the tests have set the points, a grader's different mark must say why (kept in the grade history).
  const overridesTests = testsDone(qa) && grade.touched && grade.points !== qa.points;
  const needsReason = overridesTests && !grade.reason?.trim();
  const [draft, setDraft] = usePointsDraft(grade.points);
  const invalid = draft !== '' && parsePoints(draft, qa.maxPoints) === undefined;

  return (
    <div className="flex flex-col gap-3 border-t border-line pt-3">
      <div className="flex flex-wrap items-end gap-2">
        <div className="flex flex-col gap-1">
          <label htmlFor={pointsId} className="text-sm font-medium text-ink">
            {t('questionMarking.pointsForQuestionN', { n })}
          </label>
          <Input
            id={pointsId}
            type="number"
            className="w-32"
            min={0}
            max={qa.maxPoints}
            step={0.01}
            value={draft}
            aria-invalid={invalid || undefined}
            aria-describedby={invalid ? `${pointsId}-error` : undefined}
            onChange={(e) => {
              setDraft(e.target.value);
              const points = parsePoints(e.target.value, qa.maxPoints);
              if (points !== undefined) actions.onPoints(points);
            }}
          />
        </div>
        <Button
          variant={grade.points === qa.maxPoints ? 'primary' : 'secondary'}
          size="sm"
          onClick={() => actions.onPoints(qa.maxPoints)}
        >
          {t('questionMarking.fullMarks')}
        </Button>
        <Button variant={grade.points === 0 ? 'primary' : 'secondary'} size="sm" onClick={() => actions.onPoints(0)}>
          {t('questionMarking.zero')}
        </Button>
        <Button variant="ghost" size="sm" onClick={actions.onClear}>
          {t('questionMarking.clearMark')}
        </Button>
      </div>
      {invalid && (
        <p id={`${pointsId}-error`} className="text-xs text-danger">
          {t('questionMarking.pointsGoFrom0', { maxPoints: formatPoints(qa.maxPoints) })}
        </p>
      )}
      {testsDone(qa) && (overridesTests || grade.reason || reasonError) && (
        <div className="flex flex-col gap-1">
          <label htmlFor={reasonId} className="text-sm font-medium text-ink">
            {t('questionMarking.reasonForOverridingThe', { n })}
          </label>
          <Textarea
            id={reasonId}
            value={grade.reason ?? ''}
            maxLength={2000}
            rows={2}
            aria-invalid={Boolean(reasonError) || needsReason || undefined}
            aria-describedby={`${reasonId}-note`}
            onChange={(e) => actions.onReason(e.target.value)}
            placeholder={t('questionMarking.whyYourMarkDiffers')}
          />
          <p id={`${reasonId}-note`} role={reasonError ? 'alert' : undefined} className="text-xs text-danger">
            {reasonError ?? (needsReason ? t('questionMarking.aReasonIsRequired') : '')}
          </p>
        </div>
      )}
      {qa.rubric && (
        <fieldset className="flex flex-col gap-1">
          <legend className="text-sm font-medium text-ink">{qa.rubric.title || t('questionMarking.rubric')}</legend>
          {qa.rubric.criteria.map((c) => (
            <label key={c.id} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={grade.criteria.includes(c.id)}
                onChange={(e) =>
                  actions.onCriteria(
                    e.target.checked ? [...grade.criteria, c.id] : grade.criteria.filter((id) => id !== c.id),
                  )
                }
              />
              {t('questionMarking.descriptionPoints', {
                description: c.description,
                points: formatPoints(c.points),
                count: c.points,
              })}
            </label>
          ))}
        </fieldset>
      )}
      <div className="flex flex-col gap-1">
        <label htmlFor={feedbackId} className="text-sm font-medium text-ink">
          {t('questionMarking.feedbackForQuestionN', { n })}
        </label>
        <Textarea
          id={feedbackId}
          value={grade.feedback}
          maxLength={20000}
          onChange={(e) => actions.onFeedback(e.target.value)}
          placeholder={t('questionMarking.optionalFeedbackForThe')}
        />
      </div>
    </div>
  );
}
