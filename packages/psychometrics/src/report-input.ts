import type { Mark } from './classical.ts';
import type { FlagOptions } from './item-fit.ts';
import type { ModelRequest } from './model-choice.ts';
import type { RaschOptions } from './rasch.ts';
import type { TwoPlOptions } from './twopl.ts';
import {
  copyOverlap,
  COPY_THRESHOLD,
  countEvents,
  createReplyIndex,
  focusPercent,
  reasoningScore,
  type ReasoningInput,
  type TimedEvent,
} from './integrity.ts';
import { secondsPerQuestion } from './timing.ts';

/** Plain data the insights report is built from (the service reads it from its tables). */
export type Instant = string | Date;

export interface ReportItemInput {
  questionIndex: number;
  topic: string;
  /** A question type of @exam/domain/question ('mcq', 'short-answer', 'essay', 'true-false', 'matching', …). */
  type: string;
  /** The options one right answer is picked from (guessability 1 / optionCount): an MCQ's, 2 for true/false. */
  optionCount: number;
}

export interface ReportChatMessage {
  role: 'user' | 'assistant';
  content: string;
  /** The question open when the message was sent (null if none). */
  questionIndex: number | null;
  /** When it was sent; messages without it are left out of the assistant use over time. */
  at?: Instant;
}

export interface ReportCandidateInput {
  resultId: string;
  name: string;
  studentId: string;
  startedAt: Instant;
  completedAt: Instant | null;
  /** marks[i] is the mark (0/1, null = not graded yet) for items[i]. */
  marks: readonly Mark[];
  /** answers[i] is the answer text for items[i]. */
  answers: readonly (string | null | undefined)[];
  /** Proctoring events; a question-view's questionIndex is the exam's index of the question shown. */
  events: readonly { type: string; at: Instant; questionIndex?: number | null }[];
  chat: readonly ReportChatMessage[];
  /**
   * The candidate's score as creators see it everywhere else: the percentage of the points, each question weighted by
   * its points (results-service's stored score). Candidates are ranked by it when every candidate has one; otherwise
   * by items correct, unweighted (`correct`).
   */
  score?: number | null;
}

export interface ReportInput {
  items: readonly ReportItemInput[];
  /** Submitted attempts only. */
  candidates: readonly ReportCandidateInput[];
  cohort: { invited: number; started: number; submitted: number; graded: number; pending: number };
  rasch?: RaschOptions;
  twoPl?: Pick<TwoPlOptions, 'quadraturePoints' | 'tolerance' | 'maxIterations'>;
  /** Which model the abilities come from: 'auto' (the default) decides by likelihood-ratio test. */
  model?: ModelRequest;
  flags?: FlagOptions;
}

/** Answers compared against the assistant's replies for copy writing: free text and code. */
export const WRITTEN_TYPES: ReadonlySet<string> = new Set(['short-answer', 'essay', 'coding']);

/** The types whose mark a blind pick among optionCount options earns with chance 1 / optionCount. */
const PICKED_TYPES: ReadonlySet<string> = new Set(['mcq', 'true-false']);

export function toMillis(instant: Instant): number {
  return typeof instant === 'string' ? Date.parse(instant) : instant.getTime();
}

export function randomGuessScore(item: ReportItemInput): number {
  return PICKED_TYPES.has(item.type) && item.optionCount > 0 ? 1 / item.optionCount : 0;
}

/** Everything about one candidate that does not need the rest of the cohort. */
export interface CandidateFacts {
  marks: Mark[];
  correct: number;
  /** consulted[i]: sent the assistant a message while items[i] was open. */
  consulted: boolean[];
  /** Sent the assistant any message (with or without a question open). */
  askedAnything: boolean;
  /** seconds[i]: time with items[i] on screen; undefined when the page never reported viewing it. */
  seconds: (number | undefined)[];
  /** When each message to the assistant was sent (epoch ms), for the assistant use over time. */
  messageTimes: number[];
  startedAtMs: number;
  completedAtMs: number | null;
  /** copied[i]: at least COPY_THRESHOLD of the written answer found in the assistant's replies. */
  copied: boolean[];
  reasoning: ReasoningInput[];
  reasoningScore: number | null;
  /** Percent of judged written words copied; null when nothing written was long enough to judge. */
  copyWriting: number | null;
  timeSpent: number | null;
  focusPercent: number;
  blockedPastes: number;
}

export function candidateFacts(candidate: ReportCandidateInput, items: readonly ReportItemInput[]): CandidateFacts {
  const marks = items.map((_, i) => candidate.marks[i] ?? null);
  const replies = createReplyIndex(candidate.chat.filter((m) => m.role === 'assistant').map((m) => m.content));
  const asked = new Set(candidate.chat.filter((m) => m.role === 'user').map((m) => m.questionIndex));
  let words = 0;
  let copiedWords = 0;
  const copied = items.map((item, i) => {
    const answer = candidate.answers[i];
    if (!WRITTEN_TYPES.has(item.type) || !answer) return false;
    const overlap = copyOverlap(answer, replies);
    words += overlap.words;
    copiedWords += overlap.copiedWords;
    return overlap.words > 0 && overlap.copiedWords / overlap.words >= COPY_THRESHOLD;
  });
  const consulted = items.map((item) => asked.has(item.questionIndex));
  const reasoning = items.map((_, i) => ({ mark: marks[i]!, consulted: consulted[i]!, copied: copied[i]! }));
  const start = toMillis(candidate.startedAt);
  const end = candidate.completedAt === null ? Number.NaN : toMillis(candidate.completedAt);
  const events: TimedEvent[] = candidate.events.map((e) => ({ type: e.type, at: toMillis(e.at) }));
  const duration = end - start;
  const viewed = secondsPerQuestion(
    candidate.events.map((e) => ({ type: e.type, at: toMillis(e.at), questionIndex: e.questionIndex ?? null })),
    start,
    Number.isFinite(end) ? end : null,
  );
  const userMessages = candidate.chat.filter((m) => m.role === 'user');
  return {
    marks,
    correct: marks.reduce<number>((sum, m) => sum + (m ?? 0), 0),
    consulted,
    askedAnything: userMessages.length > 0,
    seconds: items.map((item) => viewed.get(item.questionIndex)),
    messageTimes: userMessages.flatMap((m) => {
      const at = m.at === undefined ? Number.NaN : toMillis(m.at);
      return Number.isFinite(at) ? [at] : [];
    }),
    startedAtMs: start,
    completedAtMs: Number.isFinite(end) ? end : null,
    copied,
    reasoning,
    reasoningScore: reasoningScore(reasoning),
    copyWriting: words === 0 ? null : (100 * copiedWords) / words,
    timeSpent: Number.isFinite(duration) && duration >= 0 ? duration / 1000 : null,
    focusPercent: Number.isFinite(duration) ? focusPercent(events, start, end) : 100,
    blockedPastes: countEvents(events, 'paste-blocked'),
  };
}

/** Standard competition ranking ("1224"), highest score first: ties share a rank, the next rank skips. */
export function competitionRanks(scores: readonly number[]): number[] {
  const order = scores.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]!);
  const ranks = new Array<number>(scores.length);
  order.forEach((candidate, position) => {
    const previous = order[position - 1];
    ranks[candidate] =
      previous !== undefined && scores[previous] === scores[candidate] ? ranks[previous]! : position + 1;
  });
  return ranks;
}
