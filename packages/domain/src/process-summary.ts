import { ANSWER_SOURCES, emptyShares, type AnswerSource, type SourceShares } from './answer-operations.ts';
import type { ProcessSummary } from './timeline.ts';

/**
 * Whole-number percentages of `counts` that sum to exactly 100 (all 0 when nothing was counted), by the largest
 * remainder method (Hamilton's method of apportionment: every share gets the whole part of its exact percentage,
 * and the points still missing go one each to the largest fractional parts; Balinski & Young, "Fair
 * Representation", 2nd ed., Brookings 2001, ch. 2). Rounding each share on its own can give 99 or 101. Ties go to
 * the larger count, then to the key listed first, so the same counts always give the same figures.
 */
export function wholePercentages<K extends string>(
  counts: Record<K, number>,
  order: ReadonlyArray<K>,
): Record<K, number> {
  const total = order.reduce((sum, key) => sum + counts[key], 0);
  const percent = Object.fromEntries(order.map((key) => [key, 0])) as Record<K, number>;
  if (total <= 0) return percent;
  const parts = order.map((key, rank) => {
    const exact = (counts[key] * 100) / total;
    return { key, rank, whole: Math.floor(exact), remainder: exact - Math.floor(exact), count: counts[key] };
  });
  for (const part of parts) percent[part.key] = part.whole;
  let missing = 100 - parts.reduce((sum, part) => sum + part.whole, 0);
  const byRemainder = [...parts].sort((a, b) => b.remainder - a.remainder || b.count - a.count || a.rank - b.rank);
  for (const part of byRemainder) {
    if (missing <= 0) break;
    percent[part.key]++;
    missing--;
  }
  return percent;
}

export type ProcessSummaryInput = {
  attemptId: string;
  submittedAt: string;
  /** Characters of each final answer by source (from its replayed operations). */
  answers: ReadonlyArray<SourceShares>;
  /** Messages the candidate sent to the assistant (llm-gateway's transcript of the attempt). */
  assistantMessages: number;
  /** Pastes from outside the exam that the paste guard refused (the attempt's paste-blocked events). */
  outsidePastesBlocked: number;
};

/**
 * The candidate's own summary of their process: of all characters of their final answers, the whole-number share
 * each source put there (summing to 100 when there is any text, all 0 when there is none), how often they wrote to
 * the assistant and how many outside pastes were refused.
 */
export function summarizeProcess(input: ProcessSummaryInput): ProcessSummary {
  const totals = emptyShares();
  for (const shares of input.answers) for (const source of ANSWER_SOURCES) totals[source] += shares[source];
  const characters = ANSWER_SOURCES.reduce((sum, source) => sum + totals[source], 0);
  const percent = wholePercentages<AnswerSource>(totals, ANSWER_SOURCES);
  return {
    attemptId: input.attemptId,
    characters,
    typedPercent: percent.typed,
    pastedPercent: percent.pasted,
    assistantPercent: percent.assistant,
    autocompletePercent: percent.autocomplete,
    restoredPercent: percent.restored,
    assistantMessages: input.assistantMessages,
    outsidePastesBlocked: input.outsidePastesBlocked,
    submittedAt: input.submittedAt,
  };
}
