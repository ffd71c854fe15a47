import type { CandidateAidedAbility, InsightsReport } from '@exam/domain/insights';
import type { Question } from '@exam/domain/question';
import { abilitySets, type Section } from '@exam/domain/sections';
import { fitAidedAbility, type AbilitySet, type CandidateAbility } from '@exam/psychometrics/aided-ability';
import type { Mark } from '@exam/psychometrics/classical';
import { isAnswered } from '@exam/domain/answer-text';
import type { InsightsGrade } from './insights.repository.ts';

export const AIDED_ABILITY_REASONS = {
  noSets:
    'Ability with and without the assistant needs sections: some questions sat with the assistant and some without it.',
  noExam: 'The exam’s sections could not be read (exam-service is unavailable); try again later.',
} as const;

/** Hover texts of the aided/unaided figures, keyed as @exam/domain/insights documents `explanations`. */
export const AIDED_ABILITY_EXPLANATIONS: Record<string, string> = {
  'candidate.aidedAbility':
    'Ability in logits on the questions sat with the assistant (aided) and on those sat without it (unaided), on one scale: a between-item two-dimensional Rasch model, each set’s mean difficulty fixed at 0. Posterior mean (EAP) ± its standard error.',
  'candidate.abilityGap':
    'Aided minus unaided ability, in logits, with its 95% interval. A positive gap means the candidate does better with the assistant than without it. It reads as the assistant’s effect only if the two sets are equally hard by design (parallel questions). Flagged when the gap is far outside the cohort’s (Benjamini–Hochberg, 5% false discoveries).',
  'aidedAbility.gap':
    'The cohort’s gaps (aided − unaided, logits): their spread and how reliable one candidate’s gap is (empirical reliability; a difference of two abilities is much less reliable than either). Each candidate’s gap is shown with its 95% interval, flagged candidates marked.',
};

/**
 * Which of the exam's questions are aided and which unaided (sections.ts abilitySets): the sections the cohort sat,
 * from the attempt's snapshot once it keeps them, else from the exam. Null sets (and the reason) when there is no
 * contrast, or when the sections cannot be read.
 */
export function abilitySetsOf(
  questions: ReadonlyArray<Pick<Question, 'sectionId'>>,
  snapshot: unknown,
  exam: { aiSettings: { enabled: boolean }; sections: ReadonlyArray<Section> } | undefined,
  examUnavailable = false,
): { sets: Array<AbilitySet | null>; reason: string | null } {
  const kept = snapshot as { sections?: unknown; aiEnabled?: unknown } | undefined;
  const sections = Array.isArray(kept?.sections) ? (kept.sections as Section[]) : exam?.sections;
  const aiEnabled = typeof kept?.aiEnabled === 'boolean' ? kept.aiEnabled : exam?.aiSettings.enabled;
  if (sections === undefined || aiEnabled === undefined)
    return {
      sets: questions.map(() => null),
      reason: examUnavailable ? AIDED_ABILITY_REASONS.noExam : AIDED_ABILITY_REASONS.noSets,
    };
  const sets = abilitySets({ aiEnabled, sections, questions });
  return { sets, reason: sets.some((s) => s !== null) ? null : AIDED_ABILITY_REASONS.noSets };
}

/**
 * One candidate's response to one exam question for the aided/unaided fit, a dichotomous Rasch response:
 * - 1 when the answer earned the question's full points, 0 otherwise: the Rasch model takes right or wrong, and a
 *   partly right answer did not show the whole skill (the main report's fits count a mark of ½ as right instead,
 *   but a half-mark threshold would count a 1-of-3-tests coding answer differently from a 2-of-3 one for no reason
 *   the creator chose);
 * - missing (null) when the candidate was not given the question (a pool), left it blank, or it waits for a
 *   grader. Leaving blanks missing rather than wrong is deliberate: with sections, an unanswered question is most
 *   often one the candidate never reached before a section's time ran out, and scoring it wrong would mix speed
 *   into ability — and into the gap, since the sections are timed separately. Omitted answers as missing is the
 *   usual treatment of not-reached items in IRT calibration (as ConQuest and mirt do by default with NA). The price:
 *   a candidate who skips what they cannot do looks abler, on both sets alike.
 */
export function aidedResponse(grade: InsightsGrade | undefined, question: Question): Mark {
  if (!grade || grade.points === null || question.points <= 0) return null;
  if (!isAnswered(question, grade.answer)) return null;
  return grade.points >= question.points ? 1 : 0;
}

function toCandidateAbility(a: CandidateAbility): CandidateAidedAbility {
  const reasonOf = (reason: string | undefined) => (reason ? { reason } : {});
  return {
    aided: { theta: a.aided.theta, se: a.aided.se, ...reasonOf(a.aided.reason) },
    unaided: { theta: a.unaided.theta, se: a.unaided.se, ...reasonOf(a.unaided.reason) },
    gap: {
      estimate: a.gap.estimate,
      low: a.gap.low,
      high: a.gap.high,
      se: a.gap.se,
      flag: a.gap.flag,
      ...reasonOf(a.gap.reason),
    },
  };
}

/**
 * Each submitted candidate's aided and unaided ability and the cohort's figures, put into the report. `grades[c][i]`
 * is candidate c's grade of exam question i (undefined when not drawn), in the report's candidate order.
 */
export function withAidedAbility(
  report: InsightsReport,
  input: {
    questions: readonly Question[];
    sets: ReadonlyArray<AbilitySet | null>;
    reason: string | null;
    candidates: ReadonlyArray<{ resultId: string; grades: ReadonlyArray<InsightsGrade | undefined> }>;
  },
): InsightsReport {
  const { questions, sets } = input;
  const items = {
    aided: sets.filter((s) => s === 'aided').length,
    unaided: sets.filter((s) => s === 'unaided').length,
  };
  const unavailable = (reason: string): InsightsReport => ({
    ...report,
    candidates: report.candidates.map((c) => ({ ...c, ability: null })),
    aidedAbility: { available: false, reason, items, population: null, gap: null, converged: false },
    reasons: { ...report.reasons, aidedAbility: reason },
    explanations: { ...report.explanations, ...AIDED_ABILITY_EXPLANATIONS },
  });
  if (input.reason !== null) return unavailable(input.reason);

  const marks = input.candidates.map((c) => questions.map((q, i) => aidedResponse(c.grades[i], q)));
  const fit = fitAidedAbility(marks, sets);
  if (fit.reason) return unavailable(fit.reason);
  const byResult = new Map(input.candidates.map((c, i) => [c.resultId, toCandidateAbility(fit.candidates[i]!)]));
  const estimates = fit.gap?.estimates ?? null;
  return {
    ...report,
    candidates: report.candidates.map((c) => ({ ...c, ability: byResult.get(c.resultId) ?? null })),
    aidedAbility: {
      available: true,
      reason: null,
      items,
      population: fit.population,
      gap: fit.gap && {
        mean: estimates?.mean ?? null,
        sd: estimates?.sd ?? null,
        quantiles: estimates?.quantiles ?? null,
        reliability: fit.gap.reliability,
        flagged: fit.gap.flagged,
      },
      converged: fit.converged,
    },
    explanations: { ...report.explanations, ...AIDED_ABILITY_EXPLANATIONS },
  };
}
