import type { AnswerSource, SourceShares } from '@exam/domain/answer-operations';
import { cn } from '@exam/ui/lib/cn';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SOURCE_FILL, SOURCE_STYLE, sharesList } from './source-styles.ts';

type Part = { text: string; source: AnswerSource; from: number };

function partsOf(final: string, runs: ReadonlyArray<readonly [number, AnswerSource]>): Part[] {
  const parts: Part[] = [];
  let at = 0;
  for (const [length, source] of runs) {
    if (length > 0) parts.push({ text: final.slice(at, at + length), source, from: at });
    at += length;
  }
  // Runs are derived from the same operations as `final`; should they ever fall short, the rest still shows.
  if (at < final.length) parts.push({ text: final.slice(at), source: 'restored', from: at });
  return parts;
}

/**
 * The final answer, each part marked by its source (tint and underline style) with a tooltip naming it on hover
 * and on focus. One tab stop: the arrow keys, Home and End move between the parts (a roving tabindex).
 */
export function SourcedAnswer({
  final,
  runs,
  questionNumber,
}: {
  final: string;
  runs: ReadonlyArray<readonly [number, AnswerSource]>;
  questionNumber: number;
}) {
  const { t } = useTranslation('process');
  const parts = partsOf(final, runs);
  const [focusable, setFocusable] = useState(0);
  const [shown, setShown] = useState<number | null>(null);
  const [position, setPosition] = useState({ top: 0, left: 0 });
  const refs = useRef<Array<HTMLSpanElement | null>>([]);
  const id = useId();

  if (final === '') return <p className="text-sm text-muted">{t('provenance.empty')}</p>;

  const show = (index: number) => {
    const element = refs.current[index];
    if (element) setPosition({ top: element.offsetTop + element.offsetHeight + 4, left: element.offsetLeft });
    setShown(index);
  };
  const move = (event: KeyboardEvent) => {
    const last = parts.length - 1;
    const next =
      event.key === 'ArrowRight' || event.key === 'ArrowDown'
        ? Math.min(last, focusable + 1)
        : event.key === 'ArrowLeft' || event.key === 'ArrowUp'
          ? Math.max(0, focusable - 1)
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) {
      if (event.key === 'Escape') setShown(null);
      return;
    }
    event.preventDefault();
    setFocusable(next);
    refs.current[next]?.focus();
  };
  const label = (part: Part) =>
    t('provenance.part', {
      source: t(`source.${part.source}`),
      from: part.from + 1,
      to: part.from + part.text.length,
    });
  const shownPart = shown === null ? undefined : parts[shown];

  return (
    <div className="relative">
      <p id={`${id}-hint`} className="sr-only">
        {t('provenance.hint')}
      </p>
      <pre
        role="group"
        aria-label={t('provenance.finalAnswer')}
        aria-describedby={`${id}-hint`}
        data-testid={`sourced-answer-${questionNumber - 1}`}
        className="whitespace-pre-wrap break-words rounded-md bg-canvas p-3 font-sans text-sm leading-7 text-ink"
        onKeyDown={move}
      >
        {parts.map((part, index) => (
          <span
            key={part.from}
            ref={(element) => {
              refs.current[index] = element;
            }}
            tabIndex={index === focusable ? 0 : -1}
            data-source={part.source}
            aria-describedby={shown === index ? `${id}-tip` : undefined}
            className={cn('rounded-sm focus:outline-2 focus:outline-brand-500', SOURCE_STYLE[part.source])}
            onMouseEnter={() => show(index)}
            onMouseLeave={() => setShown(null)}
            onFocus={() => {
              setFocusable(index);
              show(index);
            }}
            onBlur={() => setShown(null)}
          >
            {part.text}
          </span>
        ))}
      </pre>
      {shownPart && (
        <span
          id={`${id}-tip`}
          role="tooltip"
          style={{ top: position.top, left: position.left }}
          className="pointer-events-none absolute z-10 whitespace-nowrap rounded-md bg-ink px-2 py-1 text-xs text-white shadow"
        >
          {label(shownPart)}
        </span>
      )}
    </div>
  );
}

/** What each marking means: a sample of the style beside the source's name. */
export function SourceLegend({ sources }: { sources: ReadonlyArray<AnswerSource> }) {
  const { t } = useTranslation('process');
  return (
    <div>
      <p className="text-xs font-medium text-muted">{t('provenance.legend')}</p>
      <ul aria-label={t('provenance.legend')} className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs text-ink">
        {sources.map((source) => (
          <li key={source} className="flex items-center gap-1.5">
            <span aria-hidden className={cn('rounded-sm px-1 font-medium', SOURCE_STYLE[source])}>
              {t('provenance.sample')}
            </span>
            <span>
              {t('provenance.legendItem', { source: t(`source.${source}`), style: t(`sourceStyle.${source}`) })}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The share of each source: a bar for the eye and, for everyone, the percentage and the count. */
export function SourceShareList({ shares }: { shares: SourceShares }) {
  const { t } = useTranslation('process');
  const list = sharesList(shares);
  if (list.length === 0) return null;
  const percent = (value: number) => (value > 0 && value < 1 ? t('provenance.lessThanOne') : `${Math.round(value)}%`);
  return (
    <div>
      <div aria-hidden className="flex h-2 w-full overflow-hidden rounded-full bg-line">
        {list.map((share) => (
          <span key={share.source} className={SOURCE_FILL[share.source]} style={{ width: `${share.percent}%` }} />
        ))}
      </div>
      <dl aria-label={t('provenance.shares')} className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-0.5 text-sm">
        {list.map((share) => (
          <div key={share.source} className="contents">
            <dt className="text-muted">{t(`source.${share.source}`)}</dt>
            <dd className="tabular-nums text-ink">
              {t('provenance.share', { percent: percent(share.percent), count: share.count })}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
