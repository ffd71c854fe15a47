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

/** How many exams' last answers each replica keeps (to compare the next answer's text with, or to answer a message). */
const PARSED_EXAMS_KEPT = 512;

export type ExamSourceOptions = {
  timeoutMs: number;
  /**
   * How old an answer a message's read (`findExam(id, { recent: true })`) may be given, in ms; 0 asks for every
   * message. The bound of a creator's change: see httpExamSource.
   */
  messageMaxAgeMs?: number;
  /** The clock the age is measured on (tests move it). */
  now?: () => number;
};

type KeptExam = { text: string; exam: InternalExam; readAt: number };

/**
 * exam-service's GET /internal/exams/{id}: undefined when it does not know the exam.
 *
 * A candidate's message and a workspace agent's call ask with `{ recent: true }`: they are answered from this
 * replica's last answer for the exam when that answer was asked for less than `messageMaxAgeMs` ago, and
 * messages that miss at the same moment share one GET. At hundreds of new chats a second on one exam that takes
 * one of the two internal calls off almost every message (bench/README.md, "Gateway, issue 39 round two").
 * The bound, documented in ARCHITECTURE.md ("Where state lives"): a creator's change to an exam (assistant off,
 * a new key, a new budget, new answer keys) is obeyed by every message that starts more than messageMaxAgeMs
 * after exam-service answered with it, on every replica, with no invalidation to deliver (each replica's memory
 * simply ages out; nothing another replica needs is kept here). Every other read (creators' audits, grading,
 * follow-ups, access checks) asks exam-service each time, as before.
 *
 * An answer whose text is the same as the last one for that exam is not parsed and validated again (the
 * contract's validation of a whole exam was the largest single cost of a chat in an earlier profile).
 */
export function httpExamSource(baseUrl: string, internalToken: string, opts: ExamSourceOptions): ExamSource {
  const request = createInternalClient(baseUrl, internalToken, clientOptions(opts.timeoutMs));
  const maxAgeMs = opts.messageMaxAgeMs ?? 0;
  const now = opts.now ?? (() => performance.now());
  const kept = new Map<string, KeptExam>();
  const inFlight = new Map<string, { startedAt: number; answer: Promise<KeptExam | undefined> }>();

  function keep(examId: string, entry: KeptExam) {
    kept.delete(examId);
    kept.set(examId, entry);
    // Map keeps insertion order: the first key is the exam asked about least recently.
    if (kept.size > PARSED_EXAMS_KEPT) kept.delete(kept.keys().next().value!);
  }

  async function read(examId: string): Promise<KeptExam | undefined> {
    const readAt = now();
    const { status, body } = await request.text(`/internal/exams/${encodeURIComponent(examId)}`);
    if (status === 404) {
      kept.delete(examId);
      return undefined;
    }
    if (status !== 200) throw unexpectedStatus('exam-service', status, `exam ${examId}`);
    const last = kept.get(examId);
    const exam =
      last?.text === body ? last.exam : parseUpstream('exam-service', InternalExamSchema, parseJson(body), 'an exam');
    const entry = { text: body, exam, readAt };
    keep(examId, entry);
    return entry;
  }

  /**
   * One GET per exam at a time for the messages' reads. A message joins a GET asked for less than maxAgeMs ago
   * (its answer is at least that recent); a GET older than that (a slow exam-service) is not joined.
   */
  function sharedRead(examId: string): Promise<KeptExam | undefined> {
    const pending = inFlight.get(examId);
    if (pending && now() - pending.startedAt < maxAgeMs) return pending.answer;
    const flight = { startedAt: now(), answer: read(examId) };
    const forget = () => {
      if (inFlight.get(examId) === flight) inFlight.delete(examId);
    };
    flight.answer.then(forget, forget);
    inFlight.set(examId, flight);
    return flight.answer;
  }

  return {
    async findExam(examId, how) {
      if (!how?.recent || maxAgeMs <= 0) return (await read(examId))?.exam;
      const last = kept.get(examId);
      if (last && now() - last.readAt < maxAgeMs) return last.exam;
      return (await sharedRead(examId))?.exam;
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
 * The two platform sources as production wires them (ARCHITECTURE.md, "Where state lives"). The exam (its
 * settings, the creator's encrypted key and the answer keys) is read from exam-service for a message unless this
 * replica asked for it less than `messageMaxAgeMs` ago (EXAM_MESSAGE_MAX_AGE_MS), so a creator who turns the
 * assistant off or replaces the key is obeyed within that bound on every replica. results-service is asked whether
 * the attempt is open for every message (never kept), so a submitted candidate's next message is refused on every
 * replica. No invalidation has to be
 * delivered: exam-service and results-service own those facts and may keep them in databases the gateway
 * cannot listen to (PGlite, or separate PostgreSQL servers). The attempt read runs beside the budget check,
 * so it adds a round trip in parallel, not in series.
 */
export function platformSources(
  opts: {
    examServiceUrl: string;
    resultsServiceUrl: string;
    internalToken: string;
  } & ExamSourceOptions,
): { exams: ExamSource; attempts: AttemptSource } {
  return {
    exams: httpExamSource(opts.examServiceUrl, opts.internalToken, opts),
    attempts: httpAttemptSource(opts.resultsServiceUrl, opts.internalToken, { timeoutMs: opts.timeoutMs }),
  };
}
