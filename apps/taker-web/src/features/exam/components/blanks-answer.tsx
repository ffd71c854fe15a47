import { decodeBlanks, encodeBlanks, splitGapText } from '@exam/domain/question-kinds';
import { InlineRichText } from '@exam/ui/rich-text';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { useInputSource } from '../hooks/use-input-source.ts';
import type { AnswerSource } from '@exam/domain/answer-operations';
import { selectClass, type KindAnswerProps } from './kind-answer-props.ts';

const gapClass =
  'mx-1 inline-block h-8 rounded-md border border-line bg-surface px-2 align-baseline text-sm text-ink focus:border-brand-500 focus:ring-2 focus:ring-brand-100 disabled:bg-canvas';

/**
 * Fill in the blanks: the text read through splitGapText, with a field at each `[[n]]` (a text field, a
 * numeric one that brings up a number keyboard, or a drop-down), each named "Gap n" so a screen reader tells them
 * apart. The answer is every gap's value by gap number (question-kinds.ts's encodeBlanks), replaced whole on each
 * change with the browser's source for it (a paste into a gap is recorded as a paste); empty when every gap is.
 */
export function BlanksAnswer({ index, question, answer, onAnswer, onCommit }: KindAnswerProps) {
  const { t } = useTranslation('question-kinds');
  const { ref, sourceOf } = useInputSource<HTMLFieldSetElement>();
  const gaps = question.gaps ?? [];
  const values = decodeBlanks(answer, gaps.length);
  const change = (gap: number, value: string, source: AnswerSource) => {
    const next = values.map((v, i) => (i === gap ? value : v));
    onAnswer(index, next.some((v) => v !== '') ? encodeBlanks(next) : '', { source, whole: true });
  };
  return (
    <fieldset ref={ref} className="min-w-0" onBlur={onCommit}>
      <legend className="mb-2 text-xs text-muted">{t('blanks.legend')}</legend>
      <div className="whitespace-pre-wrap text-sm leading-loose text-ink" data-testid={`gap-text-${index}`}>
        {splitGapText(question.gapText ?? '').map((part, i) => {
          if ('text' in part) return <InlineRichText key={i}>{part.text}</InlineRichText>;
          const gap = gaps[part.gap];
          const label = t('blanks.gap', { number: part.gap + 1 });
          if (!gap) return <Fragment key={i}>{`[[${part.gap + 1}]]`}</Fragment>;
          if (gap.kind === 'choice')
            return (
              <select
                key={i}
                aria-label={label}
                value={values[part.gap]}
                onChange={(e) => change(part.gap, e.target.value, 'typed')}
                className={`${selectClass} mx-1 h-8 align-baseline`}
              >
                <option value="">{t('blanks.choose')}</option>
                {gap.options.map((option) => (
                  <option key={option} value={option}>
                    {option}
                  </option>
                ))}
              </select>
            );
          return (
            <input
              key={i}
              type="text"
              aria-label={label}
              inputMode={gap.kind === 'numeric' ? 'decimal' : undefined}
              autoComplete="off"
              spellCheck={false}
              value={values[part.gap]}
              onChange={(e) => change(part.gap, e.target.value, sourceOf(e))}
              size={gap.kind === 'numeric' ? 8 : 14}
              className={gapClass}
            />
          );
        })}
      </div>
    </fieldset>
  );
}
