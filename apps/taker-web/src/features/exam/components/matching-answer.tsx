import { decodeMatches, encodeMatches } from '@exam/domain/question-kinds';
import { InlineRichText } from '@exam/ui/rich-text';
import { useTranslation } from 'react-i18next';
import { WHOLE, selectClass, type KindAnswerProps } from './kind-answer-props.ts';

/**
 * A matching question: each prompt is the label of a select holding every answer (right ones and distractors,
 * in the server's shuffled order) after "Choose…". The answer is the choice per prompt, encoded
 * (question-kinds.ts's encodeMatches); with nothing chosen anywhere it is empty, so the question reads unanswered.
 */
export function MatchingAnswer({ index, question, answer, onAnswer }: KindAnswerProps) {
  const { t } = useTranslation('question-kinds');
  const prompts = question.prompts ?? [];
  const choices = question.choices ?? [];
  const chosen = decodeMatches(answer, prompts.length);
  const choose = (prompt: number, value: string) => {
    const next = chosen.map((c, i) => (i === prompt ? value : c));
    onAnswer(index, next.some((c) => c !== '') ? encodeMatches(next) : '', WHOLE);
  };
  return (
    <fieldset className="min-w-0">
      <legend className="mb-2 text-xs text-muted">{t('matching.legend')}</legend>
      <ul className="flex flex-col gap-2">
        {prompts.map((prompt, p) => {
          const id = `q-${index}-match-${p}`;
          return (
            <li
              key={p}
              className="grid items-center gap-2 rounded-lg border border-line px-3 py-2 text-sm sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]"
            >
              <label htmlFor={id} className="min-w-0 text-ink">
                <InlineRichText>{prompt}</InlineRichText>
              </label>
              <select
                id={id}
                value={chosen[p]}
                onChange={(e) => choose(p, e.target.value)}
                className={`${selectClass} w-full`}
              >
                <option value="">{t('matching.choose')}</option>
                {choices.map((choice) => (
                  <option key={choice} value={choice}>
                    {choice}
                  </option>
                ))}
              </select>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
