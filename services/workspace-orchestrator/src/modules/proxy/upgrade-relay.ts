import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { AppError, ErrorCode, statusOfErrorCode } from '@exam/domain/errors';
import { hostPort, type Authorize, type ProxyDeps } from './authorize.ts';
import { rawRequestHead, upstreamHeaders } from './forward.ts';

/** A refused upgrade as a complete HTTP response on the raw socket, in the errors plugin's body shape. */
function refuse(socket: Duplex, err: unknown) {
  const appError = err instanceof AppError ? err : new AppError(ErrorCode.INTERNAL, 'Internal error');
  const status = statusOfErrorCode[appError.code];
  const body = JSON.stringify({ error: { code: appError.code, message: appError.message } });
  socket.end(
    `HTTP/1.1 ${status} ${appError.code}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * WebSocket upgrades under /workspace/: checked like any proxied request, then the raw sockets are piped
 * both ways. `closeAll` ends the relays still open (on the app's close).
 */
export function createUpgradeRelay(deps: Pick<ProxyDeps, 'targets'>, authorize: Authorize) {
  const open = new Set<Duplex | Socket>();

  function relay(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    sessionId: string,
    path: string,
    forward: Parameters<typeof upstreamHeaders>[1],
  ) {
    const { host, port } = hostPort(forward.target);
    const upstream = connect({ host, port }, () => {
      upstream.write(rawRequestHead(req.method ?? 'GET', path, upstreamHeaders(req.headers, forward)));
      if (head.length) upstream.write(head);
      socket.pipe(upstream).pipe(socket);
    });
    open.add(socket).add(upstream);
    const touch = () => deps.targets.touch(sessionId);
    upstream.on('data', touch);
    socket.on('data', touch);
    const close = () => {
      open.delete(socket);
      open.delete(upstream);
      socket.destroy();
      upstream.destroy();
    };
    upstream.on('error', close).on('close', close);
    socket.on('close', close);
  }

  return {
    onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
      if (!req.url?.startsWith('/workspace/')) return void socket.destroy();
      socket.on('error', () => socket.destroy());
      authorize(req.url, req.headers, true).then(
        ({ parts, forward }) => relay(req, socket, head, parts.sessionId, parts.path, forward),
        (err: unknown) => refuse(socket, err),
      );
    },
    closeAll() {
      for (const socket of open) socket.destroy();
    },
  };
}
