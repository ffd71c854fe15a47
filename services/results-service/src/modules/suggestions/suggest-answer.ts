import { AppError, ErrorCode } from '@exam/domain/errors';
import type { Question, Rubric } from '@exam/domain/question';
import {
  combineSamples,
  InternalSuggestRequestSchema,
  SuggestionMessages,
  type GradingSuggestion,
  type InternalSuggestRequest,
} from '@exam/domain/question-grading';
import type { Deps } from '../../deps.ts';
import { maskCandidate } from './candidate-masking.ts';
import { toGradingSuggestion } from '../question-grading/latest-suggestions.ts';
import type { SuggestionRow, SuggestionsRepository } from './suggestions.repository.ts';

/** One answer as a suggestion reads it (modules/question-grading's reader gives it). */
export type AnswerToSuggest = {
  resultId: string;
  examId: string;
  ownerId: string;
  /** The exam's own index of the question. */
  examQuestionIndex: number;
  /** The question as the candidate's snapshot holds it. */
  question: Question;
  rubric: Rubric | null;
  humanGraded: boolean;
  /** The text a mark rests on (an upload's readable text); null or blank when there is none. */
  text: string | null;
  /** SHA-256 of `text`: a suggestion made for another hash is no longer current. */
  answerHash: string;
  /** Everything naming the candidate (candidate-masking.ts's candidateIdentifiers). */
  identifiers: string[];
};

const { shape: limits } = InternalSuggestRequestSchema;
const ANSWER_MAX = limits.answer.maxLength ?? 60_000;
const TITLE_MAX = limits.question.shape.title.maxLength ?? 500;
const CONTENT_MAX = limits.question.shape.content.maxLength ?? 50_000;

/** Whitespace of any kind and width reads as one space, and none at the ends. */
const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The model's quote when the answer contains it (whitespace-insensitive: a quote re-wrapped or with its line breaks
 * flattened is still the candidate's words), else ''. A quote that is not in the answer is never shown as the
 * candidate's words.
 */
export function quoteFromAnswer(quote: string, answer: string): string {
  const wanted = collapse(quote);
  return wanted !== '' && collapse(answer).includes(wanted) ? quote.trim() : '';
}

/** Refuses an answer a suggestion cannot be made for: 400 naming why. */
export function assertSuggestible(answer: Pick<AnswerToSuggest, 'humanGraded' | 'text'>): string {
  if (!answer.humanGraded)
    throw new AppError(ErrorCode.VALIDATION, SuggestionMessages.notHumanGraded, [
      { path: 'questionIndex', message: SuggestionMessages.notHumanGraded },
    ]);
  const text = answer.text ?? '';
  if (text.trim() === '')
    throw new AppError(ErrorCode.VALIDATION, SuggestionMessages.unreadable, [
      { path: 'questionIndex', message: SuggestionMessages.unreadable },
    ]);
  return text;
}

/**
 * What llm-gateway is sent: the question (title, text, type, points, rubric) and the answer's text with the
 * candidate masked. Nothing else of the result: no name, candidate ID, e-mail, result or attempt id.
 */
export function suggestRequestOf(answer: AnswerToSuggest, text: string, samples: number): InternalSuggestRequest {
  const { question } = answer;
  return {
    question: {
      title: question.title.slice(0, TITLE_MAX),
      content: question.content.slice(0, CONTENT_MAX),
      type: question.type,
      maxPoints: question.points,
      rubric: answer.rubric,
    },
    answer: maskCandidate(text, answer.identifiers).slice(0, ANSWER_MAX),
    samples,
  };
}

export type SuggestDeps = Pick<Deps, 'gradingSuggester' | 'ids' | 'clock'> & { repo: SuggestionsRepository };

/**
 * Asks llm-gateway for one answer's suggestion and stores it: the samples combined by combineSamples (median,
 * uncertain when they disagree), a quote kept only when the answer contains it. The gateway's refusals pass through
 * as AppErrors (adapters/grading-suggestions.ts). With `batch`, the row names the batch and counts in its progress.
 */
export async function suggestAnswer(
  answer: AnswerToSuggest,
  samples: number,
  deps: SuggestDeps,
  batch?: { id: string; leaseOwner: string },
): Promise<GradingSuggestion> {
  const text = assertSuggestible(answer);
  const request = suggestRequestOf(answer, text, samples);
  const reply = await deps.gradingSuggester.suggest(answer.examId, request);
  const combined = combineSamples(reply.samples, answer.question.points, answer.rubric?.criteria ?? []);
  const row = {
    id: deps.ids.next(),
    resultId: answer.resultId,
    examId: answer.examId,
    ownerId: answer.ownerId,
    questionIndex: answer.examQuestionIndex,
    answerHash: answer.answerHash,
    points: combined.points,
    rubric: combined.rubric,
    rationale: combined.rationale,
    // Checked against the text the model read, so a quote around a masked name still counts as found.
    quote: quoteFromAnswer(combined.quote, request.answer),
    uncertain: combined.uncertain,
    samplePoints: combined.samplePoints,
    provider: reply.provider,
    model: reply.model,
    inputTokens: reply.usage.inputTokens,
    outputTokens: reply.usage.outputTokens,
    createdAt: deps.clock.now(),
  };
  const stored: SuggestionRow = batch
    ? await deps.repo.insertForBatch({ ...row, batchId: batch.id }, batch.leaseOwner)
    : await deps.repo.insert({ ...row, batchId: null });
  // Just made from the answer as it is now: current.
  return toGradingSuggestion(stored, stored.answerHash);
}
