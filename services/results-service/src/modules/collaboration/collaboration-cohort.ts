import {
  COLLABORATION_DIMENSIONS,
  COLLABORATION_LEVEL_MAX,
  JUDGED_DIMENSIONS,
  type CandidateCollaboration,
  type CohortCollaboration,
} from '@exam/domain/collaboration';
import { independenceLevel, integrationLevel, usedAssistant } from '@exam/domain/collaboration-figures';
import type { InsightsReport } from '@exam/domain/insights';
import { quadraticWeightedKappa } from '@exam/psychometrics/agreement';
import type { CohortJudgement, ProcessTotals } from './collaboration.repository.ts';

/** What the exam's profiles rest on, read once per report (collaborationCohort). */
export type CollaborationCohortInputs = {
  judgements: readonly CohortJudgement[];
  process: ReadonlyMap<string, ProcessTotals>;
};

/**
 * One candidate's levels: framing and verification as a grader decided them (null until then), integration from
 * the process record's totals (no replay), independence from the candidate's gap in this very report. null when the
 * candidate never used the assistant (no message, nothing taken from it, nothing judged) or the record does not
 * say (a result made before operations were recorded, or still being computed) and nothing was judged.
 */
export function candidateCollaboration(
  candidate: Pick<InsightsReport['candidates'][number], 'resultId' | 'ability'>,
  judgements: readonly CohortJudgement[],
  totals: ProcessTotals | undefined,
): CandidateCollaboration | null {
  const judged = (dimension: 'framing' | 'verification') =>
    judgements.find((j) => j.dimension === dimension)?.finalLevel ?? null;
  const used = totals ? usedAssistant(totals.messagesSent ?? 0, totals.inserted ?? totals.kept) : false;
  if (!used && judgements.length === 0) return null;
  const inserted = totals?.inserted ?? null;
  return {
    framing: judged('framing'),
    verification: judged('verification'),
    integration: inserted ? integrationLevel(totals!.kept / inserted) : null,
    independence: independenceLevel(candidate.ability?.gap),
  };
}

/**
 * Each candidate's levels and the cohort's: how many candidates at each level of each dimension, and per judged
 * dimension how far the AI's suggestions agree with the graders' decisions: decided, accepted as suggested, exact
 * agreement and quadratic-weighted κ (Cohen 1968; packages/psychometrics/src/agreement.ts), over the candidates the
 * report counts. κ without its bootstrap interval: the profile's agreement is a guide beside the levels, and insights
 * stay a single pass over the pairs (the interval is what costs: 2,000 resamples).
 */
export function withCollaboration(report: InsightsReport, inputs: CollaborationCohortInputs): InsightsReport {
  const byResult = new Map<string, CohortJudgement[]>();
  for (const j of inputs.judgements) {
    const list = byResult.get(j.resultId);
    if (list) list.push(j);
    else byResult.set(j.resultId, [j]);
  }
  const candidates = report.candidates.map((c) => ({
    ...c,
    collaboration: candidateCollaboration(c, byResult.get(c.resultId) ?? [], inputs.process.get(c.resultId)),
  }));
  const anyProfile = candidates.some((c) => c.collaboration !== null);

  const dimensions = COLLABORATION_DIMENSIONS.map((dimension) => {
    const levels = Array.from({ length: COLLABORATION_LEVEL_MAX + 1 }, () => 0);
    let unmeasured = 0;
    for (const c of candidates) {
      const level = c.collaboration?.[dimension] ?? null;
      if (level === null) unmeasured++;
      else levels[level]!++;
    }
    return { dimension, levels, unmeasured };
  });
  const counted = new Set(report.candidates.map((c) => c.resultId));
  const agreement = JUDGED_DIMENSIONS.map((dimension) => {
    const decided = inputs.judgements.filter(
      (j) => j.dimension === dimension && counted.has(j.resultId) && j.status !== 'suggested' && j.finalLevel !== null,
    );
    const pairs = decided.map((j) => ({ suggested: j.suggestedLevel, human: j.finalLevel! }));
    return {
      dimension,
      decided: decided.length,
      accepted: decided.filter((j) => j.status === 'accepted').length,
      exactAgreement: pairs.length ? pairs.filter((p) => p.suggested === p.human).length / pairs.length : null,
      weightedKappa: pairs.length >= 2 ? quadraticWeightedKappa(pairs) : null,
    };
  });
  const collaboration: CohortCollaboration | null = anyProfile ? { dimensions, agreement } : null;
  return { ...report, candidates, collaboration };
}
