import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { AppError, ErrorCode, statusOfErrorCode } from '@exam/domain/errors';
import type { FastifyInstance } from 'fastify';
import type { EntryResolver } from '../../engine/catalogue.ts';
import type { AccessChecker } from './access.ts';
import { downstreamHeaders, rawRequestHead, upstreamHeaders } from './forward.ts';
import type { ProxyTargets } from './targets.ts';

const PREFIX = /^\/workspace\/([A-Za-z0-9_-]{1,64})(\/.*)?$/;

/** Splits /workspace/{id}/rest?query into the session id, the editor's path, and a `token` query parameter (removed). */
function splitUrl(url: string) {
  const [pathname = '', query = ''] = url.split(/\?(.*)/s);
  const match = PREFIX.exec(pathname);
  if (!match) return undefined;
  const params = new URLSearchParams(query);
  const token = params.get('token') ?? undefined;
  params.delete('token');
  const rest = params.toString();
  return { sessionId: match[1]!, path: `${match[2] ?? '/'}${rest ? `?${rest}` : ''}`, token };
}

function hostPort(target: string) {
  const i = target.lastIndexOf(':');
  return { host: target.slice(0, i), port: Number(target.slice(i + 1)) };
}

type ProxyDeps = { targets: ProxyTargets; check: AccessChecker; resolveEntry: EntryResolver; clock: { now(): Date } };

/**
 * /workspace/{sessionId}/* → the session's editor, HTTP and WebSocket. No container port is published;
 * only this proxy reaches the editor, after checking the attempt's token and the request's origin.
 */
export function proxyRoutes(deps: ProxyDeps) {
  return async (app: FastifyInstance) => {
    // Bodies stream through untouched: no parsing, no body limit beyond the editor's own.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    async function authorize(url: string, headers: IncomingMessage['headers'], upgrade: boolean) {
      const parts = splitUrl(url);
      if (!parts) throw new AppError(ErrorCode.NOT_FOUND, 'Session not found');
      const row = await deps.targets.get(parts.sessionId);
      const access = deps.check({
        sessionId: parts.sessionId,
        attemptId: row.attemptId!,
        headers,
        queryToken: parts.token,
        upgrade,
        now: deps.clock.now(),
      });
      const entry = deps.resolveEntry(row.workspaceType);
      const forward = {
        target: row.target!,
        editorCookieName: entry.sessionCookie,
        editorCookie: row.editorCookie!,
        upgrade,
      };
      return { parts, row, access, forward };
    }

    app.get('/workspace/:sessionId', { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
      const [path, query] = request.url.split(/\?(.*)/s);
      return reply.redirect(`${path}/${query ? `?${query}` : ''}`, 301);
    });

    app.all('/workspace/:sessionId/*', { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
      const { parts, access, forward } = await authorize(request.raw.url ?? '', request.headers, false);
      if (access.redirect) {
        // The token leaves the address bar (and history, and Referer) at once; the cookie carries on.
        return reply
          .header('set-cookie', access.setCookie)
          .header('cache-control', 'no-store')
          .redirect(`/workspace/${parts.sessionId}${parts.path}`, 302);
      }
      deps.targets.touch(parts.sessionId);
      reply.hijack();
      const { host, port } = hostPort(forward.target);
      const upstream = httpRequest({
        host,
        port,
        method: request.method,
        path: parts.path,
        headers: upstreamHeaders(request.headers, forward),
      });
      upstream.on('response', (res) => {
        reply.raw.writeHead(
          res.statusCode ?? 502,
          downstreamHeaders(res.headers, { editorCookieName: forward.editorCookieName, setCookie: access.setCookie }),
        );
        res.pipe(reply.raw);
        res.on('data', () => deps.targets.touch(parts.sessionId));
      });
      upstream.on('error', (err) => {
        request.log.warn({ err, sessionId: parts.sessionId }, 'workspace upstream failed');
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(502, { 'content-type': 'application/json' });
          reply.raw.end(
            JSON.stringify({ error: { code: ErrorCode.UPSTREAM, message: 'The workspace did not answer' } }),
          );
        } else reply.raw.destroy();
      });
      request.raw.pipe(upstream);
    });

    const open = new Set<Duplex | Socket>();
    const refuse = (socket: Duplex, err: unknown) => {
      const appError = err instanceof AppError ? err : new AppError(ErrorCode.INTERNAL, 'Internal error');
      const status = statusOfErrorCode[appError.code];
      const body = JSON.stringify({ error: { code: appError.code, message: appError.message } });
      socket.end(
        `HTTP/1.1 ${status} ${appError.code}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    };

    const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (!req.url?.startsWith('/workspace/')) return void socket.destroy();
      socket.on('error', () => socket.destroy());
      authorize(req.url, req.headers, true).then(
        ({ parts, forward }) => {
          const { host, port } = hostPort(forward.target);
          const upstream = connect({ host, port }, () => {
            upstream.write(rawRequestHead(req.method ?? 'GET', parts.path, upstreamHeaders(req.headers, forward)));
            if (head.length) upstream.write(head);
            socket.pipe(upstream).pipe(socket);
          });
          open.add(socket).add(upstream);
          const touch = () => deps.targets.touch(parts.sessionId);
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
        },
        (err: unknown) => refuse(socket, err),
      );
    };
    app.server.on('upgrade', onUpgrade);
    app.addHook('onClose', async () => {
      app.server.off('upgrade', onUpgrade);
      for (const socket of open) socket.destroy();
    });
  };
}
