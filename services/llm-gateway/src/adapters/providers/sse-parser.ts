/**
 * Splits a server-sent event stream into the `data:` payload of each event: lines end in LF, CRLF or
 * CR, a blank line ends an event, several data lines join with LF, and `event:`, `id:` and comment
 * lines are skipped. Text goes in as it arrives, split anywhere.
 */
export class SseLineParser {
  private buffer = '';
  private data: string[] = [];
  private lastWasCr = false;

  push(text: string): string[] {
    let input = text;
    // A CRLF split across two pushes: the LF ends nothing new.
    if (this.lastWasCr && input.startsWith('\n')) input = input.slice(1);
    this.lastWasCr = input.endsWith('\r');
    const events: string[] = [];
    let start = 0;
    for (let i = 0; i < input.length; i++) {
      const c = input.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.line(this.buffer + input.slice(start, i), events);
      this.buffer = '';
      if (c === 13 && input.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
    }
    this.buffer += input.slice(start);
    return events;
  }

  /** The stream ended: an event whose blank line never came still counts. */
  end(): string[] {
    const events: string[] = [];
    if (this.buffer) this.line(this.buffer, events);
    this.buffer = '';
    if (this.data.length) events.push(this.data.join('\n'));
    this.data = [];
    return events;
  }

  private line(line: string, events: string[]) {
    if (line === '') {
      if (this.data.length) events.push(this.data.join('\n'));
      this.data = [];
    } else if (line.startsWith('data:')) {
      this.data.push(line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5));
    }
  }
}

/** Yields the `data:` payload of each server-sent event of a response body. */
export async function* readSseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  const parser = new SseLineParser();
  for await (const bytes of body) yield* parser.push(decoder.decode(bytes, { stream: true }));
  yield* parser.push(decoder.decode());
  yield* parser.end();
}
