import { countWords } from '@exam/domain/question-kinds';
import { RichText } from '@exam/ui/rich-text';
import { useTranslation } from 'react-i18next';
import type { EssayView, QuantityView, TrueFalseView } from '../../lib/read-answer.ts';
import { Verdict } from './answer-parts.tsx';
import { HighlightedText } from './highlighted-text.tsx';

/** Numeric and calculated: the answer as written (and in the key's unit), the key with its tolerance, the values. */
export function QuantityAnswer({ view }: { view: QuantityView }) {
  const { t } = useTranslation('grading');
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-md bg-canvas p-3 text-sm">
      <dt className="text-muted">{t('answerView.quantity.given')}</dt>
      <dd className="text-ink" data-testid="quantity-given">
        {view.given ? (
          <>
            {view.given}
            {view.converted && (
              <span className="text-muted"> {t('answerView.quantity.converted', { value: view.converted })}</span>
            )}
          </>
        ) : (
          <span className="text-muted">{t('answerView.noAnswer')}</span>
        )}
        {view.isRight !== null && view.given && <Verdict isRight={view.isRight} className="ml-2" />}
      </dd>
      {view.keys.length > 0 && (
        <>
          <dt className="text-muted">{t('answerView.quantity.key')}</dt>
          <dd className="text-ink" data-testid="quantity-key">
            {view.keys.join(' | ')}
          </dd>
        </>
      )}
      {view.values.length > 0 && (
        <>
          <dt className="text-muted">{t('answerView.quantity.values')}</dt>
          <dd className="text-ink" data-testid="calculated-values">
            <ul className="flex flex-wrap gap-x-3">
              {view.values.map((v) => (
                <li key={v.name} className="font-mono">
                  {t('answerView.quantity.value', { name: v.name, value: v.value })}
                </li>
              ))}
            </ul>
          </dd>
        </>
      )}
    </dl>
  );
}

/** True/false in words, beside the key. */
export function TrueFalseAnswer({ view }: { view: TrueFalseView }) {
  const { t } = useTranslation('grading');
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-md bg-canvas p-3 text-sm">
      <dt className="text-muted">{t('answerView.trueFalse.given')}</dt>
      <dd className="text-ink" data-testid="true-false-given">
        {view.given ?? <span className="text-muted">{t('answerView.noAnswer')}</span>}
        {view.given && view.key && <Verdict isRight={view.given === view.key} className="ml-2" />}
      </dd>
      {view.key && (
        <>
          <dt className="text-muted">{t('answerView.trueFalse.key')}</dt>
          <dd className="text-ink">{view.key}</dd>
        </>
      )}
    </dl>
  );
}

/**
 * The essay as the candidate wrote it (Markdown when formatted), with its word count against the limits. With a
 * suggestion's `quote` found in it, the text shows as written with the quote marked (Markdown would hide where).
 */
export function EssayAnswer({ view, quote = '' }: { view: EssayView; quote?: string | undefined }) {
  const { t } = useTranslation('grading');
  const count = countWords(view.text);
  const { minWords: min, maxWords: max } = view;
  const limit =
    min !== null && max !== null
      ? t('answerView.essay.limitBetween', { min, max })
      : min !== null
        ? t('answerView.essay.limitMin', { min })
        : max !== null
          ? t('answerView.essay.limitMax', { max })
          : null;
  const outside =
    min !== null && count < min
      ? t('answerView.essay.under')
      : max !== null && count > max
        ? t('answerView.essay.over')
        : null;
  return (
    <div className="flex flex-col gap-1">
      {view.text === '' ? (
        <p className="rounded-md bg-canvas p-3 text-sm text-muted">{t('answerView.noAnswer')}</p>
      ) : view.formatted && !(quote && view.text.includes(quote)) ? (
        <RichText className="rounded-md bg-canvas p-3 text-sm text-ink" testId="essay-text">
          {view.text}
        </RichText>
      ) : (
        <pre
          className="whitespace-pre-wrap break-words rounded-md bg-canvas p-3 font-sans text-sm text-ink"
          data-testid="essay-text"
        >
          <HighlightedText text={view.text} quote={quote} />
        </pre>
      )}
      <p className="text-xs text-muted" data-testid="essay-words">
        {t('answerView.essay.words', { count })}
        {limit && ` · ${limit}`}
        {outside && <span className="font-medium text-danger"> · {outside}</span>}
        {view.formatted && ` · ${t('answerView.essay.formatted')}`}
      </p>
    </div>
  );
}
