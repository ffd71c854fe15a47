import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UNREACHABLE_HEADER } from '@exam/domain/api-error';
import { ErrorCode } from '@exam/domain/errors';
import type { ServiceName } from '@exam/domain/service-routes';
import { lifecycleOf } from '@exam/server-kit/lifecycle';
import { isUnreachable, RETRY_AFTER_SECONDS, unreachableBody } from '@exam/web-config/proxy-errors';
import type { AppName, RuntimeConfig } from '@exam/web-config/runtime-config';
import { routeOf } from '@exam/web-config/runtime-config';
import { contentSecurityPolicy, NONCE_PLACEHOLDER, PERMISSIONS_POLICY } from '@exam/web-config/security-headers';
import helmet from '@fastify/helmet';
import replyFrom from '@fastify/reply-from';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';

export type WebServerOptions = {
  app: AppName;
  /** The built bundle (apps/<app>/dist). */
  root: string;
  serviceUrls: Record<ServiceName, string>;
  runtimeConfig: RuntimeConfig;
  /** WEB_HTTPS: the site is served over HTTPS, so HSTS is sent on every answer. */
  https: boolean;
  /** TRUSTED_PROXIES: whose X-Forwarded-* (and so the request's protocol) is believed. */
  trustedProxies: string[];
  logLevel?: string;
};

/** Hashed file names (Vite's `assets/name-HASH.ext`) never change content, so they are cached for a year. */
const HASHED_ASSET = /^\/assets\//;
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * The production web server of one app: the built bundle with the platform's security headers, the SPA
 * fallback to index.html, /runtime-config.json, and /api/* and /lti/* proxied to the service that owns each path.
 */
export async function buildWebServer(opts: WebServerOptions) {
  const app = Fastify({
    logger: { level: opts.logLevel ?? 'info' },
    trustProxy: opts.trustedProxies.length ? opts.trustedProxies : false,
    // Request bodies stream to the services untouched (the '*' parser below); each service enforces its limits.
  });
  const indexHtml = await readFile(join(opts.root, 'index.html'), 'utf8');

  await app.register(helmet, {
    contentSecurityPolicy: false,
    hsts: false,
    frameguard: { action: opts.app === 'taker-web' ? 'sameorigin' : 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // The creator opens the taker app in a new tab to preview an exam; allow-popups keeps that tab's opener.
    crossOriginOpenerPolicy: { policy: opts.app === 'creator-web' ? 'same-origin-allow-popups' : 'unsafe-none' },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', async (request, reply) => {
    const styleNonce = randomBytes(16).toString('base64');
    request.styleNonce = styleNonce;
    reply.header(
      'content-security-policy',
      contentSecurityPolicy({ app: opts.app, workspaceOrigin: opts.runtimeConfig.workspaceOrigin, styleNonce }),
    );
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    if (opts.https || request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });

  await app.register(replyFrom, {
    // No timeout on a streamed body: the assistant's replies arrive as server-sent events for minutes.
    undici: { headersTimeout: 300_000, bodyTimeout: 0 },
    disableRequestLogging: true,
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  const proxy = (request: FastifyRequest, reply: FastifyReply) => {
    const service = routeOf(request.url);
    if (!service) {
      return reply.status(404).send({
        error: { code: ErrorCode.NOT_FOUND, message: `Route ${request.method} ${request.url.split('?')[0]} not found` },
      });
    }
    return reply.from(`${opts.serviceUrls[service]}${request.url}`, {
      // Never resend on the client's behalf: the service's own 503 goes back as it is.
      retryDelay: () => null,
      rewriteRequestHeaders: (req, headers) => ({
        ...headers,
        // Only the hops this server trusts (request.ips stops at the first untrusted one), then the client.
        'x-forwarded-for': (req.ips ? [...req.ips].reverse() : [req.socket.remoteAddress ?? '']).join(', '),
        'x-forwarded-proto': request.protocol,
        'x-forwarded-host': request.host,
      }),
      onError: (errorReply, { error }) => {
        const unreachable = isUnreachable(error);
        request.log.warn({ err: error, service, unreachable }, 'proxy to service failed');
        if (unreachable) errorReply.header('retry-after', String(RETRY_AFTER_SECONDS)).header(UNREACHABLE_HEADER, '1');
        const status = unreachable ? 503 : (error as { statusCode?: number }).statusCode === 504 ? 504 : 502;
        void errorReply.status(status).send(unreachableBody(unreachable));
      },
    });
  };
  app.all('/api', proxy);
  app.all('/api/*', proxy);
  // LTI logins and launches arrive from the LMS at the app's origin (ARCHITECTURE.md "LTI").
  app.all('/lti/*', proxy);

  // Probes for Kubernetes and compose (docs/deploy.md): the server needs nothing but its bundle, which it
  // read before listening, so it is ready as soon as it answers. Neither is under /api, so neither is proxied.
  const probe = { logLevel: 'warn' as const };
  app.get('/health', probe, async () => ({ status: 'ok', service: opts.app }));
  // Not ready once shutting down (server-kit's runServer), so routing moves away before the listener closes.
  const lifecycle = lifecycleOf(app);
  app.get('/ready', probe, async (_request, reply) =>
    lifecycle.isDraining
      ? reply.status(503).send({ status: 'draining', service: opts.app })
      : { status: 'ready', service: opts.app },
  );

  app.get('/runtime-config.json', async (_request, reply) =>
    reply.header('cache-control', 'no-store').send(opts.runtimeConfig),
  );

  const sendIndex = (request: FastifyRequest, reply: FastifyReply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(indexHtml.replaceAll(NONCE_PLACEHOLDER, request.styleNonce));

  await app.register(fastifyStatic, {
    root: opts.root,
    index: false,
    wildcard: true,
    // The build's .br and .gz copies (packages/web-config's compression plugin), chosen by Accept-Encoding.
    preCompressed: true,
    allowedPath: (pathName) => pathName !== '/index.html',
    setHeaders: (reply, path) => {
      const relative = path.slice(opts.root.length).replaceAll('\\', '/');
      void reply.header(
        'cache-control',
        HASHED_ASSET.test(relative) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  app.get('/', sendIndex);
  app.get('/index.html', sendIndex);
  // Client-side routes (/exam/…, /results/…) get the app; a missing asset or another method gets a 404.
  app.setNotFoundHandler((request, reply) => {
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !HASHED_ASSET.test(request.url);
    if (isPage) return sendIndex(request, reply);
    return reply.status(404).send({ error: { code: ErrorCode.NOT_FOUND, message: 'Not found' } });
  });
  return app;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** This answer's style-src nonce (see @exam/web-config/security-headers). */
    styleNonce: string;
  }
}
