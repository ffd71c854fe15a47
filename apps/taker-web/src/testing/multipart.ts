/**
 * Reads the file part of a multipart/form-data request. Node's own `request.formData()` cannot run under
 * jsdom (it builds the global File, which jsdom replaced), so the fake services parse the body here.
 */
export async function readMultipartFile(
  request: Request,
  field = 'file',
): Promise<{ fileName: string; mimeType: string; bytes: Uint8Array } | undefined> {
  const boundary = /boundary=(.+)$/.exec(request.headers.get('content-type') ?? '')?.[1];
  if (!boundary) return undefined;
  const body = new Uint8Array(await request.arrayBuffer());
  // latin1 maps each byte to one character, so string offsets are byte offsets.
  const text = new TextDecoder('latin1').decode(body);
  const utf8 = (latin1: string) => new TextDecoder().decode(Uint8Array.from(latin1, (c) => c.charCodeAt(0)));
  let offset = 0;
  for (const part of text.split(`--${boundary}`)) {
    const partStart = offset;
    offset += part.length + boundary.length + 2;
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd < 0 || !part.slice(0, headerEnd).includes(`name="${field}"`)) continue;
    const headers = part.slice(0, headerEnd);
    return {
      fileName: utf8(/filename="([^"]*)"/.exec(headers)?.[1] ?? ''),
      mimeType: /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1] ?? 'application/octet-stream',
      // The part ends with the CRLF that precedes the next boundary.
      bytes: body.slice(partStart + headerEnd + 4, partStart + part.length - 2),
    };
  }
  return undefined;
}
