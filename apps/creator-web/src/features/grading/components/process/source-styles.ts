import { ANSWER_SOURCES, type AnswerSource, type SourceShares } from '@exam/domain/answer-operations';

/**
 * How each source is marked in an answer: a tint and an underline of its own, so the source reads without colour
 * too (WCAG 2.2, 1.4.1 Use of Color). Typed text, the usual case, stays plain.
 */
export const SOURCE_STYLE: Record<AnswerSource, string> = {
  typed: '',
  pasted: 'bg-amber-100 underline decoration-dashed decoration-amber-700 decoration-2 underline-offset-4',
  assistant: 'bg-violet-100 underline decoration-double decoration-violet-700 underline-offset-4',
  autocomplete: 'bg-sky-100 underline decoration-dotted decoration-sky-700 decoration-2 underline-offset-4',
  restored: 'bg-slate-200 underline decoration-wavy decoration-slate-600 underline-offset-4',
};

/** The fill of each source in the shares bar (drawn beside the written figures, never instead of them). */
export const SOURCE_FILL: Record<AnswerSource, string> = {
  typed: 'bg-brand-500',
  pasted: 'bg-amber-500',
  assistant: 'bg-violet-600',
  autocomplete: 'bg-sky-500',
  restored: 'bg-slate-400',
};

export type Share = { source: AnswerSource; count: number; percent: number };

/** Each source's characters and whole-number percentage of the total, in the sources' order, empty ones left out. */
export function sharesList(shares: SourceShares): Share[] {
  const total = ANSWER_SOURCES.reduce((sum, source) => sum + shares[source], 0);
  return ANSWER_SOURCES.filter((source) => shares[source] > 0).map((source) => ({
    source,
    count: shares[source],
    percent: total > 0 ? (shares[source] / total) * 100 : 0,
  }));
}
