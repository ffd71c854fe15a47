import { InternalAttemptSchema, InternalExamSchema, type InternalAttempt } from '@exam/domain/internal';
import { createInternalClient, parseUpstream, unexpectedStatus } from '@exam/server-kit/internal-client';
import type { AttemptSource, ExamSource } from '../deps.ts';

/**
 * These calls sit on the chat's path to the first token, and many chats start at once: a pool of 256
 * keep-alive sockets per upstream (the server-kit default is 64). The server-kit client calls node:http at
 * request time, so msw still intercepts it in tests.
 */
const clientOptions = (timeoutMs: number) => ({ timeoutMs, agent: { maxSockets: 256 } });

/** exam-service's GET /internal/exams/{id}: undefined when it does not know the exam. */
export function httpExamSource(baseUrl: string, internalToken: string, opts: { timeoutMs: number }): ExamSource {
  const request = createInternalClient(baseUrl, internalToken, clientOptions(opts.timeoutMs));
  return {
    async findExam(examId) {
      const { status, body } = await request(`/internal/exams/${encodeURIComponent(examId)}`);
      if (status === 404) return undefined;
      if (status !== 200) throw unexpectedStatus('exam-service', status, `exam ${examId}`);
      return parseUpstream('exam-service', InternalExamSchema, body, 'an exam');
    },
  };
}

/** results-service's GET /internal/attempts/{id}: undefined when it does not know the attempt. */
export function httpAttemptSource(baseUrl: string, internalToken: string, opts: { timeoutMs: number }): AttemptSource {
  const request = createInternalClient(baseUrl, internalToken, clientOptions(opts.timeoutMs));
  return {
    async findAttempt(attemptId) {
      const { status, body } = await request(`/internal/attempts/${encodeURIComponent(attemptId)}`);
      if (status === 404) return undefined;
      if (status !== 200) throw unexpectedStatus('results-service', status, `attempt ${attemptId}`);
      return parseUpstream('results-service', InternalAttemptSchema, body, 'an attempt');
    },
  };
}

/**
 * Remembers that an attempt is open for ttlMs, in a bounded LRU, so a candidate's later messages skip
 * the call to results-service. Only "open" is remembered, and never past the attempt's deadline (then
 * results-service is asked again, since it applies the grace period). The cost: a candidate who submits
 * can still chat for at most ttlMs (default 5 s) on this replica.
 */
export function cachedAttemptSource(
  source: AttemptSource,
  opts: { ttlMs: number; now: () => number; maxEntries?: number },
): AttemptSource {
  if (opts.ttlMs <= 0) return source;
  const maxEntries = opts.maxEntries ?? 10_000;
  const entries = new Map<string, { until: number; attempt: InternalAttempt }>();
  return {
    async findAttempt(attemptId) {
      const now = opts.now();
      const hit = entries.get(attemptId);
      entries.delete(attemptId);
      if (hit && now < hit.until) {
        entries.set(attemptId, hit);
        return hit.attempt;
      }
      const attempt = await source.findAttempt(attemptId);
      if (attempt?.isOpen) {
        const deadline = attempt.deadline ? Date.parse(attempt.deadline) : Infinity;
        entries.set(attemptId, { until: Math.min(opts.now() + opts.ttlMs, deadline), attempt });
        if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
      }
      return attempt;
    },
  };
}

/**
 * The two platform sources as production wires them. The exam (its settings, the creator's encrypted key
 * and the answer keys) is read from exam-service for every message, never kept per replica: a creator who
 * turns the assistant off or replaces the key is obeyed by the very next message on every replica, with no
 * invalidation to deliver (PGlite has no LISTEN/NOTIFY, and exam-service owns the settings). The read runs
 * before the budget check, which needs the exam's limits. An open attempt may be remembered for
 * attemptCacheMs (cachedAttemptSource).
 */
export function platformSources(opts: {
  examServiceUrl: string;
  resultsServiceUrl: string;
  internalToken: string;
  timeoutMs: number;
  attemptCacheMs: number;
  now: () => number;
}): { exams: ExamSource; attempts: AttemptSource } {
  const internal = { timeoutMs: opts.timeoutMs };
  return {
    exams: httpExamSource(opts.examServiceUrl, opts.internalToken, internal),
    attempts: cachedAttemptSource(httpAttemptSource(opts.resultsServiceUrl, opts.internalToken, internal), {
      ttlMs: opts.attemptCacheMs,
      now: opts.now,
    }),
  };
}
