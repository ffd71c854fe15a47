import { countWords } from '@exam/domain/question-kinds';
import { Textarea } from '@exam/ui/input';
import { RichText } from '@exam/ui/rich-text';
import { Bold, Code, Eye, Italic, List } from 'lucide-react';
import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useInputSource } from '../hooks/use-input-source.ts';
import { applyFormat, type MarkdownFormat, type TextSelection } from '../lib/markdown-format.ts';
import { useTouchOnly } from '../../../lib/use-touch-only.ts';
import type { KindAnswerProps } from './kind-answer-props.ts';

const NO_LIMITS = { minWords: null, maxWords: null, formatted: false };

/** The counter's words: the count, the limits the creator set, and how far outside them the answer is. */
function useWordCount(answer: string, minWords: number | null, maxWords: number | null) {
  const { t } = useTranslation('question-kinds');
  const count = countWords(answer);
  const words = t('essay.words', { count });
  const summary =
    minWords !== null && maxWords !== null
      ? t('essay.limits', { words, min: minWords, max: maxWords })
      : minWords !== null
        ? t('essay.atLeast', { words, min: minWords })
        : maxWords !== null
          ? t('essay.atMost', { words, max: maxWords })
          : words;
  const over = maxWords !== null && count > maxWords ? count - maxWords : 0;
  const under = minWords !== null && count < minWords ? minWords - count : 0;
  const status = over > 0 ? t('essay.over', { count: over }) : under > 0 ? t('essay.under', { count: under }) : '';
  return { summary, status, over: over > 0 };
}

/**
 * An essay: a long text with a live word count against the creator's limits (announced politely as it changes;
 * the limits advise, they never stop the typing). With `formatted`, a toolbar writes Markdown around the selection
 * (Ctrl+B and Ctrl+I too) and Preview shows the answer as the grader will read it. Every change is recorded as the
 * short answer's are: the difference, with the browser's source for it.
 */
export function EssayAnswer({ index, question, answer, onAnswer, onCommit }: KindAnswerProps) {
  const { t } = useTranslation(['question-kinds', 'questions']);
  const settings = question.essay ?? NO_LIMITS;
  const { ref, sourceOf } = useInputSource<HTMLTextAreaElement>();
  const [previewing, setPreviewing] = useState(false);
  const restoreSelection = useRef<TextSelection | null>(null);
  const counter = useWordCount(answer, settings.minWords, settings.maxWords);
  const counterId = `q-${index}-word-count`;
  const hintId = `q-${index}-format-hint`;
  // Ctrl+B and Ctrl+I are named only where there is a keyboard to press them.
  const touchOnly = useTouchOnly();

  // After a toolbar button the text is back in the field, the formatted part selected (or the caret inside it).
  useLayoutEffect(() => {
    const node = ref.current;
    const selection = restoreSelection.current;
    if (!node || !selection) return;
    restoreSelection.current = null;
    node.focus();
    node.setSelectionRange(selection.start, selection.end);
  });

  const format = (kind: MarkdownFormat) => {
    const node = ref.current;
    if (!node) return;
    const next = applyFormat(answer, { start: node.selectionStart, end: node.selectionEnd }, kind);
    restoreSelection.current = next.selection;
    onAnswer(index, next.value, { source: 'typed' });
  };

  const shortcut = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!settings.formatted || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    const key = event.key.toLowerCase();
    if (key !== 'b' && key !== 'i') return;
    event.preventDefault();
    format(key === 'b' ? 'bold' : 'italic');
  };

  return (
    <div className="flex flex-col gap-2">
      {settings.formatted && (
        <>
          <FormatToolbar
            label={t('essay.toolbar', { number: index + 1 })}
            previewing={previewing}
            onFormat={format}
            onTogglePreview={() => setPreviewing((on) => !on)}
          />
          <p id={hintId} className="text-xs text-muted">
            {touchOnly ? t('essay.formattedHintTouch') : t('essay.formattedHint')}
          </p>
        </>
      )}
      {previewing ? (
        <section
          aria-label={t('essay.previewLabel', { number: index + 1 })}
          className="min-h-40 rounded-lg border border-line bg-canvas p-3 text-sm text-ink"
          data-testid={`essay-preview-${index}`}
        >
          {answer.trim() === '' ? (
            <p className="text-muted">{t('essay.emptyPreview')}</p>
          ) : (
            <RichText>{answer}</RichText>
          )}
        </section>
      ) : (
        <Textarea
          ref={ref}
          aria-label={t('questions:card.answerLabel', { number: index + 1 })}
          aria-describedby={settings.formatted ? `${counterId} ${hintId}` : counterId}
          value={answer}
          onChange={(e) => onAnswer(index, e.target.value, { source: sourceOf(e) })}
          onKeyDown={shortcut}
          onBlur={onCommit}
          placeholder={t('questions:card.answerPlaceholder')}
          rows={10}
        />
      )}
      <p
        id={counterId}
        aria-live="polite"
        className={counter.over ? 'text-xs font-medium text-danger' : 'text-xs text-muted'}
        data-testid={`word-count-${index}`}
      >
        {counter.summary}
        {counter.status && ` · ${counter.status}`}
      </p>
    </div>
  );
}

const BUTTONS = [
  { format: 'bold', icon: Bold },
  { format: 'italic', icon: Italic },
  { format: 'list', icon: List },
  { format: 'code', icon: Code },
] as const;

/**
 * The toolbar is one stop in the tab order (WAI-ARIA's toolbar pattern): the arrow keys, Home and End move
 * between its buttons; Enter or Space presses one.
 */
function FormatToolbar({
  label,
  previewing,
  onFormat,
  onTogglePreview,
}: {
  label: string;
  previewing: boolean;
  onFormat: (format: MarkdownFormat) => void;
  onTogglePreview: () => void;
}) {
  const { t } = useTranslation('question-kinds');
  const [chosen, setActive] = useState(0);
  // While previewing only Preview is enabled: it keeps the toolbar's stop in the tab order.
  const active = previewing ? BUTTONS.length : chosen;
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);
  const count = BUTTONS.length + 1;
  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    if (previewing) return;
    const next =
      event.key === 'ArrowRight'
        ? (active + 1) % count
        : event.key === 'ArrowLeft'
          ? (active - 1 + count) % count
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? count - 1
              : null;
    if (next === null) return;
    event.preventDefault();
    setActive(next);
    buttons.current[next]?.focus();
  };
  const buttonClass =
    'inline-flex h-8 w-8 items-center justify-center rounded-md text-ink hover:bg-canvas disabled:text-muted aria-pressed:bg-brand-50 aria-pressed:text-brand-700';
  return (
    <div role="toolbar" aria-label={label} onKeyDown={move} className="flex gap-1 rounded-lg border border-line p-1">
      {BUTTONS.map(({ format, icon: Icon }, i) => (
        <button
          key={format}
          ref={(node) => {
            buttons.current[i] = node;
          }}
          type="button"
          tabIndex={active === i ? 0 : -1}
          aria-label={t(`essay.${format}`)}
          title={t(`essay.${format}`)}
          disabled={previewing}
          onClick={() => onFormat(format)}
          onFocus={() => setActive(i)}
          className={buttonClass}
        >
          <Icon aria-hidden className="h-4 w-4" />
        </button>
      ))}
      <button
        ref={(node) => {
          buttons.current[BUTTONS.length] = node;
        }}
        type="button"
        tabIndex={active === BUTTONS.length ? 0 : -1}
        aria-pressed={previewing}
        onClick={onTogglePreview}
        onFocus={() => setActive(BUTTONS.length)}
        className={`${buttonClass} ml-auto w-auto gap-1 px-2 text-xs`}
      >
        <Eye aria-hidden className="h-4 w-4" />
        {t('essay.preview')}
      </button>
    </div>
  );
}
