import type { ChatReplyEvent } from '@exam/client/chat-retry';
import { LlmMessages } from '@exam/domain/llm';
import { describe, expect, it } from 'vitest';
import { createChatSession, EMPTY_REPLY, type StreamReply } from './chat-session.ts';
import { transcriptMessage } from '../../../testing/fake-gateway.ts';

const done: ChatReplyEvent = {
  type: 'done',
  messageId: 'm',
  usage: { inputTokens: 1, outputTokens: 1, estimated: false },
};
const replying = (...events: ChatReplyEvent[]): StreamReply =>
  async function* () {
    yield* events;
  };
const input = (message: string) => ({ message, files: [], questionIndex: 0 });
const view = (session: ReturnType<typeof createChatSession>) =>
  session.getSnapshot().messages.map((m) => [m.role, m.content, m.isError]);

describe('createChatSession', () => {
  it('puts the restored transcript before messages sent meanwhile, and restores only once', () => {
    const session = createChatSession(replying(done));
    session.restore([transcriptMessage({ content: 'old' })]);
    session.restore([transcriptMessage({ content: 'again' })]);
    expect(view(session)).toEqual([['user', 'old', false]]);
    expect(session.getSnapshot().restored).toBe(true);
  });

  it('shows a reply with no text as "No response generated"', async () => {
    const session = createChatSession(replying(done));
    await session.send(input('hi'));
    expect(view(session)).toEqual([
      ['user', 'hi', false],
      ['assistant', EMPTY_REPLY, false],
    ]);
  });

  it('drops the partial reply when the stream reconnects and shows the retried one, reconnecting meanwhile', async () => {
    const seen: boolean[] = [];
    const session = createChatSession(async function* () {
      yield { type: 'delta', text: 'Hal' };
      yield { type: 'reconnecting', attempt: 1, delayMs: 500 };
      seen.push(session.getSnapshot().reconnecting);
      yield { type: 'delta', text: 'Hello' };
      seen.push(session.getSnapshot().reconnecting);
      yield done;
    });
    await session.send(input('hi'));
    expect(seen).toEqual([true, false]);
    expect(view(session)).toEqual([
      ['user', 'hi', false],
      ['assistant', 'Hello', false],
    ]);
    expect(session.getSnapshot()).toMatchObject({ pending: false, reconnecting: false });
  });

  it('ignores a second message while a reply is pending', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const session = createChatSession(async function* () {
      await gate;
      yield { type: 'delta', text: 'ok' };
      yield done;
    });
    const first = session.send(input('one'));
    await session.send(input('two'));
    release();
    await first;
    expect(view(session)).toEqual([
      ['user', 'one', false],
      ['assistant', 'ok', false],
    ]);
    expect(session.getSnapshot().pending).toBe(false);
  });

  it('ends with the standard error reply when the stream fails or stops without a final event', async () => {
    const failing = createChatSession(async function* () {
      yield { type: 'delta', text: 'half' };
      throw new Error('boom');
    });
    await failing.send(input('a'));
    expect(view(failing).at(-1)).toEqual(['assistant', LlmMessages.chatError, true]);

    const cut = createChatSession(replying({ type: 'delta', text: 'half' }));
    await cut.send(input('b'));
    expect(view(cut).at(-1)).toEqual(['assistant', LlmMessages.chatError, true]);
  });

  it('stops quietly when aborted', async () => {
    const session = createChatSession(async function* (_body, signal) {
      yield { type: 'delta', text: 'partial' };
      await new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError'))),
      );
    });
    const sending = session.send(input('x'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    session.abort();
    await sending;
    expect(view(session).at(-1)).toEqual(['assistant', 'partial', false]);
    expect(session.getSnapshot().pending).toBe(false);
  });
});
