import { request } from 'node:http';

export type RawReply = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** A real HTTP request (the proxy streams, so tests go over a socket rather than inject()). */
export function httpCall(
  base: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawReply> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** A WebSocket upgrade: the status line the proxy answers, and what arrives on the socket within a moment. */
export function upgrade(
  base: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; data: string }> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(url, {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        ...headers,
      },
    });
    req.on('upgrade', (res, socket, head) => {
      let data = head.toString('latin1');
      socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
      setTimeout(() => {
        socket.destroy();
        resolve({ status: res.statusCode ?? 0, data });
      }, 500);
    });
    req.on('response', (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, data: '' });
    });
    req.on('error', reject);
    req.end();
  });
}
