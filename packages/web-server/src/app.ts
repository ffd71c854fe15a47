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
 * Pages the app's build wrote as HTML with their content drawn (taker-web's start page, apps/taker-web/vite.config.ts):
 * `dist/prerendered.json` maps a path to its file under dist/ and the language it is written in.
 */
type PrerenderedPages = Record<string, PrerenderedPage & { file: string }>;
/** The language a prerendered page is written in, and the languages the app has (i18next's supportedLngs). */
type PrerenderedPage = { language: string; languages: string[] };
/** Where the taker app remembers the candidate's language for the server (apps/taker-web/src/i18n/index.ts). */
const LANGUAGE_COOKIE = 'exam.language';

async function readPrerendered(root: string): Promise<Map<string, PrerenderedPage & { html: string }>> {
  let pages: PrerenderedPages;
  try {
    pages = JSON.parse(await readFile(join(root, 'prerendered.json'), 'utf8')) as PrerenderedPages;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw error;
  }
  const entries = await Promise.all(
    Object.entries(pages).map(
      async ([path, { file, ...page }]) => [path, { ...page, html: await readFile(join(root, file), 'utf8') }] as const,
    ),
  );
  return new Map(entries);
}

/**
 * The language the page will open in, as the app's i18next detector chooses it (`?lang=`, the remembered choice,
 * the browser's languages in order), reduced to its primary tag; undefined when nothing names a language. A
 * language the app lacks counts too: the page then opens in its default, which the caller compares against.
 */
export function requestLanguage(request: FastifyRequest): string | undefined {
  const primary = (tag: string | undefined) => tag?.trim().split(/[-_]/)[0]?.toLowerCase() || undefined;
  const query = (request.query as Record<string, unknown> | undefined)?.lang;
  if (typeof query === 'string' && primary(query)) return primary(query);
  const cookie = request.headers.cookie
    ?.split(';')
    .map((pair) => pair.trim().split('='))
    .find(([name]) => name === LANGUAGE_COOKIE)?.[1];
  if (cookie && primary(decodeURIComponent(cookie))) return primary(decodeURIComponent(cookie));
  return primary(request.headers['accept-language']?.split(',')[0]?.split(';')[0]);
}

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
  const prerendered = await readPrerendered(opts.root);

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
    allowedPath: (pathName) => pathName !== '/index.html' && !pathName.startsWith('/prerendered/'),
    setHeaders: (reply, path) => {
      const relative = path.slice(opts.root.length).replaceAll('\\', '/');
      void reply.header(
        'cache-control',
        HASHED_ASSET.test(relative) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  app.get('/', sendIndex);
  // A prerendered page goes to a candidate whose page opens in its language (or in one the app lacks, which
  // falls back to the default it is written in); any other gets the plain app, drawn in their language.
  for (const [path, page] of prerendered) {
    app.get(path, (request, reply) => {
      const language = requestLanguage(request);
      if (language && language !== page.language && page.languages.includes(language)) return sendIndex(request, reply);
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('vary', 'Accept-Language, Cookie')
        .send(page.html.replaceAll(NONCE_PLACEHOLDER, request.styleNonce));
    });
  }
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
