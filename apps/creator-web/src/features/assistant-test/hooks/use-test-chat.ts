import type { AiSettingsInputSchema } from '@exam/domain/exam-ai';
import { LlmMessages, type TestChatRequest } from '@exam/domain/llm';
import type { z } from 'zod';
import { useCallback, useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { streamTestChat, type TestChatBody } from '../api/stream-test-chat.ts';
import { i18n } from '../../../i18n/index.ts';

export type TestChatEntry = {
  key: string;
  role: 'user' | 'assistant';
  content: string;
  createdAt: string;
  isError: boolean;
  isStreaming: boolean;
};

/** TestChatRequestSchema accepts at most 50 messages; the oldest are left out. */
const MAX_HISTORY = 50;

let keys = 0;
const nextKey = () => `test-${++keys}`;

/** The conversation sent to the gateway: failed exchanges (a message and its error reply) are left out. */
export function historyOf(entries: TestChatEntry[]): TestChatRequest['messages'] {
  const kept = entries.filter(
    (entry, i) => !entry.isError && !(entry.role === 'user' && entries[i + 1]?.isError) && entry.content.trim() !== '',
  );
  return kept.map(({ role, content }) => ({ role, content }));
}

type SetMessages = Dispatch<SetStateAction<TestChatEntry[]>>;

function newEntry(role: TestChatEntry['role'], content: string, isStreaming = false): TestChatEntry {
  return { key: nextKey(), role, content, createdAt: new Date().toISOString(), isError: false, isStreaming };
}

/**
 * Streams one reply into the conversation: the first delta appends it, later ones extend it, and the end
 * (or a failure) settles it. An abort (a reset, the page closing) only stops the streaming mark.
 */
async function streamReplyInto(setMessages: SetMessages, body: TestChatBody, signal: AbortSignal): Promise<void> {
  const reply = newEntry('assistant', '', true);
  const update = (change: Partial<TestChatEntry> | ((entry: TestChatEntry) => Partial<TestChatEntry>)) =>
    setMessages((current) =>
      current.map((m) => (m.key === reply.key ? { ...m, ...(typeof change === 'function' ? change(m) : change) } : m)),
    );
  let started = false;
  let shown = '';
  const finish = (content: string | undefined, isError: boolean) => {
    if (!started)
      setMessages((current) => [
        ...current,
        { ...reply, content: content ?? i18n.t('assistant:noResponse'), isError, isStreaming: false },
      ]);
    else update((m) => ({ content: content ?? m.content, isError, isStreaming: false }));
  };
  try {
    for await (const event of streamTestChat(body, signal)) {
      if (event.type === 'delta') {
        shown += event.text;
        if (!started) {
          started = true;
          setMessages((current) => [...current, { ...reply, content: event.text }]);
        } else update((m) => ({ content: m.content + event.text }));
      } else if (event.type === 'withheld') {
        // The guardrail stopped the reply, as it would a candidate's: what arrived, then why it stopped.
        finish(shown ? `${shown}\n\n*${event.message}*` : event.message, false);
        return;
      } else {
        finish(event.type === 'error' ? event.message : undefined, event.type === 'error');
        return;
      }
    }
  } catch (error) {
    if (!signal.aborted) finish(LlmMessages.chatError, true);
    else if (started) update({ isStreaming: false });
    if (!signal.aborted) console.error('The test reply failed', error);
  }
}

/** The editor's AI settings as typed (the schema's input: the gateway applies its defaults and checks them). */
export type TestChatDraft = z.input<typeof AiSettingsInputSchema>;

/**
 * The creator's try-out conversation: kept in this page only and never stored, since it is a trial, not a
 * candidate's. Each message is sent with the settings on screen at that moment (`draft`).
 */
export function useTestChat(examId: string, draft?: TestChatDraft) {
  const [messages, setMessages] = useState<TestChatEntry[]>([]);
  const [pending, setPending] = useState(false);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const send = useCallback(
    async (text: string) => {
      if (pending || !text.trim()) return;
      const user = newEntry('user', text.trim());
      const body: TestChatBody = {
        examId,
        messages: [...historyOf(messages), { role: 'user' as const, content: user.content }].slice(-MAX_HISTORY),
        questionIndex: null,
        ...(draft ? { aiSettings: draft } : {}),
      };
      setMessages((current) => [...current, user]);
      setPending(true);
      const abort = new AbortController();
      controller.current = abort;
      try {
        await streamReplyInto(setMessages, body, abort.signal);
      } finally {
        setPending(false);
      }
    },
    [examId, draft, messages, pending],
  );

  const reset = useCallback(() => {
    controller.current?.abort();
    setMessages([]);
  }, []);

  return { messages, pending, send, reset };
}
