import {
  CollaborationMessages,
  type CollaborationDimensionView,
  type CollaborationEvidence,
  type CollaborationJudgement,
  type CollaborationProfile,
  type JudgedDimension,
} from '@exam/domain/collaboration';
import type { collaborationFigures } from '@exam/domain/collaboration-figures';
import {
  independenceFigures,
  independenceLevel,
  integrationLevel,
  pastesQuestion,
  pushesBack,
  type AbilityGap,
  type CollaborationQuestion,
} from '@exam/domain/collaboration-figures';
import type { InsightsCandidate } from '@exam/domain/insights';
import type { Timeline } from '@exam/domain/timeline';
import type { JudgementRow } from './collaboration.repository.ts';

/** The attempt as the profile reads it: its timeline, the questions as the candidate had them, and its figures. */
export type LoadedAttempt = {
  timeline: Timeline;
  questions: CollaborationQuestion[];
  figures: ReturnType<typeof collaborationFigures>;
};

/** The candidate's aided/unaided gap as insights give it, or why there is none. */
export type GapRead = { gap: AbilityGap | null; reason: string | null; unavailable: boolean };

/** The candidate's gap in the exam's insights report, or why there is none (the result not kept, no contrast). */
export function gapOfCandidate(
  candidates: ReadonlyArray<Pick<InsightsCandidate, 'resultId' | 'ability'>>,
  resultId: string,
): GapRead {
  const candidate = candidates.find((c) => c.resultId === resultId);
  if (!candidate) return { gap: null, reason: CollaborationMessages.notInReport, unavailable: false };
  if (!candidate.ability) return { gap: null, reason: CollaborationMessages.noAbilityFit, unavailable: false };
  const { gap } = candidate.ability;
  if (gap.estimate === null)
    return { gap: null, reason: gap.reason ?? CollaborationMessages.noGap, unavailable: false };
  return { gap, reason: null, unavailable: false };
}

/** Evidence items shown per kind, at most: enough to check a level, short enough to read. */
const EVIDENCE_MAX = 3;
const QUOTE_MAX = 300;

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

export function toJudgement(row: JudgementRow): CollaborationJudgement {
  return {
    suggestedLevel: row.suggestedLevel,
    rationale: row.rationale,
    quotes: row.quotes,
    status: row.status,
    finalLevel: row.finalLevel,
    decidedBy: row.decidedBy,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    suggestedAt: row.suggestedAt.toISOString(),
  };
}

/** A suggestion's quotes, each pointing at the candidate's message it comes from when one contains it. */
function quoteEvidence(quotes: readonly string[], timeline: Timeline): CollaborationEvidence[] {
  const sent = timeline.messages.filter((m) => m.role === 'user');
  return quotes.map((quote) => {
    const found = sent.find((m) => collapse(m.content).includes(collapse(quote)));
    return { kind: 'quote', text: quote, ...(found ? { messageId: found.id, at: found.at } : {}) };
  });
}

function processEvidence(dimension: JudgedDimension, loaded: LoadedAttempt): CollaborationEvidence[] {
  const sent = loaded.timeline.messages.filter((m) => m.role === 'user');
  if (dimension === 'framing') {
    return sent
      .flatMap((m) => {
        const question = loaded.questions.find((q) => pastesQuestion(m.content, q));
        return question
          ? [
              {
                kind: 'event' as const,
                text: `Pasted the text of question ${question.index + 1}`,
                messageId: m.id,
                at: m.at,
              },
            ]
          : [];
      })
      .slice(0, EVIDENCE_MAX);
  }
  return sent
    .filter((m) => pushesBack(m.content))
    .slice(0, EVIDENCE_MAX)
    .map((m) => ({ kind: 'quote' as const, text: m.content.slice(0, QUOTE_MAX), messageId: m.id, at: m.at }));
}

function judgedView(
  dimension: JudgedDimension,
  loaded: LoadedAttempt,
  row: JudgementRow | undefined,
): CollaborationDimensionView {
  const figures = loaded.figures[dimension];
  const judgement = row ? toJudgement(row) : null;
  let reason: string | null = null;
  if (!judgement) {
    if (loaded.timeline.unavailable.includes('assistant')) reason = CollaborationMessages.assistantUnavailable;
    else reason = figures.messagesSent === 0 ? CollaborationMessages.noTranscript : CollaborationMessages.suggestFirst;
  } else if (judgement.finalLevel === null) reason = CollaborationMessages.undecided;
  return {
    dimension,
    level: judgement?.finalLevel ?? null,
    basis: 'judgement',
    // Framing's figures name the messages; verification's too, so the model and the grader read the same counts.
    figures:
      dimension === 'verification'
        ? { ...figures, messagesSent: loaded.figures.framing.messagesSent ?? null }
        : figures,
    evidence: [...quoteEvidence(judgement?.quotes ?? [], loaded.timeline), ...processEvidence(dimension, loaded)],
    reason,
    judgement,
  };
}

/** The profile of one result: the judged dimensions with their judgement, the process ones computed. */
export function profileOf(
  resultId: string,
  loaded: LoadedAttempt,
  judgements: readonly JudgementRow[],
  gap: GapRead,
): CollaborationProfile {
  const integration = loaded.figures.integration;
  const integrationAt = integrationLevel(integration.keptShare ?? null);
  const independenceAt = independenceLevel(gap.gap);
  const unavailable: CollaborationProfile['unavailable'] = [...loaded.timeline.unavailable];
  if (gap.unavailable) unavailable.push('ability');
  return {
    resultId,
    dimensions: [
      judgedView(
        'framing',
        loaded,
        judgements.find((j) => j.dimension === 'framing'),
      ),
      judgedView(
        'verification',
        loaded,
        judgements.find((j) => j.dimension === 'verification'),
      ),
      {
        dimension: 'integration',
        level: integrationAt,
        basis: 'process',
        figures: integration,
        evidence: [],
        reason: integrationAt === null ? CollaborationMessages.nothingTaken : null,
        judgement: null,
      },
      {
        dimension: 'independence',
        level: independenceAt,
        basis: 'process',
        figures: independenceFigures(gap.gap),
        evidence: [],
        reason: independenceAt === null ? (gap.reason ?? CollaborationMessages.noGap) : null,
        judgement: null,
      },
    ],
    unavailable,
  };
}
