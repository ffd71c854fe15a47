import {
  CollaborationProfileSchema,
  type CollaborationDimensionView,
  type CollaborationJudgement,
  type CollaborationProfile,
} from '@exam/domain/collaboration';

export function makeJudgement(overrides: Partial<CollaborationJudgement> = {}): CollaborationJudgement {
  return {
    suggestedLevel: 1,
    rationale: 'Pastes the question and asks for the answer, then asks one question about the method.',
    quotes: ['just give me the code'],
    status: 'suggested',
    finalLevel: null,
    decidedBy: null,
    decidedAt: null,
    suggestedAt: '2031-01-01T10:00:00.000Z',
    ...overrides,
  };
}

/** A profile as results-service answers it: nothing judged yet, integration 1, no aided/unaided gap. */
export function makeCollaborationProfile(
  resultId: string,
  dimensions: Partial<Record<CollaborationDimensionView['dimension'], Partial<CollaborationDimensionView>>> = {},
  unavailable: CollaborationProfile['unavailable'] = [],
): CollaborationProfile {
  const base: CollaborationDimensionView[] = [
    {
      dimension: 'framing',
      level: null,
      basis: 'judgement',
      figures: { messagesSent: 4, questionPasteShare: 0.25, askingShare: 0.5, meanWords: 10 },
      evidence: [
        { kind: 'event', text: 'Pasted the text of question 1', messageId: 'u1', at: '2031-01-01T09:01:00.000Z' },
      ],
      reason: 'Ask for a suggestion first, or the profile has nothing to confirm.',
      judgement: null,
    },
    {
      dimension: 'verification',
      level: null,
      basis: 'judgement',
      figures: { replies: 3, testedShare: 2 / 3, editedShare: 2 / 3, pushbackShare: 0.5, pushbackMessages: 1 },
      evidence: [{ kind: 'quote', text: 'This is wrong for negative numbers.', messageId: 'u2' }],
      reason: 'Ask for a suggestion first, or the profile has nothing to confirm.',
      judgement: null,
    },
    {
      dimension: 'integration',
      level: 1,
      basis: 'process',
      figures: {
        assistantInserted: 94,
        assistantKept: 88,
        keptShare: 88 / 94,
        changedShare: 6 / 94,
        assistantShareOfAnswers: 2 / 3,
      },
      evidence: [],
      reason: null,
      judgement: null,
    },
    {
      dimension: 'independence',
      level: null,
      basis: 'process',
      figures: { gapEstimate: null, gapLow: null, gapHigh: null },
      evidence: [],
      reason: 'The exam has no items sat both with and without the assistant, so there is no aided/unaided gap.',
      judgement: null,
    },
  ];
  return CollaborationProfileSchema.parse({
    resultId,
    dimensions: base.map((d) => ({ ...d, ...dimensions[d.dimension] })),
    unavailable,
  });
}

/** The profile of a candidate who never used the assistant: no figure to show but counts of zero. */
export function makeUnusedCollaborationProfile(resultId: string): CollaborationProfile {
  const reason = 'This candidate did not use the assistant: there is nothing to judge.';
  return makeCollaborationProfile(resultId, {
    framing: {
      figures: { messagesSent: 0, questionPasteShare: null, askingShare: null, meanWords: null },
      evidence: [],
      reason,
    },
    verification: {
      figures: { replies: 0, testedShare: null, editedShare: null, pushbackShare: null, pushbackMessages: 0 },
      evidence: [],
      reason,
    },
    integration: {
      level: null,
      figures: {
        assistantInserted: 0,
        assistantKept: 0,
        keptShare: null,
        changedShare: null,
        assistantShareOfAnswers: null,
      },
      reason: 'Nothing was taken from the assistant into the answers: there is nothing to integrate.',
    },
  });
}
