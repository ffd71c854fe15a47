import type { InsightsReport } from '@exam/domain/insights';
import { describe, expect, it } from 'vitest';
import { candidateCollaboration, withCollaboration } from './collaboration-cohort.ts';
import type { CohortJudgement } from './collaboration.repository.ts';

type Candidate = InsightsReport['candidates'][number];
const gap = (estimate: number, low: number) => ({
  aided: { theta: 0, se: 0.3 },
  unaided: { theta: -estimate, se: 0.3 },
  gap: { estimate, low, high: estimate + 0.5, se: 0.25, flag: null },
});
const candidate = (resultId: string, ability: Candidate['ability'] = null) =>
  ({ resultId, ability, collaboration: null }) as unknown as Candidate;
const report = (candidates: Candidate[]) => ({ candidates }) as unknown as InsightsReport;
const judged = (
  resultId: string,
  dimension: 'framing' | 'verification',
  suggestedLevel: number,
  finalLevel: number | null,
): CohortJudgement => ({
  resultId,
  dimension,
  suggestedLevel,
  finalLevel,
  status: finalLevel === null ? 'suggested' : finalLevel === suggestedLevel ? 'accepted' : 'edited',
});
const used = { messagesSent: 3, inserted: 100, kept: 50 };

describe('candidateCollaboration', () => {
  it('takes independence from the candidate’s gap in the report and integration from the record’s totals', () => {
    expect(candidateCollaboration(candidate('r', gap(1.2, 0.4)), [], used)).toEqual({
      framing: null,
      verification: null,
      integration: 2,
      independence: 1,
    });
  });

  it('is null for a candidate who never used the assistant and has nothing judged', () => {
    expect(
      candidateCollaboration(candidate('r', gap(0, -1)), [], { messagesSent: 0, inserted: 0, kept: 0 }),
    ).toBeNull();
    expect(candidateCollaboration(candidate('r'), [], undefined)).toBeNull();
  });

  it('leaves integration unmeasured for a record made before insertions were counted', () => {
    expect(candidateCollaboration(candidate('r'), [], { messagesSent: 2, inserted: null, kept: 10 })).toMatchObject({
      integration: null,
    });
  });
});

describe('withCollaboration', () => {
  /*
   * Framing over five decided candidates, (suggested, final): (0,0) (1,1) (2,3) (3,3) (4,2); r6 undecided.
   * Exact agreement 3/5. κw by hand (Cohen 1968, quadratic weights on the levels): observed Σ(s − h)² / n =
   * (0 + 0 + 1 + 0 + 4) / 5 = 1; expected is the mean of (s − h)² over all 25 pairings = var(s) + var(h) + (s̄ − h̄)²
   * with s = 0,1,2,3,4 (mean 2, var 2) and h = 0,1,3,3,2 (mean 1.8, var 1.36): 2 + 1.36 + 0.04 = 3.4;
   * κw = 1 − 1/3.4 = 0.70588.
   */
  const pairs: Array<[number, number]> = [
    [0, 0],
    [1, 1],
    [2, 3],
    [3, 3],
    [4, 2],
  ];
  const judgements = [
    ...pairs.map(([s, h], i) => judged(`r${i + 1}`, 'framing', s, h)),
    judged('r6', 'framing', 2, null),
    judged('r1', 'verification', 2, 2),
    // Not among the candidates the report counts (another result of the same candidate).
    judged('r-other', 'framing', 0, 4),
  ];
  const candidates = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7'].map((id) => candidate(id));
  const process = new Map(candidates.map((c) => [c.resultId, used]));
  process.set('r7', { messagesSent: 0, inserted: 0, kept: 0 });
  const out = withCollaboration(report(candidates), { judgements, process });

  it('counts each dimension’s levels over the report’s candidates, those without one as unmeasured', () => {
    expect(out.collaboration!.dimensions).toEqual([
      { dimension: 'framing', levels: [1, 1, 1, 2, 0], unmeasured: 2 },
      { dimension: 'verification', levels: [0, 0, 1, 0, 0], unmeasured: 6 },
      { dimension: 'integration', levels: [0, 0, 6, 0, 0], unmeasured: 1 },
      { dimension: 'independence', levels: [0, 0, 0, 0, 0], unmeasured: 7 },
    ]);
    expect(out.candidates.map((c) => c.collaboration?.framing ?? null)).toEqual([0, 1, 3, 3, 2, null, null]);
    expect(out.candidates[6]!.collaboration).toBeNull();
  });

  it('gives decided, accepted, exact agreement and quadratic-weighted κ per judged dimension', () => {
    const [framing, verification] = out.collaboration!.agreement;
    expect(framing).toMatchObject({ dimension: 'framing', decided: 5, accepted: 3, exactAgreement: 3 / 5 });
    expect(framing!.weightedKappa).toBeCloseTo(1 - 1 / 3.4, 10);
    // One decided pair: no κ.
    expect(verification).toEqual({
      dimension: 'verification',
      decided: 1,
      accepted: 1,
      exactAgreement: 1,
      weightedKappa: null,
    });
  });
});
