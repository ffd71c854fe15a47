import { CollaborationMessages } from '@exam/domain/collaboration';
import { collaborationFigures } from '@exam/domain/collaboration-figures';
import type { Timeline } from '@exam/domain/timeline';
import { describe, expect, it } from 'vitest';
import { gapOfCandidate, profileOf, type LoadedAttempt } from './collaboration-view.ts';

const timeline: Timeline = {
  resultId: 'r1',
  attemptId: 'a1',
  startedAt: '2031-01-01T09:00:00.000Z',
  submittedAt: '2031-01-01T10:00:00.000Z',
  events: [],
  answers: [],
  workspaceFiles: [],
  messages: [],
  unavailable: [],
};
const loaded: LoadedAttempt = { timeline, questions: [], figures: collaborationFigures(timeline, []) };
const independence = (gap: Parameters<typeof profileOf>[3]) =>
  profileOf('r1', loaded, [], gap).dimensions.find((d) => d.dimension === 'independence')!;

describe('the profile’s independence', () => {
  it('maps the candidate’s gap from insights to its level, with the gap as figures', () => {
    const view = independence({ gap: { estimate: 0.7, low: 0.1, high: 1.3 }, reason: null, unavailable: false });
    expect(view).toMatchObject({
      level: 2,
      basis: 'process',
      reason: null,
      figures: { gapEstimate: 0.7, gapLow: 0.1, gapHigh: 1.3 },
    });
  });

  it('is null with the reason, and names the ability fit unavailable when insights could not be computed', () => {
    const down = profileOf('r1', loaded, [], {
      gap: null,
      reason: CollaborationMessages.abilityUnavailable,
      unavailable: true,
    });
    expect(down.unavailable).toEqual(['ability']);
    expect(down.dimensions.find((d) => d.dimension === 'independence')).toMatchObject({
      level: null,
      reason: CollaborationMessages.abilityUnavailable,
    });
  });
});

describe('the gap a profile reads from insights', () => {
  const ability = (estimate: number | null, reason?: string) => ({
    aided: { theta: 0.4, se: 0.3 },
    unaided: { theta: -0.4, se: 0.3 },
    gap: { estimate, low: estimate === null ? null : estimate - 0.5, high: null, se: 0.25, flag: null, reason },
  });

  it('takes the candidate’s gap, or says why there is none', () => {
    const candidates = [
      { resultId: 'kept', ability: ability(0.8) },
      { resultId: 'no-sets', ability: null },
      { resultId: 'no-estimate', ability: ability(null, 'Too few answers in the unaided set.') },
    ];
    expect(gapOfCandidate(candidates, 'kept')).toEqual({
      gap: candidates[0]!.ability!.gap,
      reason: null,
      unavailable: false,
    });
    expect(gapOfCandidate(candidates, 'no-sets').reason).toBe(CollaborationMessages.noAbilityFit);
    expect(gapOfCandidate(candidates, 'no-estimate').reason).toBe('Too few answers in the unaided set.');
    expect(gapOfCandidate(candidates, 'older-attempt').reason).toBe(CollaborationMessages.notInReport);
    expect(independence(gapOfCandidate(candidates, 'kept')).level).toBe(2);
  });
});
