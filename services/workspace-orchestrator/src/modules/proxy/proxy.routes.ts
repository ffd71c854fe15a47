import { request as httpRequest } from 'node:http';
import { ErrorCode } from '@exam/domain/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createAuthorizer, hostPort, type ProxyDeps } from './authorize.ts';
import { downstreamHeaders, upstreamHeaders } from './forward.ts';
import { createUpgradeRelay } from './upgrade-relay.ts';

type Authorized = Awaited<ReturnType<ReturnType<typeof createAuthorizer>>>;

/** Streams one HTTP request to the editor and its answer back, refreshing the session's activity as bytes flow. */
function forwardHttp(
  deps: ProxyDeps,
  { parts, access, forward }: Authorized,
  request: FastifyRequest,
  reply: FastifyReply,
) {
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
      reply.raw.end(JSON.stringify({ error: { code: ErrorCode.UPSTREAM, message: 'The workspace did not answer' } }));
    } else reply.raw.destroy();
  });
  request.raw.pipe(upstream);
}

/**
 * /workspace/{sessionId}/* → the session's editor, HTTP and WebSocket. No container port is published;
 * only this proxy reaches the editor, after checking the attempt's token and the request's origin.
 */
export function proxyRoutes(deps: ProxyDeps) {
  return async (app: FastifyInstance) => {
    // Bodies stream through untouched: no parsing, no body limit beyond the editor's own.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    const authorize = createAuthorizer(deps);

    app.get('/workspace/:sessionId', { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
      const [path, query] = request.url.split(/\?(.*)/s);
      return reply.redirect(`${path}/${query ? `?${query}` : ''}`, 301);
    });

    app.all('/workspace/:sessionId/*', { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
      const authorized = await authorize(request.raw.url ?? '', request.headers, false);
      const { parts, access } = authorized;
      if (access.redirect) {
        // The token leaves the address bar (and history, and Referer) at once; the cookie carries on.
        return reply
          .header('set-cookie', access.setCookie)
          .header('cache-control', 'no-store')
          .redirect(`/workspace/${parts.sessionId}${parts.path}`, 302);
      }
      forwardHttp(deps, authorized, request, reply);
    });

    const relay = createUpgradeRelay(deps, authorize);
    app.server.on('upgrade', relay.onUpgrade);
    app.addHook('onClose', async () => {
      app.server.off('upgrade', relay.onUpgrade);
      relay.closeAll();
    });
  };
}
