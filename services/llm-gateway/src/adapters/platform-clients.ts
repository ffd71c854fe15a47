import { AppError, ErrorCode } from '@exam/domain/errors';
import { InternalAttemptSchema, InternalExamSchema, type InternalExam } from '@exam/domain/internal';
import { createInternalClient, parseUpstream, unexpectedStatus } from '@exam/server-kit/internal-client';
import type { AttemptSource, ExamSource } from '../deps.ts';

/**
 * These calls sit on the chat's path to the first token, and many chats start at once: a pool of 256
 * keep-alive sockets per upstream (the server-kit default is 64). The server-kit client calls node:http at
 * request time, so msw still intercepts it in tests.
 */
const clientOptions = (timeoutMs: number) => ({ timeoutMs, agent: { maxSockets: 256 } });

/** How many exams' last answers each replica keeps to compare the next answer's text with. */
const PARSED_EXAMS_KEPT = 512;

/**
 * exam-service's GET /internal/exams/{id}: undefined when it does not know the exam. The exam is read for
 * every message; an answer whose text is the same as the last one for that exam is not parsed and validated
 * again (the contract's validation of a whole exam was the largest single cost of a chat in the profile):
 * the exam parsed from that same text is returned. Nothing is served from this memory without asking.
 */
export function httpExamSource(baseUrl: string, internalToken: string, opts: { timeoutMs: number }): ExamSource {
  const request = createInternalClient(baseUrl, internalToken, clientOptions(opts.timeoutMs));
  const lastParsed = new Map<string, { text: string; exam: InternalExam }>();
  return {
    async findExam(examId) {
      const { status, body } = await request.text(`/internal/exams/${encodeURIComponent(examId)}`);
      if (status === 404) return undefined;
      if (status !== 200) throw unexpectedStatus('exam-service', status, `exam ${examId}`);
      const last = lastParsed.get(examId);
      if (last?.text === body) return last.exam;
      const exam = parseUpstream('exam-service', InternalExamSchema, parseJson(body), 'an exam');
      lastParsed.delete(examId);
      lastParsed.set(examId, { text: body, exam });
      // Map keeps insertion order: the first key is the exam asked about least recently.
      if (lastParsed.size > PARSED_EXAMS_KEPT) lastParsed.delete(lastParsed.keys().next().value!);
      return exam;
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new AppError(ErrorCode.UNAVAILABLE, `exam-service answered no JSON: ${(err as Error).message}`);
  }
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
