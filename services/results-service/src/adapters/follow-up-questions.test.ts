import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { GenerateFollowUpsRequest } from '@exam/domain/follow-up';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpFollowUpQuestions } from './follow-up-questions.ts';

const REQUEST: GenerateFollowUpsRequest = {
  examId: 'exam-1',
  count: 1,
  answers: [{ questionIndex: 0, title: 'Fibonacci', text: '', type: 'coding', answer: 'def fib(n): ...' }],
};

/** llm-gateway's follow-up route on a real port: answers each request with the status and body queued for it. */
describe('the follow-up questions adapter', () => {
  let server: Server;
  let baseUrl: string;
  const seen: Array<{ url: string; token: string | undefined; body: unknown }> = [];
  let reply: { status: number; body: unknown; delayMs?: number } = { status: 200, body: {} };
  beforeAll(async () => {
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (part) => (text += part));
      req.on('end', () => {
        seen.push({ url: req.url ?? '', token: req.headers['x-internal-token'] as string, body: JSON.parse(text) });
        setTimeout(
          () => res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body)),
          reply.delayMs ?? 0,
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const failure = async (call: Promise<unknown>) => {
    const err = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  };

  it('posts the request with the internal token and returns the questions', async () => {
    const client = createHttpFollowUpQuestions(baseUrl, TEST_SECRETS.INTERNAL_TOKEN, { timeoutMs: 2000 });
    reply = {
      status: 200,
      body: {
        questions: [{ questionIndex: 0, text: 'What does fib(0) return?' }],
        usage: { inputTokens: 10, outputTokens: 5 },
      },
    };
    const answer = await client.generate('attempt/1', REQUEST);
    expect(answer.questions).toEqual([{ questionIndex: 0, text: 'What does fib(0) return?' }]);
    expect(seen.at(-1)).toEqual({
      url: '/internal/attempts/attempt%2F1/follow-up-questions',
      token: TEST_SECRETS.INTERNAL_TOKEN,
      body: REQUEST,
    });
    client.close();
  });

  it.each([
    [409, ErrorCode.CONFLICT],
    [429, ErrorCode.RATE_LIMITED],
    [502, ErrorCode.UPSTREAM],
    [503, ErrorCode.UNAVAILABLE],
  ])('maps the gateway’s %i to %s', async (status, code) => {
    const client = createHttpFollowUpQuestions(baseUrl, TEST_SECRETS.INTERNAL_TOKEN, { timeoutMs: 2000 });
    reply = { status, body: { error: { code: 'X', message: 'the gateway says no' } } };
    expect((await failure(client.generate('a1', REQUEST))).code).toBe(code);
    client.close();
  });

  it('is UNAVAILABLE when the gateway times out or cannot be reached', async () => {
    const slow = createHttpFollowUpQuestions(baseUrl, TEST_SECRETS.INTERNAL_TOKEN, { timeoutMs: 200 });
    reply = { status: 200, body: {}, delayMs: 1000 };
    expect((await failure(slow.generate('a1', REQUEST))).code).toBe(ErrorCode.UNAVAILABLE);
    slow.close();
    const gone = createHttpFollowUpQuestions('http://127.0.0.1:9', TEST_SECRETS.INTERNAL_TOKEN, { timeoutMs: 500 });
    const down = await failure(gone.generate('a1', REQUEST));
    expect(down.code).toBe(ErrorCode.UNAVAILABLE);
    gone.close();
  });
});
