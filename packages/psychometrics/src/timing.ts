import { median } from './stat.ts';

/** The proctoring event taker-web sends when the question on screen changes (questionIndex: the one shown). */
export const QUESTION_VIEW = 'question-view';

export interface ViewEvent {
  type: string;
  /** Epoch milliseconds (the server's time). */
  at: number;
  /** The exam's index of the question, for question-view events. */
  questionIndex?: number | null;
}

/**
 * Seconds one candidate had each question on screen, from the attempt's events in time order: a
 * question-view starts the question's time, which runs until the next question-view, a focus-lost or the
 * submission (completedAt); a focus-gained resumes the question last viewed (the page does not repeat an
 * unchanged view). Times are clamped to the attempt. Only questions with a view are in the map, a question
 * viewed for no measurable time with 0.
 */
export function secondsPerQuestion(
  events: readonly ViewEvent[],
  startedAt: number,
  completedAt: number | null,
): Map<number, number> {
  const spent = new Map<number, number>();
  const ordered: ViewEvent[] = [];
  let viewed = false;
  let sorted = true;
  let latest = startedAt;
  for (const e of events) {
    if (e.type !== QUESTION_VIEW && e.type !== 'focus-lost' && e.type !== 'focus-gained') continue;
    if (e.type === QUESTION_VIEW) viewed = true;
    if (ordered.length > 0 && e.at < ordered[ordered.length - 1]!.at) sorted = false;
    latest = Math.max(latest, e.at);
    ordered.push(e);
  }
  if (!viewed) return spent;
  // The service reads them in recorded order already; a stable sort puts any other input in time order.
  if (!sorted) ordered.sort((a, b) => a.at - b.at);
  const end = completedAt ?? latest;
  const clamp = (t: number) => Math.min(end, Math.max(startedAt, t));
  let current: number | null = null;
  let lastViewed: number | null = null;
  let since = startedAt;
  const stop = (t: number) => {
    if (current !== null) spent.set(current, (spent.get(current) ?? 0) + Math.max(0, t - since) / 1000);
    current = null;
  };
  for (const e of ordered) {
    const t = clamp(e.at);
    if (e.type === QUESTION_VIEW) {
      if (e.questionIndex === null || e.questionIndex === undefined) continue;
      stop(t);
      current = e.questionIndex;
      lastViewed = e.questionIndex;
      since = t;
      if (!spent.has(current)) spent.set(current, 0);
    } else if (e.type === 'focus-lost') {
      stop(t);
    } else if (current === null && lastViewed !== null) {
      current = lastViewed;
      since = t;
    }
  }
  stop(end);
  return spent;
}

export interface TimeSummary {
  medianSeconds: number | null;
  meanSeconds: number | null;
  /** Candidates whose page reported viewing the question. */
  candidates: number;
}

export function summariseTimes(seconds: readonly number[]): TimeSummary {
  if (seconds.length === 0) return { medianSeconds: null, meanSeconds: null, candidates: 0 };
  const sum = seconds.reduce((a, b) => a + b, 0);
  return { medianSeconds: median(seconds), meanSeconds: sum / seconds.length, candidates: seconds.length };
}

/** Bucket widths the assistant-use histogram chooses from, smallest first (seconds). */
const BUCKET_SIZES = [60, 120, 300, 600, 900, 1200, 1800, 3600];
export const MAX_AI_USE_BUCKETS = 60;

export interface AiUseCandidate {
  startedAt: number;
  completedAt: number | null;
  /** When the candidate sent each message to the assistant (epoch ms). */
  messages: readonly number[];
}

export interface AiUse {
  bucketSeconds: number;
  buckets: { from: number; messages: number; candidates: number }[];
}

/** The smallest bucket width (a round number of minutes, or of hours past 8) giving at most MAX_AI_USE_BUCKETS over span. */
export function bucketSecondsFor(spanSeconds: number): number {
  for (const size of BUCKET_SIZES) if (Math.ceil(spanSeconds / size) <= MAX_AI_USE_BUCKETS) return size;
  return 3600 * Math.ceil(spanSeconds / 3600 / MAX_AI_USE_BUCKETS);
}

/**
 * Candidates' messages to the assistant by time since each one's start: buckets from 0 to the longest
 * attempt (or the latest message), each with its messages and the distinct candidates who sent them.
 * Messages dated before the start count in the first bucket. No candidates: no buckets.
 */
export function aiUseOverTime(candidates: readonly AiUseCandidate[]): AiUse {
  let span = 0;
  for (const c of candidates) {
    if (c.completedAt !== null) span = Math.max(span, (c.completedAt - c.startedAt) / 1000);
    for (const m of c.messages) span = Math.max(span, (m - c.startedAt) / 1000);
  }
  const bucketSeconds = bucketSecondsFor(span);
  if (candidates.length === 0 || !(span > 0)) return { bucketSeconds, buckets: [] };
  const count = Math.max(1, Math.ceil(span / bucketSeconds));
  const messages = new Array<number>(count).fill(0);
  const senders = Array.from({ length: count }, () => new Set<number>());
  candidates.forEach((c, who) => {
    for (const m of c.messages) {
      const offset = Math.max(0, (m - c.startedAt) / 1000);
      const b = Math.min(count - 1, Math.floor(offset / bucketSeconds));
      messages[b]! += 1;
      senders[b]!.add(who);
    }
  });
  return {
    bucketSeconds,
    buckets: messages.map((n, b) => ({ from: b * bucketSeconds, messages: n, candidates: senders[b]!.size })),
  };
}
