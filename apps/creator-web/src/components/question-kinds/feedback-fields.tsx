import { Field } from '@exam/ui/field';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { useId, useState } from 'react';
import { Textarea } from '@exam/ui/input';
import { useTranslation } from 'react-i18next';
import { useQuestionField, useQuestionValue } from './use-question-field.ts';

const VERDICTS = ['general', 'correct', 'partial', 'incorrect'] as const;

/**
 * What the candidate is told about the question (question-kinds.ts QuestionFeedback) while a practice exam is sat
 * and in a released result's review; per option for an MCQ and a true/false question. Folded away: most questions
 * have none.
 */
export function FeedbackFields({ index }: { index: number }) {
  const { t } = useTranslation('question-kinds');
  const { set, error } = useQuestionField(index);
  const type = useQuestionValue(index, 'type');
  const feedback = useQuestionValue(index, 'feedback');
  const options = useQuestionValue(index, 'options') ?? [];
  const optionFeedback = useQuestionValue(index, 'optionFeedback') ?? [];
  const n = index + 1;
  const labels = type === 'true-false' ? [t('trueFalse.true'), t('trueFalse.false')] : type === 'mcq' ? options : [];
  const written =
    VERDICTS.filter((v) => (feedback?.[v] ?? '').trim() !== '').length +
    optionFeedback.filter((f) => f.trim() !== '').length;
  // Folded unless something is written; its fields are rendered only when open (an exam has many questions).
  const [open, setOpen] = useState(written > 0);
  const bodyId = useId();
  // A message about the feedback opens it, so the message is seen.
  const shown = open || Boolean(error('optionFeedback'));
  const setOption = (i: number, value: string) =>
    set(
      'optionFeedback',
      labels.map((_l, k) => (k === i ? value : (optionFeedback[k] ?? ''))),
    );
  return (
    <div className="rounded-lg border border-line px-3 py-2">
      <button
        type="button"
        aria-expanded={shown}
        aria-controls={bodyId}
        className="flex items-center gap-1 text-sm font-medium text-ink"
        onClick={() => setOpen((o) => !o)}
      >
        {shown ? <ChevronDown aria-hidden className="h-4 w-4" /> : <ChevronRight aria-hidden className="h-4 w-4" />}
        {t('feedback.summary', { n })}
      </button>
      {written > 0 && <span className="ml-5 text-xs text-muted">{t('feedback.written', { count: written })}</span>}
      {shown && (
        <div id={bodyId} className="mt-3 flex flex-col gap-3">
          <p className="text-xs text-muted">{t('feedback.hint')}</p>
          <div className="grid gap-3 md:grid-cols-2">
            {VERDICTS.map((verdict) => (
              <Field key={verdict} label={t(`feedback.${verdict}`, { n })} error={error(`feedback.${verdict}`)}>
                <Textarea
                  rows={2}
                  value={feedback?.[verdict] ?? ''}
                  onChange={(e) => set(`feedback.${verdict}`, e.target.value)}
                />
              </Field>
            ))}
          </div>
          {labels.length > 0 && (
            <fieldset className="flex flex-col gap-2">
              <legend className="mb-1 text-sm font-medium text-ink">{t('feedback.perOption', { n })}</legend>
              {labels.map((label, i) => (
                <Field
                  key={i}
                  label={t('feedback.option', { n, k: i + 1, option: label.trim() || t('feedback.optionBlank') })}
                >
                  <Textarea rows={1} value={optionFeedback[i] ?? ''} onChange={(e) => setOption(i, e.target.value)} />
                </Field>
              ))}
              {error('optionFeedback') && (
                <p role="alert" className="text-xs text-danger">
                  {error('optionFeedback')}
                </p>
              )}
            </fieldset>
          )}
        </div>
      )}
    </div>
  );
}
