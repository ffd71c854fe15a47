import { describe, expect, it } from 'vitest';
import { readSseData, SseLineParser } from './sse-parser.ts';

const parseAll = (pieces: string[]) => {
  const parser = new SseLineParser();
  return [...pieces.flatMap((p) => parser.push(p)), ...parser.end()];
};

describe('SseLineParser', () => {
  it('yields the data of each event when frames arrive split at any character', () => {
    const stream = 'data: {"a":1}\n\nevent: ping\ndata: {"b":2}\n\n: comment\n\ndata: [DONE]\n\n';
    const whole = parseAll([stream]);
    expect(whole).toEqual(['{"a":1}', '{"b":2}', '[DONE]']);
    for (let cut = 1; cut < stream.length; cut++)
      expect(parseAll([stream.slice(0, cut), stream.slice(cut)])).toEqual(whole);
  });

  it('accepts CRLF and CR line ends, even a CRLF split across two pieces', () => {
    expect(parseAll(['data: one\r', '\n\r\ndata: two\r\rdata:three'])).toEqual(['one', 'two', 'three']);
  });

  it('joins several data lines of one event with a line feed', () => {
    expect(parseAll(['data: first\ndata: second\n\n'])).toEqual(['first\nsecond']);
  });

  it('reads a web stream of bytes with a multi-byte character split between reads', async () => {
    const bytes = new TextEncoder().encode('data: héllo\n\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 8));
        controller.enqueue(bytes.slice(8));
        controller.close();
      },
    });
    const out: string[] = [];
    for await (const data of readSseData(body)) out.push(data);
    expect(out).toEqual(['héllo']);
  });
});
