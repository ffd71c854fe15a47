import type { Mark } from './classical.ts';
import type { RaschAbility } from './rasch.ts';

/**
 * Rasch item fit: infit and outfit mean squares (Wright & Masters 1982, "Rating Scale Analysis", MESA
 * Press, ch. 5; Wright & Stone 1979, "Best Test Design", ch. 4). For candidate n and item i with expected
 * score E = P(x = 1 | θ_n) = σ(θ_n − b_i), variance W = E(1 − E) and residual y = x − E:
 *   outfit_i = (1/N_i) Σ_n y² / W   (unweighted: sensitive to surprising answers far from the item),
 *   infit_i  = Σ_n y² / Σ_n W       (information-weighted: sensitive to odd patterns near the item).
 * Both have expectation 1 when the data fit the model.
 *
 * θ_n is the candidate's EAP ability from the same Rasch fit (a plug-in estimate, as mirt's itemfit does
 * with `fit_stats = c('infit', 'outfit')`; Winsteps uses its joint maximum-likelihood abilities instead and
 * drops perfect and zero scores, which have none). Candidates with perfect or zero scores keep their finite
 * EAP ability here and are included. Each item is summed over the candidates who answered it: a pending or
 * undrawn (pool) answer is left out, never counted wrong.
 */
export interface ItemFit {
  infit: number | null;
  outfit: number | null;
  /** Candidates the mean squares are over. */
  answered: number;
  reason?: string;
}

export const FIT_REASONS = {
  noDifficulty: 'No Rasch difficulty for this question, so its fit to the model cannot be measured.',
  noAbilities: 'No candidate with an ability estimate answered this question.',
} as const;

export function raschItemFit(
  marks: readonly (readonly Mark[])[],
  difficulties: readonly (number | null)[],
  abilities: readonly RaschAbility[],
): ItemFit[] {
  const J = difficulties.length;
  const squared = new Float64Array(J);
  const variance = new Float64Array(J);
  const standardised = new Float64Array(J);
  const answered = new Float64Array(J);
  // Candidate by candidate, so each row of marks is read once.
  marks.forEach((row, c) => {
    const theta = abilities[c]?.theta ?? null;
    if (theta === null) return;
    for (let j = 0; j < J; j += 1) {
      const b = difficulties[j] ?? null;
      const mark = row[j] ?? null;
      if (b === null || mark === null) continue;
      const x = mark >= 0.5 ? 1 : 0;
      const expected = 1 / (1 + Math.exp(b - theta));
      const w = expected * (1 - expected);
      const y = x - expected;
      squared[j]! += y * y;
      variance[j]! += w;
      standardised[j]! += (y * y) / w;
      answered[j]! += 1;
    }
  });
  return difficulties.map((b, j) => {
    if (b === null) return { infit: null, outfit: null, answered: 0, reason: FIT_REASONS.noDifficulty };
    const n = answered[j]!;
    if (n === 0) return { infit: null, outfit: null, answered: 0, reason: FIT_REASONS.noAbilities };
    return { infit: squared[j]! / variance[j]!, outfit: standardised[j]! / n, answered: n };
  });
}

/** What an item's statistics suggest checking; see ITEM_FLAG_EXPLANATIONS. */
export type ItemFlag = 'noisy' | 'predictable' | 'negative-discrimination' | 'weak-discrimination';

export interface FlagOptions {
  /** Acceptable mean-square range; outside it the item is flagged. Default 0.7–1.3. */
  fitRange?: { lower: number; upper: number };
  /** Fewer answers than this and the mean squares are too noisy to flag on. Default 30. */
  minAnswers?: number;
  /** A 2PL discrimination below this (and ≥ 0) is weak. Default 0.35. */
  weakDiscrimination?: number;
  /** A classical discrimination index (percent) below this (and ≥ 0) is weak. Default 10. */
  weakDiscriminationIndex?: number;
}

/**
 * 0.7–1.3 is Wright & Linacre's range for "run of the mill" multiple-choice tests (Rasch Measurement
 * Transactions 8:3, 1994, p. 370, "Reasonable mean-square fit values"). 0.35 is where Baker's
 * classification of logistic-metric discriminations moves from "very low" to "low" (Baker 2001, "The Basics
 * of Item Response Theory", 2nd ed., ch. 2). 10% for the discrimination index is this platform's choice of
 * "near zero" on Moodle's scale, where above 30% discriminates well.
 */
export const FLAG_DEFAULTS = {
  fitRange: { lower: 0.7, upper: 1.3 },
  minAnswers: 30,
  weakDiscrimination: 0.35,
  weakDiscriminationIndex: 10,
} as const;

export function itemFlags(
  fit: ItemFit,
  discrimination: number | null,
  discriminationIndex: number | null,
  options: FlagOptions = {},
): ItemFlag[] {
  const { fitRange, minAnswers, weakDiscrimination, weakDiscriminationIndex } = { ...FLAG_DEFAULTS, ...options };
  const flags: ItemFlag[] = [];
  if (fit.answered >= minAnswers && fit.infit !== null && fit.outfit !== null) {
    if (fit.infit > fitRange.upper || fit.outfit > fitRange.upper) flags.push('noisy');
    else if (fit.infit < fitRange.lower || fit.outfit < fitRange.lower) flags.push('predictable');
  }
  const negative =
    (discrimination !== null && discrimination < 0) || (discriminationIndex !== null && discriminationIndex < 0);
  if (negative) flags.push('negative-discrimination');
  else if (
    (discrimination !== null && discrimination < weakDiscrimination) ||
    (discriminationIndex !== null && discriminationIndex < weakDiscriminationIndex)
  )
    flags.push('weak-discrimination');
  return flags;
}

/** What each flag means and what to do about it, in plain language. */
export const ITEM_FLAG_EXPLANATIONS: Record<ItemFlag, string> = {
  noisy:
    'Answers to this question are more erratic than the candidates’ other answers predict: strong candidates miss it or weak ones get it right unexpectedly. Check the wording and the answer key, look for a second correct option or a trick, and consider whether it tests something other than the rest of the exam.',
  predictable:
    'Answers to this question follow the candidates’ overall ability more closely than expected. This is rarely harmful; it can mean the question repeats another one or depends on it. Keep it unless it duplicates another question.',
  'negative-discrimination':
    'Stronger candidates do worse on this question than weaker ones. The answer key is often wrong, or the question is ambiguous in a way that misleads those who know the topic well. Check the key first; if it is right, rewrite or remove the question.',
  'weak-discrimination':
    'This question barely separates stronger from weaker candidates: nearly everyone has the same chance on it. It may be too easy, too hard, guessable, or off-topic. Consider rewriting it, or give it less weight.',
};
