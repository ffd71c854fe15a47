import { useEffect, useSyncExternalStore } from 'react';
import { streamChatReply, useTranscript } from '../api/chat-with-assistant.ts';
import { createChatSession, type ChatSession, type ChatSnapshot } from '../lib/chat-session.ts';

/** One session per attempt for the page's lifetime: hiding or re-laying out the panel keeps it. */
const sessions = new Map<string, ChatSession>();

function sessionOf(attempt: { attemptId: string; token: string }): ChatSession {
  let session = sessions.get(attempt.attemptId);
  if (!session) {
    session = createChatSession((body, signal) => streamChatReply(attempt.token, body, signal));
    sessions.set(attempt.attemptId, session);
  }
  return session;
}

const idle: ChatSnapshot = { messages: [], pending: false, restored: false, reconnecting: false };
const noSubscription = () => () => undefined;

export type ChatSessionState = ChatSnapshot & {
  session: ChatSession | null;
  /** The stored transcript could not be loaded; sending waits for it so nothing is shown out of order. */
  restoreFailed: boolean;
  retryRestore: () => void;
};

/** The attempt's conversation: restored from the gateway once, then kept up to date while replies stream. */
export function useChatSession(attempt: { attemptId: string; token: string } | null): ChatSessionState {
  const session = attempt ? sessionOf(attempt) : null;
  const snapshot = useSyncExternalStore(session?.subscribe ?? noSubscription, session?.getSnapshot ?? (() => idle));
  const transcript = useTranscript(attempt && !snapshot.restored ? attempt : null);

  useEffect(() => {
    if (session && transcript.data) session.restore(transcript.data.messages);
  }, [session, transcript.data]);

  return { ...snapshot, session, restoreFailed: transcript.isError, retryRestore: () => void transcript.refetch() };
}
