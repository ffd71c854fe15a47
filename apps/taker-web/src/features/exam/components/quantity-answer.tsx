import { Input } from '@exam/ui/input';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useInputSource } from '../hooks/use-input-source.ts';
import { composeQuantity, splitQuantity } from '../lib/quantity-answer.ts';
import { selectClass, type KindAnswerProps } from './kind-answer-props.ts';

/**
 * Numeric with units, and calculated (whose values are already in the question's text): a number field
 * (a decimal keyboard on phones) and, when the creator listed units, a unit select. The answer is
 * "<number> <unit>" or the number alone (lib/quantity-answer.ts). A unit chosen before any number is kept on the
 * page until the number comes.
 */
export function QuantityAnswer({ index, question, answer, onAnswer, onCommit }: KindAnswerProps) {
  const { t } = useTranslation(['question-kinds', 'questions']);
  const { ref, sourceOf } = useInputSource<HTMLInputElement>();
  const symbols = question.unitSymbols ?? [];
  const saved = splitQuantity(answer, symbols);
  const [pickedUnit, setPickedUnit] = useState(saved.unit);
  const unit = saved.unit !== '' ? saved.unit : pickedUnit;
  const required = question.unitRequired === true;
  const hintId = `q-${index}-unit-hint`;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Input
        ref={ref}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        spellCheck={false}
        aria-label={t('questions:card.answerLabel', { number: index + 1 })}
        aria-describedby={required ? hintId : undefined}
        value={saved.number}
        onChange={(e) => {
          // Typing edits the number; the unit is re-attached, so the edit is recorded as a whole replacement.
          onAnswer(index, composeQuantity(e.target.value, unit), { source: sourceOf(e), whole: true });
        }}
        onBlur={onCommit}
        className="w-48"
      />
      {symbols.length > 0 && (
        <select
          aria-label={t('quantity.unit', { number: index + 1 })}
          aria-describedby={required ? hintId : undefined}
          value={unit}
          onChange={(e) => {
            setPickedUnit(e.target.value);
            if (saved.number.trim() !== '')
              onAnswer(index, composeQuantity(saved.number, e.target.value), { source: 'typed', whole: true });
          }}
          className={selectClass}
        >
          <option value="">{required ? t('quantity.chooseUnit') : t('quantity.noUnit')}</option>
          {symbols.map((symbol) => (
            <option key={symbol} value={symbol}>
              {symbol}
            </option>
          ))}
        </select>
      )}
      {required && (
        <p id={hintId} className="w-full text-xs text-muted">
          {t('quantity.unitRequired')}
        </p>
      )}
    </div>
  );
}
