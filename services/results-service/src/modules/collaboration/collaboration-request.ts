import type { CollaborationSuggestionRequest } from '@exam/domain/collaboration';
import { maskCandidate } from '../suggestions/candidate-masking.ts';
import type { LoadedAttempt } from './collaboration-view.ts';

/** The request schema's own limits (CollaborationSuggestionRequestSchema): 2,000 messages, 500 questions. */
const MESSAGES_MAX = 2000;
const QUESTIONS_MAX = 500;
/**
 * A question's text and a message are cut here: the model needs the gist of the question and the candidate's own
 * words; a long pasted file or a reply with a whole program adds cost, not evidence. The candidate's messages keep
 * more, since quotes must come from them.
 */
const QUESTION_CHARS = 3000;
const USER_CHARS = 4000;
const REPLY_CHARS = 1500;

/**
 * What llm-gateway is sent for one candidate: the questions as they had them, the conversation with each turn's
 * question (the candidate's numbering), the candidate's name, ID and e-mail masked where they wrote them, and the
 * framing and verification figures. Nothing else of the result: no name, ID, result or attempt id.
 */
export function suggestionRequestOf(
  loaded: LoadedAttempt,
  identifiers: readonly string[],
): CollaborationSuggestionRequest {
  const questionOf = new Map<string, number>();
  for (const e of loaded.timeline.events)
    if (e.messageId && e.questionIndex !== undefined) questionOf.set(e.messageId, e.questionIndex);
  return {
    questions: loaded.questions.slice(0, QUESTIONS_MAX).map((q) => ({
      index: q.index,
      title: q.title,
      content: q.content.slice(0, QUESTION_CHARS),
    })),
    messages: loaded.timeline.messages.slice(0, MESSAGES_MAX).map((m) => ({
      id: m.id,
      role: m.role,
      content: maskCandidate(m.content.slice(0, m.role === 'user' ? USER_CHARS : REPLY_CHARS), identifiers),
      questionIndex: questionOf.get(m.id) ?? null,
    })),
    figures: { ...loaded.figures.framing, ...loaded.figures.verification },
  };
}
