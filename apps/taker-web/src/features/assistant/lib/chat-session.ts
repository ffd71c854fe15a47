import type { TranscriptMessage } from '@exam/domain/internal';
import type { ChatReplyEvent } from '@exam/client/chat-retry';
import { LlmMessages, type ChatFile, type ChatRequest } from '@exam/domain/llm';

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
  /** Why the gateway stopped this reply (it was about to give an exam answer away); undefined for a whole reply. */
  withheldNotice?: string | undefined;
};

/** reconnecting: the reply's stream was cut and the message is being sent again (sendChatWithRetry). */
export type ChatSnapshot = { messages: ChatEntry[]; pending: boolean; restored: boolean; reconnecting: boolean };

export type StreamReply = (body: ChatRequest, signal: AbortSignal) => AsyncIterable<ChatReplyEvent>;

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
    ...(message.isWithheld ? { withheldNotice: LlmMessages.answerWithheld } : {}),
  };
}

/** The conversation and whoever listens to it (the shape useSyncExternalStore reads). */
function createChatStore() {
  let snapshot: ChatSnapshot = { messages: [], pending: false, restored: false, reconnecting: false };
  const listeners = new Set<() => void>();
  const update = (next: Partial<ChatSnapshot>) => {
    snapshot = { ...snapshot, ...next };
    for (const listener of listeners) listener();
  };
  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    update,
    updateEntry: (key: string, change: (entry: ChatEntry) => ChatEntry) =>
      update({ messages: snapshot.messages.map((m) => (m.key === key ? change(m) : m)) }),
    append: (entry: ChatEntry) => update({ messages: [...snapshot.messages, entry] }),
    remove: (key: string) => update({ messages: snapshot.messages.filter((m) => m.key !== key) }),
  };
}
type ChatStore = ReturnType<typeof createChatStore>;

type Settled = Extract<ChatReplyEvent, { type: 'done' | 'error' | 'withheld' }>;

/** The assistant's reply as it streams: the first delta appends it, later ones extend it, the end settles it. */
function createReplyWriter(store: ChatStore, now: () => Date) {
  let replyKey: string | undefined;
  const entry = (content: string, change: Partial<ChatEntry>): ChatEntry => ({
    key: localKey(),
    role: 'assistant',
    content,
    createdAt: now().toISOString(),
    isError: false,
    isStreaming: false,
    files: [],
    ...change,
  });
  return {
    delta(text: string) {
      if (replyKey) store.updateEntry(replyKey, (m) => ({ ...m, content: m.content + text }));
      else {
        const first = entry(text, { isStreaming: true });
        replyKey = first.key;
        store.append(first);
      }
    },
    /** The stream was cut: what arrived goes, and the retried reply streams in from the start. */
    restart() {
      if (replyKey) store.remove(replyKey);
      replyKey = undefined;
    },
    settle(event: Settled) {
      // A stopped reply keeps what arrived before the stop, with the gateway's reason under it.
      const notice = event.type === 'withheld' ? { withheldNotice: event.message } : {};
      if (!replyKey) {
        const content = event.type === 'error' ? event.message : event.type === 'withheld' ? '' : EMPTY_REPLY;
        store.append(entry(content, { isError: event.type === 'error', ...notice }));
        return;
      }
      // The gateway stores its error text in place of a reply that failed half-way; show the same.
      const final = event.type === 'error' ? { content: event.message, isError: true } : notice;
      store.updateEntry(replyKey, (m) => ({ ...m, ...final, isStreaming: false }));
    },
  };
}

type ChatInput = { message: string; files: ChatFile[]; questionIndex: number | null };

const requestOf = (input: ChatInput): ChatRequest => ({
  message: input.message,
  questionIndex: input.questionIndex,
  ...(input.files.length ? { files: input.files } : {}),
});

/**
 * One attempt's conversation, kept outside React so a reply keeps streaming while the panel is hidden
 * or re-laid out (the exam page remounts panels when their set changes).
 */
export function createChatSession(streamReply: StreamReply, now: () => Date = () => new Date()) {
  const store = createChatStore();
  const controller = new AbortController();

  return {
    subscribe: store.subscribe,
    getSnapshot: store.getSnapshot,

    /** The stored transcript comes first; anything sent before it arrived stays after it. */
    restore(messages: TranscriptMessage[]) {
      const snapshot = store.getSnapshot();
      if (snapshot.restored) return;
      store.update({ messages: [...messages.map(entryOf), ...snapshot.messages], restored: true });
    },

    /** Sends a message and streams the reply into the conversation; one at a time, so replies never interleave. */
    async send(input: ChatInput): Promise<void> {
      if (store.getSnapshot().pending) return;
      store.append({
        key: localKey(),
        role: 'user',
        content: input.message,
        createdAt: now().toISOString(),
        isError: false,
        isStreaming: false,
        files: input.files.map((f) => ({ name: f.name })),
      });
      store.update({ pending: true });
      const reply = createReplyWriter(store, now);
      try {
        for await (const event of streamReply(requestOf(input), controller.signal)) {
          if (event.type === 'reconnecting') {
            reply.restart();
            store.update({ reconnecting: true });
            continue;
          }
          if (store.getSnapshot().reconnecting) store.update({ reconnecting: false });
          if (event.type !== 'delta') {
            reply.settle(event);
            return;
          }
          reply.delta(event.text);
        }
        reply.settle({ type: 'error', message: LlmMessages.chatError });
      } catch (error) {
        if (controller.signal.aborted) return;
        console.error('The assistant reply failed', error);
        reply.settle({ type: 'error', message: LlmMessages.chatError });
      } finally {
        store.update({ pending: false, reconnecting: false });
      }
    },

    /** Stops a reply in flight (the page is going away). */
    abort: () => controller.abort(),
  };
}
export type ChatSession = ReturnType<typeof createChatSession>;
