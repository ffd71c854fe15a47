import { decodeChoices, encodeChoices } from '@exam/domain/candidate-answers';
import type { PublicQuestion } from '@exam/domain/question';
import { InlineRichText } from '@exam/ui/rich-text';
import { useTranslation } from 'react-i18next';
import type { AnswerEdit } from '../lib/answer-edits.ts';

type ChoiceAnswerProps = {
  index: number;
  question: PublicQuestion;
  answer: string;
  onAnswer: (index: number, answer: string, edit: AnswerEdit) => void;
};

/** A pick replaces the whole answer, by the candidate's hand. */
const PICK: AnswerEdit = { source: 'typed', whole: true };

const optionClass =
  'flex cursor-pointer items-center gap-3 rounded-lg border border-line px-3 py-2 text-sm hover:bg-canvas has-[:checked]:border-brand-500 has-[:checked]:bg-brand-50';

/**
 * An MCQ: radios for one answer; checkboxes when the question takes several, saved as the encoded list of
 * the ticked options in the order they are listed (docs/product.md#results-and-grading, 'Multiple answers').
 * Unticking the last box clears the answer.
 */
export function ChoiceAnswer({ index, question, answer, onAnswer }: ChoiceAnswerProps) {
  const { t } = useTranslation('questions');
  if (!question.multipleAnswers) {
    return (
      <div role="radiogroup" aria-labelledby={`q-${index}-title`} className="flex flex-col gap-2">
        {question.options.map((option, optionIndex) => (
          <label key={optionIndex} className={optionClass}>
            <input
              type="radio"
              name={`q-${index}`}
              value={option}
              checked={answer === option}
              onChange={() => onAnswer(index, option, PICK)}
              className="accent-brand-600"
            />
            <InlineRichText>{option}</InlineRichText>
          </label>
        ))}
      </div>
    );
  }
  const ticked = new Set(decodeChoices(answer));
  const toggle = (option: string, checked: boolean) => {
    const next = question.options.filter((o) => (o === option ? checked : ticked.has(o)));
    onAnswer(index, next.length > 0 ? encodeChoices(next) : '', PICK);
  };
  return (
    <div role="group" aria-labelledby={`q-${index}-title`} className="flex flex-col gap-2">
      <p className="text-xs text-muted">{t('choice.selectAll')}</p>
      {question.options.map((option, optionIndex) => (
        <label key={optionIndex} className={optionClass}>
          <input
            type="checkbox"
            name={`q-${index}`}
            value={option}
            checked={ticked.has(option)}
            onChange={(e) => toggle(option, e.target.checked)}
            className="accent-brand-600"
          />
          <InlineRichText>{option}</InlineRichText>
        </label>
      ))}
    </div>
  );
}
