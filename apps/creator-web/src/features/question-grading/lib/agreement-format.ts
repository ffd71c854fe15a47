import { formatPoints } from '@exam/domain/grading';
import type { QuestionAgreement } from '@exam/domain/question-grading';

/** How a missing figure reads; its reason is listed beside it (the agreement's notes). */
export const MISSING = '—';

/** κ and weighted κ to two decimals, as agreement tables report them. */
export const formatKappa = (value: number | null) => (value === null ? MISSING : value.toFixed(2));

/** A share as a whole percentage ("72%"). */
export const formatShare = (value: number | null) => (value === null ? MISSING : `${Math.round(value * 100)}%`);

export const formatDifference = (value: number | null) => (value === null ? MISSING : formatPoints(value));

/** The 95% interval of weighted κ ("0.65–0.91"), or null without one. */
export function formatInterval(agreement: Pick<QuestionAgreement, 'weightedKappaLow' | 'weightedKappaHigh'>) {
  const { weightedKappaLow: low, weightedKappaHigh: high } = agreement;
  return low === null || high === null ? null : `${low.toFixed(2)}–${high.toFixed(2)}`;
}
