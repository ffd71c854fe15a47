import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

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

const editorBases = new WeakMap<FastifyInstance, Promise<string>>();

/** The test app's editors' listener (what WORKSPACE_ORIGIN reaches), on a free port, started once per app. */
export function editorsBase(app: FastifyInstance): Promise<string> {
  let base = editorBases.get(app);
  if (!base) {
    base = app.editors
      .listen({ host: '127.0.0.1', port: 0 })
      .then(() => `http://127.0.0.1:${(app.editors.server.address() as AddressInfo).port}`);
    editorBases.set(app, base);
  }
  return base;
}

/**
 * What the candidate's browser holds after the exam page framed the editor: the orchestrator's cookie for
 * that session, bought with a launch token (POST /api/session/{id}/launch, then opening its address).
 */
export async function editorCookie(
  app: FastifyInstance,
  attemptHeaders: Record<string, string>,
  sessionId: string,
): Promise<{ cookie: string }> {
  const launch = await app.inject({ method: 'POST', url: `/api/session/${sessionId}/launch`, headers: attemptHeaders });
  if (launch.statusCode !== 200) throw new Error(`launch answered ${launch.statusCode}: ${launch.body}`);
  const url = new URL((launch.json() as { editorUrl: string }).editorUrl);
  const opened = await httpCall(await editorsBase(app), `${url.pathname}${url.search}`);
  if (opened.status !== 302) throw new Error(`opening the launch address answered ${opened.status}: ${opened.body}`);
  return { cookie: String(opened.headers['set-cookie']).split(';')[0]! };
}
