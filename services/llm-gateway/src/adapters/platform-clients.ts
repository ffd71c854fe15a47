import { InternalAttemptSchema, InternalExamSchema } from '@exam/domain/internal';
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
 * The two platform sources as production wires them. Neither is kept per replica (ARCHITECTURE.md, "Where
 * state lives"): the exam (its settings, the creator's encrypted key and the answer keys) is read from
 * exam-service for every message, so a creator who turns the assistant off or replaces the key is obeyed by
 * the very next message on every replica; and results-service is asked whether the attempt is open for every
 * message, so a submitted candidate's next message is refused on every replica. No invalidation has to be
 * delivered: exam-service and results-service own those facts and may keep them in databases the gateway
 * cannot listen to (PGlite, or separate PostgreSQL servers). The attempt read runs beside the budget check,
 * so it adds a round trip in parallel, not in series.
 */
export function platformSources(opts: {
  examServiceUrl: string;
  resultsServiceUrl: string;
  internalToken: string;
  timeoutMs: number;
}): { exams: ExamSource; attempts: AttemptSource } {
  const internal = { timeoutMs: opts.timeoutMs };
  return {
    exams: httpExamSource(opts.examServiceUrl, opts.internalToken, internal),
    attempts: httpAttemptSource(opts.resultsServiceUrl, opts.internalToken, internal),
  };
}
