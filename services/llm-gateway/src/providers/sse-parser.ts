/** Yields the `data:` payload of each server-sent event of a response body (frames split on a blank line, CRLF or LF). */
export async function* readSseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const bytes of body) {
    buffer += decoder.decode(bytes, { stream: true }).replace(/\r\n?/g, '\n');
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const data = dataOf(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (data !== undefined) yield data;
      end = buffer.indexOf('\n\n');
    }
  }
  const rest = dataOf(buffer + decoder.decode());
  if (rest !== undefined) yield rest;
}

function dataOf(frame: string): string | undefined {
  const lines = frame.split('\n').filter((line) => line.startsWith('data:'));
  if (!lines.length) return undefined;
  return lines.map((line) => line.slice(5).replace(/^ /, '')).join('\n');
}
