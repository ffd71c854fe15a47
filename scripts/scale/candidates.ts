// Simulated candidates: each starts an attempt, saves answers with increasing seq the way the browser's outbox
// does (a failed save is sent again with the same seq until it is acknowledged), chats with the assistant (a
// broken reply is asked again with the same clientMessageId) and submits (again until acknowledged). Every
// try of every request is recorded with its timestamps, so error rates can be read for any time window.
import { randomUUID } from 'node:crypto';
import { sendChatWithRetry } from '@exam/client/chat-retry';
import type { ChatRequest } from '../../packages/domain/src/llm.ts';
import type { ServiceName } from '../../packages/domain/src/service-routes.ts';
import { FAKE_REPLY } from './fake-provider.ts';

export type OperationKind = 'start' | 'save' | 'chat' | 'submit';

/** One logical request (a save of one seq, one chat message…) and every try it took. */
export type Operation = {
  kind: OperationKind;
  candidate: number;
  tries: Try[];
  /** Acknowledged in the end (a 2xx, or a chat that reached done). */
  ok: boolean;
};
export type Try = { startedAt: number; endedAt: number; ok: boolean; outcome: string };

export type AckedSave = { questionIndex: number; seq: number; answer: string };
export type CandidateRecord = {
  index: number;
  studentId: string;
  attemptId?: string;
  token?: string;
  /** The last acknowledged save of each question. */
  acked: Map<number, AckedSave>;
  /** clientMessageIds of chats this candidate saw completed, with the message sent. */
  chats: Array<{ clientMessageId: string; message: string; completed: boolean; reply: string }>;
  resultIds: string[];
};

export type CandidatePlan = {
  examId: string;
  questionCount: number;
  /** When this candidate stops answering and submits (resolves), e.g. a while after the faults are over. */
  finish: Promise<void>;
  saveEveryMs: number;
  chatEveryMs: number;
  /** Starts are spread over this many ms, as candidates arrive. */
  startWithinMs: number;
};

export type RetryPolicy = { giveUpAfterMs: number; firstDelayMs: number; maxDelayMs: number };
const DEFAULT_RETRY: RetryPolicy = { giveUpAfterMs: 60_000, firstDelayMs: 100, maxDelayMs: 2000 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const jitter = (ms: number) => ms * (0.5 + Math.random());

/** A failure worth another try: the network, a gateway or service answer of 502/503/504, or a broken stream. */
class Retryable extends Error {}

export function createCandidates(opts: { count: number; url: (service: ServiceName) => string; retry?: RetryPolicy }) {
  const retry = opts.retry ?? DEFAULT_RETRY;
  const operations: Operation[] = [];
  const records: CandidateRecord[] = Array.from({ length: opts.count }, (_v, index) => ({
    index,
    studentId: `S-${String(index).padStart(4, '0')}`,
    acked: new Map(),
    chats: [],
    resultIds: [],
  }));

  /** Runs one try function until it succeeds or the policy gives up; records every try. */
  async function operation<T>(
    kind: OperationKind,
    candidate: number,
    attempt: () => Promise<T>,
  ): Promise<T | undefined> {
    const op: Operation = { kind, candidate, tries: [], ok: false };
    operations.push(op);
    const firstAt = Date.now();
    let delay = retry.firstDelayMs;
    for (;;) {
      const startedAt = Date.now();
      try {
        const value = await attempt();
        op.tries.push({ startedAt, endedAt: Date.now(), ok: true, outcome: 'ok' });
        op.ok = true;
        return value;
      } catch (err) {
        const outcome = err instanceof Error ? err.message : String(err);
        op.tries.push({ startedAt, endedAt: Date.now(), ok: false, outcome });
        if (!(err instanceof Retryable) || Date.now() - firstAt > retry.giveUpAfterMs) return undefined;
      }
      await sleep(jitter(delay));
      delay = Math.min(delay * 2, retry.maxDelayMs);
    }
  }

  async function send(
    service: ServiceName,
    method: string,
    path: string,
    body: unknown,
    token?: string,
    timeoutMs = 30_000,
  ): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(`${opts.url(service)}${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new Retryable(
        `network: ${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message}`,
      );
    }
    if (response.ok) return response;
    const text = await response.text().catch(() => '');
    const message = `${method} ${path.replace(/\/[0-9a-z-]{16,}/gi, '/:id')}: ${response.status} ${text.slice(0, 160)}`;
    if ([502, 503, 504].includes(response.status)) throw new Retryable(message);
    throw new Error(message);
  }

  /**
   * One chat message through the browser's own client (sendChatWithRetry: the same clientMessageId again on a
   * cut stream, an `interrupted` event, a network error or 502/503/504, after 0.5, 1 and 2 s). Each try is
   * recorded; the reply is what the last try streamed, or undefined when the client gave up.
   */
  async function chatOnce(candidate: number, token: string, body: ChatRequest): Promise<string | undefined> {
    const op: Operation = { kind: 'chat', candidate, tries: [], ok: false };
    operations.push(op);
    let startedAt = Date.now();
    let reply = '';
    const end = (ok: boolean, outcome: string) => op.tries.push({ startedAt, endedAt: Date.now(), ok, outcome });
    for await (const event of sendChatWithRetry({
      fetch: (url, init) => fetch(url, { ...init, signal: AbortSignal.timeout(60_000) }),
      url: `${opts.url('llm-gateway')}/api/llm/chat`,
      headers: { authorization: `Bearer ${token}` },
      body,
    })) {
      if (event.type === 'delta') reply += event.text;
      else if (event.type === 'reconnecting') {
        end(false, 'reply cut, sent again with its clientMessageId');
        reply = '';
        startedAt = Date.now() + event.delayMs;
      } else if (event.type === 'error') {
        end(false, event.message);
        return undefined;
      } else {
        end(true, 'ok');
        op.ok = true;
        return reply;
      }
    }
    return undefined;
  }

  async function runOne(record: CandidateRecord, plan: CandidatePlan): Promise<void> {
    await sleep(Math.random() * plan.startWithinMs);
    const started = await operation('start', record.index, async () => {
      const response = await send('results-service', 'POST', '/api/attempts', {
        examId: plan.examId,
        name: `Candidate ${record.index}`,
        studentId: record.studentId,
      });
      return (await response.json()) as { attemptId: string; token: string };
    });
    if (!started) return;
    record.attemptId = started.attemptId;
    record.token = started.token;
    const token = started.token;
    const attemptPath = `/api/attempts/${started.attemptId}`;

    let finished = false;
    void plan.finish.then(() => (finished = true));
    const seqs = new Map<number, number>();

    const saving = (async () => {
      while (!finished) {
        const questionIndex = Math.floor(Math.random() * plan.questionCount);
        const seq = (seqs.get(questionIndex) ?? 0) + 1;
        seqs.set(questionIndex, seq);
        const answer = `c${record.index}-q${questionIndex}-s${seq}`;
        const saved = await operation('save', record.index, async () => {
          const response = await send(
            'results-service',
            'PUT',
            `${attemptPath}/answers/${questionIndex}`,
            { answer, seq },
            token,
          );
          return (await response.json()) as { seq: number; applied: boolean };
        });
        if (saved) record.acked.set(questionIndex, { questionIndex, seq, answer });
        await Promise.race([sleep(jitter(plan.saveEveryMs)), plan.finish]);
      }
    })();

    const chatting = (async () => {
      await Promise.race([sleep(Math.random() * plan.chatEveryMs), plan.finish]);
      let turn = 0;
      while (!finished) {
        turn += 1;
        const clientMessageId = randomUUID();
        // The id is in the text too, so the transcript shows which messages belong to which chat.
        const message = `Candidate ${record.index}, question ${turn}: where do I start? [${clientMessageId}]`;
        const chat = { clientMessageId, message, completed: false, reply: '' };
        record.chats.push(chat);
        const reply = await chatOnce(record.index, token, { message, questionIndex: null, clientMessageId });
        if (reply !== undefined) {
          chat.completed = true;
          chat.reply = reply;
        }
        await Promise.race([sleep(jitter(plan.chatEveryMs)), plan.finish]);
      }
    })();

    await Promise.all([saving, chatting]);
    const submitted = await operation('submit', record.index, async () => {
      const response = await send('results-service', 'POST', `${attemptPath}/submit`, undefined, token);
      return (await response.json()) as { resultId: string };
    });
    if (submitted) record.resultIds.push(submitted.resultId);
  }

  return {
    records,
    operations,
    expectedReply: FAKE_REPLY,
    run: (planOf: (record: CandidateRecord) => CandidatePlan) =>
      Promise.all(records.map((record) => runOne(record, planOf(record)))),
  };
}
