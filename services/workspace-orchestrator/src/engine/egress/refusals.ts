import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

export const STATUS_TEXT = { 400: 'Bad Request', 403: 'Forbidden', 502: 'Bad Gateway' } as const;
export type RefusalStatus = keyof typeof STATUS_TEXT;

/** Hop-by-hop headers (RFC 9110 §7.6.1) and the proxy's own, never passed on. */
const HOP_BY_HOP = [
  'connection',
  'proxy-connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
];

export function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const listed = String(headers.connection ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase());
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !HOP_BY_HOP.includes(name) && !listed.includes(name)),
  );
}

/** A refusal as a complete HTTP response on a raw socket (CONNECT and client errors have no ServerResponse). */
export function refuseOnSocket(socket: Duplex, status: RefusalStatus, reason: string) {
  if (socket.destroyed) return;
  const body = `${reason}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Exam-Egress: refused\r\nConnection: close\r\n\r\n${body}`,
  );
}

export function refuse(res: ServerResponse, status: RefusalStatus, reason: string) {
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'x-exam-egress': 'refused',
    connection: 'close',
  });
  res.end(`${reason}\n`);
}

/** Why a registry could not be reached, as the refusal's reason names it. */
export const unreachable = (target: string, err: Error) =>
  `${target} could not be reached (${(err as NodeJS.ErrnoException).code ?? err.message})`;
