/**
 * Appropriateness of reliance on the assistant: RAIR and RSR of Schemmer, Kühl, Benz, Bartos & Satzger,
 * "Appropriate Reliance on AI Advice: Conceptualization and the Effect of Explanations", IUI 2023 (§3).
 * Their setting is a two-stage decision: a person decides, sees the AI's advice, decides again.
 *   RAIR (relative AI reliance)  = #(first wrong, AI right, final follows the AI) / #(first wrong, AI right)
 *   RSR  (relative self-reliance) = #(first right, AI wrong, final keeps the first) / #(first right, AI wrong)
 * Appropriate reliance is the pair, both high: taking right advice when one was wrong, and keeping one's
 * right answer against wrong advice. Neither is defined when its denominator is 0 (null, with a reason).
 *
 * The exam's two stages map onto one case per question the assistant advised on:
 * - `firstCorrect`: the answer as it stood just before the first assistant turn about the question (from
 *   the timeline) earns the mark; no answer yet counts as not correct;
 * - `aiCorrect`: the assistant's advice was right by the question's key (false for a verified planted error);
 * - `finalFollowsAi`: the submitted answer is the one the assistant gave (the same option or value);
 * - `finalCorrect`: the submitted answer earns the mark.
 * "Keeps the first" in RSR is read as: the final answer is correct and is not the assistant's — with more
 * than two options a switch to a third, wrong answer is neither self- nor AI-reliance, so it counts only
 * in the denominator, as Schemmer et al.'s binary task would have it had such a switch been possible.
 *
 * Candidates often ask before answering, so their first answer is empty and a wrong suggestion then falls
 * outside RSR's denominator. `errorAdoption` covers that: of the cases where the assistant was wrong, the
 * share whose submitted answer follows it — the figure that tells a candidate who adopted a planted error
 * from one who rejected it whatever their first answer.
 *
 * Per exam, `pooled` is the ratio of the summed counts (every case weighs the same); `meanOfCandidates` the
 * mean of the candidates' own figures over those that have one (every candidate weighs the same, as in
 * Schemmer et al.'s per-participant analysis).
 */
export interface RelianceCase {
  firstCorrect: boolean;
  aiCorrect: boolean;
  finalFollowsAi: boolean;
  finalCorrect: boolean;
}

export interface RelianceRatio {
  value: number | null;
  numerator: number;
  denominator: number;
  reason?: string;
}

export interface RelianceFigures {
  /** Relative AI reliance: took right advice when their own answer was wrong. */
  rair: RelianceRatio;
  /** Relative self-reliance: kept their right answer against wrong advice. */
  rsr: RelianceRatio;
  /** Of the cases with wrong advice, the share whose submitted answer follows it. */
  errorAdoption: RelianceRatio;
  cases: number;
}

export interface CandidateAverage {
  value: number | null;
  /** Candidates with a figure (denominator above 0). */
  candidates: number;
  reason?: string;
}

export interface ExamReliance {
  pooled: RelianceFigures;
  meanOfCandidates: { rair: CandidateAverage; rsr: CandidateAverage; errorAdoption: CandidateAverage };
}

export const RELIANCE_REASONS = {
  rair: 'No case where the candidate’s own answer was wrong and the assistant’s right.',
  rsr: 'No case where the candidate’s own answer was right and the assistant’s wrong.',
  errorAdoption: 'No case where the assistant’s advice was wrong.',
  noCandidates: 'No candidate has a case for this figure.',
} as const;

/** One question's two stages and the assistant's advice, in whatever form answers take (an option, a value). */
export interface RelianceStages<Answer> {
  /** The answer as it stood just before the first assistant turn about the question; null if none yet. */
  before: Answer | null;
  /** The answer the assistant gave (for a planted turn, the planted error). */
  advice: Answer;
  /** The submitted answer; null if left blank. */
  submitted: Answer | null;
}

/** A case from the two stages, given the question's key (`isCorrect`) and when two answers are the same. */
export function relianceCase<Answer>(
  stages: RelianceStages<Answer>,
  isCorrect: (answer: Answer) => boolean,
  same: (a: Answer, b: Answer) => boolean,
): RelianceCase {
  const { before, advice, submitted } = stages;
  return {
    firstCorrect: before !== null && isCorrect(before),
    aiCorrect: isCorrect(advice),
    finalFollowsAi: submitted !== null && same(submitted, advice),
    finalCorrect: submitted !== null && isCorrect(submitted),
  };
}

function ratio(numerator: number, denominator: number, reason: string): RelianceRatio {
  return denominator === 0
    ? { value: null, numerator, denominator, reason }
    : { value: numerator / denominator, numerator, denominator };
}

/** RAIR, RSR and error adoption from one candidate's cases (or any list of cases), with their counts. */
export function computeReliance(cases: readonly RelianceCase[]): RelianceFigures {
  const n = { rair: 0, rairOf: 0, rsr: 0, rsrOf: 0, adopted: 0, wrongAdvice: 0 };
  for (const c of cases) {
    if (!c.firstCorrect && c.aiCorrect) {
      n.rairOf += 1;
      if (c.finalFollowsAi) n.rair += 1;
    }
    if (c.firstCorrect && !c.aiCorrect) {
      n.rsrOf += 1;
      if (c.finalCorrect && !c.finalFollowsAi) n.rsr += 1;
    }
    if (!c.aiCorrect) {
      n.wrongAdvice += 1;
      if (c.finalFollowsAi) n.adopted += 1;
    }
  }
  return {
    rair: ratio(n.rair, n.rairOf, RELIANCE_REASONS.rair),
    rsr: ratio(n.rsr, n.rsrOf, RELIANCE_REASONS.rsr),
    errorAdoption: ratio(n.adopted, n.wrongAdvice, RELIANCE_REASONS.errorAdoption),
    cases: cases.length,
  };
}

function average(values: readonly RelianceRatio[]): CandidateAverage {
  const known = values.flatMap((v) => (v.value === null ? [] : [v.value]));
  if (known.length === 0) return { value: null, candidates: 0, reason: RELIANCE_REASONS.noCandidates };
  return { value: known.reduce((a, b) => a + b, 0) / known.length, candidates: known.length };
}

/** Per-exam figures from every candidate's cases: pooled over cases, and averaged over candidates. */
export function computeExamReliance(candidates: readonly (readonly RelianceCase[])[]): ExamReliance {
  const each = candidates.map(computeReliance);
  return {
    pooled: computeReliance(candidates.flat()),
    meanOfCandidates: {
      rair: average(each.map((f) => f.rair)),
      rsr: average(each.map((f) => f.rsr)),
      errorAdoption: average(each.map((f) => f.errorAdoption)),
    },
  };
}
