import type { InternalAttempt, InternalExam } from '@exam/domain/internal';
import {
  canPlantError,
  isPlantedTurn,
  plantedErrorIssues,
  replyContainsError,
  type PlantedTurn,
} from '@exam/domain/planted-errors';

/** A turn the provider is asked to carry a planted error on: the question (the candidate's numbering) and the error. */
export type PlantedAsk = { questionIndex: number; error: string };

/**
 * Whether this message's reply is asked to carry a planted error (docs/product.md#reliance-calibration-planted-errors):
 * the exam has reliance calibration on, the message is about a question of the attempt whose full question (the
 * live exam's, found by id: the attempt's snapshot has no keys and is in the candidate's order) has a plantedError
 * it can carry, and `isPlantedTurn` picks this turn. `turn` is how many earlier messages of the attempt were about
 * the question (admit_user_message), so every try of one message decides the same.
 */
export function plantedAskOf(
  exam: InternalExam,
  attempt: InternalAttempt | undefined,
  attemptId: string,
  questionIndex: number | null,
  turn: number | null,
): PlantedAsk | undefined {
  const settings = exam.aiSettings.plantedErrors;
  if (!settings?.enabled || questionIndex === null || turn === null) return undefined;
  // An older results-service sends no snapshot: the live exam's order is then the candidate's (as for the prompt).
  const seen = attempt?.questions ? attempt.questions[questionIndex] : exam.questions[questionIndex];
  const question = seen && exam.questions.find((q) => q.id === seen.id);
  const error = question?.plantedError?.trim();
  // The exam's own validation refuses an error that is the key; checked again, as a key must never be "planted".
  if (!question || !error || !canPlantError(question) || plantedErrorIssues(question).length) return undefined;
  return isPlantedTurn(attemptId, questionIndex, turn, settings.share) ? { questionIndex, error } : undefined;
}

/**
 * What the transcript records of an asked turn once its reply ended: verified only when the text that reached the
 * candidate (a whole reply, or what the guardrail let through) contains the error. A reply cut short or failed is
 * recorded as asked and not verified: it does not count as planted.
 */
export function plantedRecord(ask: PlantedAsk, shown: string | null): PlantedTurn {
  return { ...ask, verified: shown !== null && replyContainsError(shown, ask.error) };
}
