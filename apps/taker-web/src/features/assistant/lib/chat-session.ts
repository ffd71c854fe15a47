import type { TranscriptMessage } from '@exam/domain/internal';
import { LlmMessages, type ChatFile, type ChatRequest, type ChatStreamEvent } from '@exam/domain/llm';

/** What shows in place of a reply that arrives empty. */
export const EMPTY_REPLY = 'No response generated';

export type ChatEntry = {
  key: string;
  role: 'user' | 'assistant';
  content: string;
  createdAt: string;
  isError: boolean;
  isStreaming: boolean;
  files: Array<{ name: string }>;
};

export type ChatSnapshot = { messages: ChatEntry[]; pending: boolean; restored: boolean };

export type StreamReply = (body: ChatRequest, signal: AbortSignal) => AsyncIterable<ChatStreamEvent>;

let localKeys = 0;
const localKey = () => `local-${++localKeys}`;

export function entryOf(message: TranscriptMessage): ChatEntry {
  return {
    key: message.id,
    role: message.role,
    content: message.content,
    createdAt: message.createdAt,
    isError: message.isError,
    isStreaming: false,
    files: message.files,
  };
}

/**
 * One attempt's conversation, kept outside React so a reply keeps streaming while the panel is hidden
 * or re-laid out (the exam page remounts panels when their set changes).
 */
export function createChatSession(streamReply: StreamReply, now: () => Date = () => new Date()) {
  let snapshot: ChatSnapshot = { messages: [], pending: false, restored: false };
  const listeners = new Set<() => void>();
  const controller = new AbortController();

  const update = (next: Partial<ChatSnapshot>) => {
    snapshot = { ...snapshot, ...next };
    for (const listener of listeners) listener();
  };
  const updateEntry = (key: string, change: (entry: ChatEntry) => ChatEntry) =>
    update({ messages: snapshot.messages.map((m) => (m.key === key ? change(m) : m)) });
  const append = (entry: ChatEntry) => update({ messages: [...snapshot.messages, entry] });

  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,

    /** The stored transcript comes first; anything sent before it arrived stays after it. */
    restore(messages: TranscriptMessage[]) {
      if (snapshot.restored) return;
      update({ messages: [...messages.map(entryOf), ...snapshot.messages], restored: true });
    },

    /** Sends a message and streams the reply into the conversation; one at a time, so replies never interleave. */
    async send(input: { message: string; files: ChatFile[]; questionIndex: number | null }): Promise<void> {
      if (snapshot.pending) return;
      append({
        key: localKey(),
        role: 'user',
        content: input.message,
        createdAt: now().toISOString(),
        isError: false,
        isStreaming: false,
        files: input.files.map((f) => ({ name: f.name })),
      });
      update({ pending: true });
      let replyKey: string | undefined;
      const settle = (event: Extract<ChatStreamEvent, { type: 'done' | 'error' }>) => {
        if (!replyKey) {
          const content = event.type === 'error' ? event.message : EMPTY_REPLY;
          append({
            key: localKey(),
            role: 'assistant',
            content,
            createdAt: now().toISOString(),
            isError: event.type === 'error',
            isStreaming: false,
            files: [],
          });
          return;
        }
        // The gateway stores its error text in place of a reply that failed half-way; show the same.
        const final = event.type === 'error' ? { content: event.message, isError: true } : {};
        updateEntry(replyKey, (m) => ({ ...m, ...final, isStreaming: false }));
      };
      try {
        const body: ChatRequest = {
          message: input.message,
          questionIndex: input.questionIndex,
          ...(input.files.length ? { files: input.files } : {}),
        };
        for await (const event of streamReply(body, controller.signal)) {
          if (event.type !== 'delta') {
            settle(event);
            return;
          }
          const text = event.text;
          if (replyKey) updateEntry(replyKey, (m) => ({ ...m, content: m.content + text }));
          else {
            replyKey = localKey();
            append({
              key: replyKey,
              role: 'assistant',
              content: text,
              createdAt: now().toISOString(),
              isError: false,
              isStreaming: true,
              files: [],
            });
          }
        }
        settle({ type: 'error', message: LlmMessages.chatError });
      } catch (error) {
        if (controller.signal.aborted) return;
        console.error('The assistant reply failed', error);
        settle({ type: 'error', message: LlmMessages.chatError });
      } finally {
        update({ pending: false });
      }
    },

    /** Stops a reply in flight (the page is going away). */
    abort: () => controller.abort(),
  };
}
export type ChatSession = ReturnType<typeof createChatSession>;
