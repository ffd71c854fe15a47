import { z } from 'zod';
import { hashSeed } from './arrangement.ts';

/**
 * Reliance calibration (issue 33, docs/product.md#reliance-calibration): with the creator's consent and the
 * candidate told in the briefing, the assistant is sometimes wrong on purpose. On a keyed question the creator
 * marks eligible (`Question.plantedError`: a wrong option, a wrong value), llm-gateway asks the provider, for
 * `share` of the candidate's assistant turns about that question, to include that one error, and counts the turn
 * as planted only when the reply really contains it (`replyContainsError`). From the final answers
 * results-service computes RAIR and RSR (@exam/psychometrics reliance.ts). A planted turn never costs a
 * candidate more than their answer earns: the answer is scored by the key as always.
 */

export const DEFAULT_PLANTED_SHARE = 0.3;

/** aiSettings.plantedErrors: off unless the creator turns it on. */
export const PlantedErrorsSettingsSchema = z.object({
  enabled: z.boolean().default(false),
  /** The share (0.05–1) of a candidate's assistant turns about an eligible question that carry the error. */
  share: z.number().min(0.05, 'At least 5% of the turns').max(1, 'At most every turn').default(DEFAULT_PLANTED_SHARE),
});
export type PlantedErrorsSettings = z.infer<typeof PlantedErrorsSettingsSchema>;

export const PlantedErrorMessages = {
  /** The briefing's disclosure, shown before the candidate starts (and in the exam's rules panel). */
  disclosure:
    'In this exam the assistant is sometimes wrong on purpose: some of its answers contain a plausible mistake. ' +
    'Check what it tells you before you use it. Your answer is marked by the key as usual.',
  notAnOption: 'The planted error must be one of the options',
  isCorrect: 'The planted error must be a wrong answer, not one the key accepts',
  notKeyed: 'Only a question with an answer key (a single-answer MCQ or a short answer) can have a planted error',
} as const;

/** What the transcript records of a planted turn (llm-gateway chat_messages.planted). */
export const PlantedTurnSchema = z.object({
  /** The question the error is about, by the candidate's numbering (the attempt's snapshot). */
  questionIndex: z.number().int().nonnegative(),
  /** The error the provider was asked to include. */
  error: z.string(),
  /** Whether the reply contained it: only a verified turn counts as planted. */
  verified: z.boolean(),
});
export type PlantedTurn = z.infer<typeof PlantedTurnSchema>;

type Keyed = {
  type: string;
  multipleAnswers?: boolean;
  options: readonly string[];
  correctAnswer?: string | undefined;
  acceptedAnswers: readonly string[];
  plantedError?: string | null;
};

/** Whether a question can carry a planted error at all: a single-answer MCQ with a key, or a keyed short answer. */
export function canPlantError(q: Keyed): boolean {
  if (q.type === 'mcq') return !q.multipleAnswers && q.correctAnswer !== undefined && q.correctAnswer !== '';
  return q.type === 'short-answer' && q.acceptedAnswers.length > 0;
}

/** A question's planted-error field against its key (QuestionSchema calls it). */
export function plantedErrorIssues(q: Keyed): Array<{ path: string[]; message: string }> {
  const error = q.plantedError;
  if (error == null || error.trim() === '') return [];
  const path = ['plantedError'];
  if (!canPlantError(q)) return [{ path, message: PlantedErrorMessages.notKeyed }];
  if (q.type === 'mcq') {
    if (!q.options.includes(error)) return [{ path, message: PlantedErrorMessages.notAnOption }];
    if (error === q.correctAnswer) return [{ path, message: PlantedErrorMessages.isCorrect }];
    return [];
  }
  const norm = (s: string) => s.toLowerCase().replace(/\s+/g, '');
  return q.acceptedAnswers.some((a) => norm(a) === norm(error))
    ? [{ path, message: PlantedErrorMessages.isCorrect }]
    : [];
}

/**
 * Whether the assistant turn `turn` (0 for the candidate's first message about the question, 1 for the next…)
 * carries the planted error. Deterministic from the attempt, the question and the turn, so every gateway replica
 * and a retried message decide the same, and over many turns the share planted approaches `share`.
 */
export function isPlantedTurn(attemptId: string, questionIndex: number, turn: number, share: number): boolean {
  return hashSeed(`${attemptId}:${questionIndex}:${turn}`) / 4294967296 < share;
}

/** Numbers written in a text ("3.5", "-2", "1,000"), for a numeric error's check. */
function numbersIn(text: string): number[] {
  return [...text.matchAll(/-?\d[\d,]*(?:\.\d+)?|-?\.\d+/g)].map((m) => Number(m[0].replace(/,/g, '')));
}

/**
 * Whether a reply contains the planted error: the option's text or the value, compared without case and
 * spacing; a numeric error also matches the same number written differently ("2.50" for "2.5").
 */
export function replyContainsError(reply: string, error: string): boolean {
  const squash = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();
  if (error.trim() === '') return false;
  if (squash(reply).includes(squash(error))) return true;
  const value = Number(error.replace(/,/g, '').trim());
  return Number.isFinite(value) && /\d/.test(error) && numbersIn(reply).some((n) => n === value);
}

/**
 * The system instruction llm-gateway adds to the prompt of a planted turn (its prompt.ts). The one format, here,
 * so the fake providers of the journeys and the benchmark (apps/e2e/tests/support/fake-openai.ts,
 * bench/llm-gateway/fakes.ts) read the error back with `plantedErrorOfInstruction` and cannot drift from what the
 * gateway sends. The error is written as a JSON string, so quotes or line breaks in it cannot end it early.
 */
export const PLANTED_INSTRUCTION_MARK = 'Reliance calibration (planted error):';

export function plantedInstruction(questionNumber: number, error: string): string {
  return (
    `${PLANTED_INSTRUCTION_MARK} in this reply, state ${JSON.stringify(error)} as the answer to Q${questionNumber} ` +
    '(or as the value the question asks for), plausibly and with the same confidence as any other answer, and ' +
    'quote it exactly as written here. Do not say or hint that it is wrong or deliberate, do not correct it, and ' +
    'do not give any other answer to this question. The candidate was told before the exam that this happens.'
  );
}

const INSTRUCTION_PATTERN = new RegExp(
  `${PLANTED_INSTRUCTION_MARK.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} in this reply, state ("(?:[^"\\\\]|\\\\.)*") as the answer to Q(\\d+) `,
);

/** The error and question number a prompt's planted instruction names, or undefined when it has none. */
export function plantedErrorOfInstruction(prompt: string): { error: string; questionNumber: number } | undefined {
  const match = INSTRUCTION_PATTERN.exec(prompt);
  if (!match) return undefined;
  return { error: JSON.parse(match[1]!) as string, questionNumber: Number(match[2]) };
}
