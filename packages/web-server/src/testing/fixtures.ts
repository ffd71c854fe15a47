import { brotliCompressSync, gzipSync } from 'node:zlib';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBaseApp } from '@exam/server-kit/base-app';
import { testCreatorSessions } from '@exam/server-kit/testing';
import multipart from '@fastify/multipart';
import { NONCE_PLACEHOLDER } from '@exam/web-config/security-headers';

/** A built bundle as Vite writes it: index.html with the nonce placeholder, hashed assets. */
export function fakeBundle(): string {
  const root = mkdtempSync(join(tmpdir(), 'web-server-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(
    join(root, 'index.html'),
    `<!doctype html><html><head><meta property="csp-nonce" nonce="${NONCE_PLACEHOLDER}" />` +
      `<script type="module" crossorigin src="/assets/index-Ab12Cd.js"></script>` +
      `<link rel="stylesheet" crossorigin href="/assets/index-Ef34Gh.css"></head><body><div id="root"></div></body></html>`,
  );
  const script = 'console.log("app");';
  writeFileSync(join(root, 'assets', 'index-Ab12Cd.js'), script);
  // The build's compressed copies (packages/web-config's compression plugin).
  writeFileSync(join(root, 'assets', 'index-Ab12Cd.js.br'), brotliCompressSync(script));
  writeFileSync(join(root, 'assets', 'index-Ab12Cd.js.gz'), gzipSync(script));
  writeFileSync(join(root, 'assets', 'index-Ef34Gh.css'), 'body{margin:0}');
  writeFileSync(join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return root;
}

const urlOf = (server: { address(): AddressInfo | string | null }) =>
  `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/**
 * A service built on the platform's own base app (server-kit: its error handler and body limit), with a
 * multipart upload route and a JSON route, as exam-service has them.
 */
export async function startKitService() {
  const app = await createBaseApp({
    service: 'exam-service',
    logLevel: 'silent',
    jwtSecret: 'web-server-test-secret-that-is-long-enough-0123456789',
    internalToken: 'web-server-test-internal-token-long-enough-0123456789',
    checks: {},
    creatorSessions: testCreatorSessions(),
  });
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: 4096 } });
    scope.post('/api/materials', async (request) => {
      const names: string[] = [];
      for await (const part of request.files()) {
        await part.toBuffer();
        names.push(part.filename);
      }
      return { names };
    });
  });
  app.post('/api/auth/signup', async (request) => ({ received: typeof request.body }));
  // Stands for exam-service's LTI launch: a form post answered with a redirect.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  app.post('/lti/launch', async (request, reply) =>
    reply.redirect(`/elsewhere?state=${(request.body as { state?: string }).state ?? ''}`, 303),
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: urlOf(app.server) };
}

/** A service that is up and answers every request with its own 503, counting what reaches it. */
export async function startBusyService() {
  let requests = 0;
  const server: Server = createServer((_req, res) => {
    requests += 1;
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'Database is unavailable' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: urlOf(server), requests: () => requests };
}

/** An address where nothing listens: a port that was just bound and released. */
export async function stoppedServiceUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = urlOf(server);
  await new Promise((resolve) => server.close(resolve));
  return url;
}
