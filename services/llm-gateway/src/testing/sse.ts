import { parseChatStreamFrame, type ChatStreamEvent } from '@exam/domain/llm';

/** The events of an SSE body, in order. */
export function sseEvents(payload: string): ChatStreamEvent[] {
  return payload
    .split('\n\n')
    .map((frame) => (frame.trim() ? parseChatStreamFrame(frame) : undefined))
    .filter((e): e is ChatStreamEvent => e !== undefined);
}

export const deltasOf = (events: ChatStreamEvent[]) => events.flatMap((e) => (e.type === 'delta' ? [e.text] : []));
