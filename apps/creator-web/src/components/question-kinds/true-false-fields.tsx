import { FieldAlert } from './list-controls.tsx';
import { TRUE_FALSE, type TrueFalse } from '@exam/domain/question-kinds';
import { useTranslation } from 'react-i18next';
import { useQuestionField, useQuestionValue } from './use-question-field.ts';

/** A true/false question: the statement is the content; the key is whether it is true. */
export function TrueFalseFields({ index }: { index: number }) {
  const { t } = useTranslation('question-kinds');
  const { set, error } = useQuestionField(index);
  const key = useQuestionValue(index, 'correctAnswer');
  const n = index + 1;
  const problem = error('correctAnswer');
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-ink">{t('trueFalse.legend', { n })}</legend>
      <p className="text-xs text-muted">{t('trueFalse.hint')}</p>
      <div role="radiogroup" aria-label={t('trueFalse.legend', { n })} className="flex gap-6">
        {TRUE_FALSE.map((value: TrueFalse) => (
          <label key={value} className="flex items-center gap-2 text-sm text-ink">
            <input
              type="radio"
              name={`question-${index}-true-false`}
              className="h-4 w-4 accent-brand-600"
              checked={key === value}
              onChange={() => set('correctAnswer', value)}
            />
            {t(`trueFalse.${value}`)}
          </label>
        ))}
      </div>
      <FieldAlert message={problem} />
    </fieldset>
  );
}
