import { createServer } from 'node:http';
import { CollaborationMessages, type CollaborationSuggestionRequest } from '@exam/domain/collaboration';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { SuggestionMessages } from '@exam/domain/question-grading';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGateway, type FakeGateway } from '../testing/fake-gateway.ts';
import { createHttpGradingSuggester } from './grading-suggestions.ts';

const REQUEST: CollaborationSuggestionRequest = {
  questions: [{ index: 0, title: 'Osmosis', content: 'Explain osmosis.' }],
  messages: [{ id: 'u1', role: 'user', content: 'What drives it?', questionIndex: 0 }],
  figures: { messagesSent: 1, testedShare: null },
};

/** The thrown AppError's code and message. */
async function refusal(call: Promise<unknown>) {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return { code: (err as AppError).code, message: (err as AppError).message };
}

describe("the gateway adapter's collaboration suggestions", () => {
  let gateway: FakeGateway;
  let suggester: ReturnType<FakeGateway['suggester']>;
  beforeAll(async () => {
    gateway = await startFakeGateway();
    suggester = gateway.suggester();
  });
  afterAll(async () => {
    suggester.close();
    await gateway.close();
  });

  it('posts the request to the exam’s collaboration route and returns the reply, validated', async () => {
    const reply = await suggester.suggestCollaboration('exam/1', REQUEST);
    expect(reply).toMatchObject({ framing: { level: 2 }, verification: { level: 2 }, provider: 'openai' });
    expect(gateway.collaborationCalls.at(-1)).toEqual({ examId: 'exam/1', request: REQUEST });
  });

  it.each([
    [409, ErrorCode.CONFLICT, SuggestionMessages.noProvider],
    [429, ErrorCode.RATE_LIMITED, SuggestionMessages.budgetExhausted],
    [502, ErrorCode.UPSTREAM, 'The AI provider failed: 500'],
  ] as const)('maps the gateway’s %i to %s with its own message', async (status, code, message) => {
    gateway.answerCollaboration = () => ({ status, message });
    expect(await refusal(suggester.suggestCollaboration('e', REQUEST))).toEqual({ code, message });
  });

  it('says levels can still be set by hand when the gateway answers 503 or cannot be reached', async () => {
    gateway.answerCollaboration = () => ({ status: 503 });
    expect(await refusal(suggester.suggestCollaboration('e', REQUEST))).toEqual({
      code: ErrorCode.UNAVAILABLE,
      message: CollaborationMessages.gatewayDown,
    });
    const server = createServer();
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const { port } = server.address() as { port: number };
    await new Promise((ok) => server.close(ok));
    const down = createHttpGradingSuggester(`http://127.0.0.1:${port}`, TEST_SECRETS.INTERNAL_TOKEN, {
      timeoutMs: 2000,
    });
    try {
      expect(await refusal(down.suggestCollaboration('e', REQUEST))).toEqual({
        code: ErrorCode.UNAVAILABLE,
        message: CollaborationMessages.gatewayDown,
      });
    } finally {
      down.close();
    }
  });
});
