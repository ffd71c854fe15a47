import { TRUE_FALSE } from '@exam/domain/question-kinds';
import { useTranslation } from 'react-i18next';
import { WHOLE, type KindAnswerProps } from './kind-answer-props.ts';

const optionClass =
  'flex cursor-pointer items-center gap-3 rounded-lg border border-line px-3 py-2 text-sm hover:bg-canvas has-[:checked]:border-brand-500 has-[:checked]:bg-brand-50';

/**
 * True/false: two radios named in the page's language; the answer is 'true' or 'false' whatever the language
 * (question-kinds.ts's TRUE_FALSE), so the key compares the same for every candidate.
 */
export function TrueFalseAnswer({ index, answer, onAnswer }: KindAnswerProps) {
  const { t } = useTranslation('question-kinds');
  return (
    <div role="radiogroup" aria-labelledby={`q-${index}-title`} className="flex flex-col gap-2 sm:flex-row">
      {TRUE_FALSE.map((value) => (
        <label key={value} className={`${optionClass} sm:min-w-32`}>
          <input
            type="radio"
            name={`q-${index}`}
            value={value}
            checked={answer === value}
            onChange={() => onAnswer(index, value, WHOLE)}
            className="accent-brand-600"
          />
          {t(`trueFalse.${value}`)}
        </label>
      ))}
    </div>
  );
}
