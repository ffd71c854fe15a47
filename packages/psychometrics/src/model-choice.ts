import { chiSquareSurvival } from './chi-square.ts';
import type { TwoPlFit } from './twopl.ts';

/**
 * Rasch or 2PL for an exam's abilities.
 *
 * The likelihood-ratio test compares the 2PL with the one-parameter logistic model whose discrimination is
 * common to all items but free (fitTwoPl with discrimination 'common'; ltm's `rasch(X)`), both with
 * θ ~ N(0, 1): the 1PL is the 2PL with a_1 = … = a_J, so it is nested, with J − 1 fewer parameters
 * (J = items estimable by both). G² = 2 (ℓ_2PL − ℓ_1PL) ~ χ²(J − 1) under the 1PL (Wilks 1938); this is
 * ltm's `anova(rasch(X), ltm(X ~ z1))`.
 *
 * The report's Rasch fit fixes the discrimination at 1 instead (θ ~ N(0, 1), rasch.ts). Testing that against
 * the 2PL would also be nested (a_j = 1 for every j, J degrees of freedom) but would reject the Rasch model
 * whenever the ability spread on the logit scale differs from 1, even with perfectly equal discriminations —
 * on the LSAT data it gives G² = 12.8 on 5 df, p = 0.025, although ltm's common-discrimination test gives
 * G² = 0.57 on 4 df, p = 0.97. The question the creator needs answered is whether the items discriminate
 * differently, which is the common-discrimination test. When it is not significant, the a = 1 Rasch fit is
 * kept: it is the same model up to the unit of the ability scale.
 */
export const MODEL_REQUESTS = ['auto', 'rasch', '2pl'] as const;
export type ModelRequest = (typeof MODEL_REQUESTS)[number];
export type ModelName = 'rasch' | '2pl';

export interface LikelihoodRatioTest {
  statistic: number;
  df: number;
  p: number;
}

export interface ModelChoice {
  requested: ModelRequest;
  chosen: ModelName;
  lrt: LikelihoodRatioTest | null;
  alpha: number;
  reason: string;
}

export const DEFAULT_ALPHA = 0.05;

export function likelihoodRatioTest(onePl: TwoPlFit, twoPl: TwoPlFit): LikelihoodRatioTest | null {
  if (onePl.logLikelihood === null || twoPl.logLikelihood === null) return null;
  const df = twoPl.parameters - onePl.parameters;
  if (df < 1) return null;
  // The 2PL contains the 1PL, so a negative difference is EM's convergence tolerance, not evidence.
  const statistic = Math.max(0, 2 * (twoPl.logLikelihood - onePl.logLikelihood));
  return { statistic, df, p: chiSquareSurvival(statistic, df) };
}

const describe = (lrt: LikelihoodRatioTest) =>
  `likelihood-ratio test χ²(${lrt.df}) = ${lrt.statistic.toFixed(2)}, p ${lrt.p < 0.001 ? '< 0.001' : `= ${lrt.p.toFixed(3)}`}`;

export function chooseModel(
  onePl: TwoPlFit,
  twoPl: TwoPlFit,
  requested: ModelRequest = 'auto',
  alpha: number = DEFAULT_ALPHA,
): ModelChoice {
  const lrt = likelihoodRatioTest(onePl, twoPl);
  const base = { requested, lrt, alpha };
  const twoPlUsable = twoPl.logLikelihood !== null && twoPl.items.some((i) => i.discrimination !== null);
  if (requested === 'rasch')
    return { ...base, chosen: 'rasch', reason: 'The Rasch model was chosen by the exam’s creator.' };
  if (requested === '2pl') {
    if (!twoPlUsable)
      return {
        ...base,
        chosen: 'rasch',
        reason: `The 2PL model was requested but could not be fitted (${twoPl.reason ?? 'no question has a finite discrimination'}); the Rasch model is used.`,
      };
    return { ...base, chosen: '2pl', reason: 'The 2PL model was chosen by the exam’s creator.' };
  }
  if (lrt === null)
    return {
      ...base,
      chosen: 'rasch',
      reason:
        'The Rasch model is used: comparing it with the 2PL needs at least 2 questions that separate the candidates and 2 submitted attempts.',
    };
  if (!twoPl.converged)
    return {
      ...base,
      chosen: 'rasch',
      reason: `The Rasch model is used: the 2PL fit did not converge in ${twoPl.iterations} iterations, so the test comparing them is not reliable.`,
    };
  if (lrt.p < alpha)
    return {
      ...base,
      chosen: '2pl',
      reason: `The 2PL model is used: its separate discriminations fit the answers significantly better than one common discrimination (${describe(lrt)}, below the ${alpha} level).`,
    };
  return {
    ...base,
    chosen: 'rasch',
    reason: `The Rasch model is used: separate discriminations per question do not fit the answers significantly better (${describe(lrt)}, not below the ${alpha} level), so the simpler model is kept.`,
  };
}
