import { describe, expect, it } from 'vitest';
import { openAiChatToolFrames } from '../../testing/agent-provider-mocks.ts';
import { createGuardedRelay, jsonEscapeDecoder, sseEventSplitter } from './guarded-relay.ts';

describe('the guarded relay', () => {
  it('decodes JSON escapes split across deltas', () => {
    const decode = jsonEscapeDecoder();
    expect(decode('print(\\"sk') + decode('in\\') + decode('u0021\\') + decode('n")')).toBe('print("skin!\n")');
  });

  it('splits events as they arrive in pieces cut anywhere, keeping each raw event', () => {
    const splitter = sseEventSplitter();
    const raw = 'event: a\ndata: {"x":1}\n\ndata: [DONE]\r\n\r\n';
    const events = [...raw].flatMap((c) => splitter.push(c));
    expect(events.map((e) => e.raw).join('')).toBe(raw);
    expect(events.map((e) => [e.name, e.json ?? e.data])).toEqual([
      ['a', { x: 1 }],
      [undefined, '[DONE]'],
    ]);
  });

  it('holds an event while the guard holds the text it carries, and sends it on once the text is safe', () => {
    const written: string[] = [];
    const relay = createGuardedRelay({
      wire: 'openai-chat',
      guard: { keys: [{ questionIndex: 0, key: 'epidermis' }], options: [] },
      withheldMessage: 'stopped',
      write: (text) => written.push(text),
    });
    const frames = openAiChatToolFrames(['the epi', 'logue was long']);
    for (const frame of frames) relay.push(frame);
    relay.end();
    expect(written.join('')).toBe(frames.join(''));
    // "the epi" could still have become the key: its event left together with the one that showed it did not.
    expect(written.some((w) => w.includes('the epi') && w.includes('logue'))).toBe(true);
    expect(relay.outcome).toMatchObject({ status: 'ok', reply: 'the epilogue was long' });
  });
});
