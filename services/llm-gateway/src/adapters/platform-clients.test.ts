import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LlmMessages, parseChatStreamFrame } from '@exam/domain/llm';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAiFrames } from '../testing/provider-mocks.ts';
import { buildTestApp, type TestApp } from '../testing/app.ts';
import { makeExam } from '../testing/exams.ts';
import { httpAttemptSource, httpExamSource } from './platform-clients.ts';

/**
 * The gateway with its real HTTP clients, against small local servers standing in for exam-service,
 * results-service and the provider, all on real ports, so a browser-like client can disconnect
 * mid-stream and the provider sees its connection close.
 */
let answerUpstream: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
// The guardrail is off: these tests watch each delta leave as it arrives (guardrail.test.ts covers the hold-back).
const exam = makeExam({ ai: { stopSolutions: false } });
const attempts: Record<string, { isOpen: boolean }> = {
  'attempt-open': { isOpen: true },
  'attempt-closed': { isOpen: false },
};
const seenTokens: string[] = [];

function platformServer(): Server {
  return createServer((req, res) => {
    seenTokens.push(String(req.headers['x-internal-token']));
    const examMatch = /^\/internal\/exams\/([^/]+)$/.exec(req.url ?? '');
    const attemptMatch = /^\/internal\/attempts\/([^/]+)$/.exec(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    if (examMatch && examMatch[1] === exam.id) return res.end(JSON.stringify(exam));
    const attempt = attemptMatch && attempts[attemptMatch[1]!];
    if (attempt) {
      const body = {
        attemptId: attemptMatch[1],
        examId: exam.id,
        ownerId: exam.ownerId,
        startedAt: new Date().toISOString(),
        deadline: null,
        submittedAt: null,
        isOpen: attempt.isOpen,
      };
      return res.end(JSON.stringify(body));
    }
    res.statusCode = 404;
    res.end(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'not found' } }));
  });
}

describe('gateway with the real exam-service and results-service clients', () => {
  let platform: Server;
  let upstream: Server;
  let app: TestApp;
  let gatewayUrl: string;
  const listen = async (s: Server) => {
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  };
  beforeAll(async () => {
    platform = platformServer();
    upstream = createServer((req, res) => answerUpstream(req, res));
    const platformUrl = await listen(platform);
    const upstreamUrl = await listen(upstream);
    const opts = { timeoutMs: 2000 };
    app = await buildTestApp({
      env: { OPENAI_BASE_URL: `${upstreamUrl}/v1` },
      deps: {
        exams: httpExamSource(platformUrl, TEST_SECRETS.INTERNAL_TOKEN, opts),
        attempts: httpAttemptSource(platformUrl, TEST_SECRETS.INTERNAL_TOKEN, opts),
      },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    gatewayUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    // Keep-alive sockets of the test's fetch calls would hold both servers open for seconds.
    app.server.closeAllConnections();
    await app.close();
    for (const s of [platform, upstream]) {
      s.closeAllConnections();
      await new Promise((resolve) => s.close(resolve));
    }
  });
  const tokenFor = (attemptId: string) =>
    `Bearer ${app.jwt.sign({ kind: 'attempt', sub: attemptId, examId: exam.id, ownerId: exam.ownerId, name: 'Ada', studentId: 'S-1' })}`;

  it('fetches the exam and the attempt over HTTP with the internal token and streams the reply', async () => {
    answerUpstream = (req, res) => {
      res.writeHead(req.url === '/v1/chat/completions' ? 200 : 404, { 'content-type': 'text/event-stream' });
      res.end(openAiFrames(['Over ', 'HTTP']).join(''));
    };
    const response = await fetch(`${gatewayUrl}/api/llm/chat`, {
      method: 'POST',
      headers: { authorization: tokenFor('attempt-open'), 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hello', questionIndex: null }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const frames = (await response.text()).split('\n\n').filter(Boolean).map(parseChatStreamFrame);
    expect(frames.map((f) => f?.type)).toEqual(['delta', 'delta', 'done']);
    expect(seenTokens.every((t) => t === TEST_SECRETS.INTERNAL_TOKEN)).toBe(true);
  });

  it('refuses a closed attempt reported by results-service', async () => {
    const response = await fetch(`${gatewayUrl}/api/llm/chat`, {
      method: 'POST',
      headers: { authorization: tokenFor('attempt-closed'), 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hello', questionIndex: null }),
    });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(LlmMessages.attemptClosed);
  });

  it('aborts the upstream call when the candidate disconnects and stores the partial reply with its flag', async () => {
    let upstreamAborted = false;
    answerUpstream = (_req, res) => {
      res.on('close', () => {
        upstreamAborted = !res.writableEnded;
      });
      const frames = openAiFrames(['Partial ']);
      // The first token, then silence: the rest of the reply never comes.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(frames[0]! + frames[1]!);
    };
    const controller = new AbortController();
    const response = await fetch(`${gatewayUrl}/api/llm/chat`, {
      method: 'POST',
      headers: { authorization: tokenFor('attempt-open'), 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'long answer please', questionIndex: null }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain('Partial ');
    controller.abort();
    let stored: { content: string; isPartial?: boolean }[] = [];
    for (let i = 0; i < 50 && stored.length < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const transcript = await fetch(`${gatewayUrl}/api/llm/transcript`, {
        headers: { authorization: tokenFor('attempt-open') },
      });
      stored = ((await transcript.json()) as { messages: typeof stored }).messages.filter(
        (m) => m.content.includes('long answer') || m.isPartial,
      );
    }
    expect(stored.at(-1)).toMatchObject({ content: 'Partial ', isPartial: true });
    for (let i = 0; i < 40 && !upstreamAborted; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(upstreamAborted).toBe(true);
  });
});

describe("exam-service's exam source", () => {
  let examServer: Server;
  let answer: () => string = () => JSON.stringify(exam);
  let baseUrl = '';
  beforeAll(async () => {
    examServer = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(answer());
    });
    await new Promise<void>((resolve) => examServer.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(examServer.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    examServer.closeAllConnections();
    await new Promise((resolve) => examServer.close(resolve));
  });

  it('asks for the exam every time and parses an answer again only when its text changed', async () => {
    const source = httpExamSource(baseUrl, TEST_SECRETS.INTERNAL_TOKEN, { timeoutMs: 2000 });
    let asked = 0;
    let current = exam;
    answer = () => {
      asked += 1;
      return JSON.stringify(current);
    };
    const first = await source.findExam(exam.id);
    expect(first).toEqual(exam);
    // The same text: the exam parsed from it before.
    expect(await source.findExam(exam.id)).toBe(first);
    current = { ...exam, aiSettings: { ...exam.aiSettings, enabled: false } };
    const changed = await source.findExam(exam.id);
    expect(changed?.aiSettings.enabled).toBe(false);
    expect(asked).toBe(3);
  });

  it("answers a message's read from its copy younger than messageMaxAgeMs, and asks again once it is older", async () => {
    let clock = 0;
    const source = httpExamSource(baseUrl, TEST_SECRETS.INTERNAL_TOKEN, {
      timeoutMs: 2000,
      messageMaxAgeMs: 1000,
      now: () => clock,
    });
    let asked = 0;
    let current = exam;
    answer = () => {
      asked += 1;
      return JSON.stringify(current);
    };
    expect(await source.findExam(exam.id, { recent: true })).toEqual(exam);
    current = { ...exam, aiSettings: { ...exam.aiSettings, enabled: false } };
    clock = 999;
    // Within the bound: this replica's copy, no GET.
    expect((await source.findExam(exam.id, { recent: true }))?.aiSettings.enabled).toBe(true);
    expect(asked).toBe(1);
    // A read that is not a message's always asks, and its answer is the copy messages use from then on.
    expect((await source.findExam(exam.id))?.aiSettings.enabled).toBe(false);
    expect(asked).toBe(2);
    current = { ...exam, aiSettings: { ...exam.aiSettings, model: 'changed-model' } };
    clock = 999 + 1000;
    expect((await source.findExam(exam.id, { recent: true }))?.aiSettings.model).toBe('changed-model');
    expect(asked).toBe(3);
  });

  it("shares one GET among messages' reads that miss at the same moment, and asks for every one when the bound is 0", async () => {
    let asked = 0;
    answer = () => {
      asked += 1;
      return JSON.stringify(exam);
    };
    const shared = httpExamSource(baseUrl, TEST_SECRETS.INTERNAL_TOKEN, { timeoutMs: 2000, messageMaxAgeMs: 1000 });
    const together = await Promise.all(Array.from({ length: 5 }, () => shared.findExam(exam.id, { recent: true })));
    expect(together.every((found) => found?.id === exam.id)).toBe(true);
    expect(asked).toBe(1);
    const everyTime = httpExamSource(baseUrl, TEST_SECRETS.INTERNAL_TOKEN, { timeoutMs: 2000, messageMaxAgeMs: 0 });
    await Promise.all(Array.from({ length: 3 }, () => everyTime.findExam(exam.id, { recent: true })));
    expect(asked).toBe(4);
  });

  it('refuses an answer off the contract or not JSON, also after a good one', async () => {
    const source = httpExamSource(baseUrl, TEST_SECRETS.INTERNAL_TOKEN, { timeoutMs: 2000 });
    answer = () => JSON.stringify(exam);
    await source.findExam(exam.id);
    answer = () => JSON.stringify({ ...exam, aiSettings: null });
    await expect(source.findExam(exam.id)).rejects.toMatchObject({ code: 'UPSTREAM' });
    answer = () => '<html>';
    await expect(source.findExam(exam.id)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });
});
