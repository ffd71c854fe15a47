import { mkdirSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { UNREACHABLE_HEADER } from '@exam/domain/api-error';
import { lifecycleOf } from '@exam/server-kit/lifecycle';
import type { AppName } from '@exam/web-config/runtime-config';
import { NONCE_PLACEHOLDER } from '@exam/web-config/security-headers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebServer, type WebServerOptions } from './app.ts';
import { fakeBundle, startBusyService, startKitService, stoppedServiceUrl } from './testing/fixtures.ts';

const WORKSPACE_ORIGIN = 'http://localhost:4999';

describe('web server', () => {
  const root = fakeBundle();
  let kit: Awaited<ReturnType<typeof startKitService>>;
  let busy: Awaited<ReturnType<typeof startBusyService>>;
  let stopped: string;
  const servers: Array<{ close(): Promise<unknown> }> = [];

  beforeAll(async () => {
    kit = await startKitService();
    busy = await startBusyService();
    stopped = await stoppedServiceUrl();
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await kit.app.close();
    busy.server.close();
  });

  async function start(app: AppName, overrides: Partial<WebServerOptions> = {}) {
    const server = await buildWebServer({
      app,
      root,
      serviceUrls: {
        'exam-service': kit.url,
        'results-service': busy.url,
        'llm-gateway': stopped,
        'workspace-orchestrator': stopped,
      },
      runtimeConfig: {
        creatorOrigin: 'http://localhost:5173',
        takerOrigin: 'http://localhost:5174',
        workspaceOrigin: WORKSPACE_ORIGIN,
      },
      https: false,
      trustedProxies: [],
      logLevel: 'silent',
      ...overrides,
    });
    await server.listen({ host: '127.0.0.1', port: 0 });
    servers.push(server);
    return `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  }

  const directives = (response: Response) =>
    Object.fromEntries(
      (response.headers.get('content-security-policy') ?? '').split('; ').map((d) => {
        const [name = '', ...values] = d.split(' ');
        return [name, values];
      }),
    );

  describe('security headers', () => {
    it("sends the taker's page a strict policy that frames only the workspace origin, with a fresh style nonce", async () => {
      const base = await start('taker-web');
      const response = await fetch(`${base}/exam/abc`);
      expect(response.status).toBe(200);
      const html = await response.text();
      const csp = directives(response);
      expect(csp['script-src']).toEqual(["'self'"]);
      expect(csp['connect-src']).toEqual(["'self'"]);
      expect(csp['frame-src']).toEqual([WORKSPACE_ORIGIN]);
      expect(csp['frame-ancestors']).toEqual(["'self'"]);
      expect(csp['object-src']).toEqual(["'none'"]);
      expect(csp['base-uri']).toEqual(["'self'"]);
      expect(csp['form-action']).toEqual(["'self'"]);
      expect(response.headers.get('content-security-policy')).not.toContain('unsafe-inline');
      const nonce = /nonce="([^"]+)"/.exec(html)?.[1];
      expect(nonce).toMatch(/^[A-Za-z0-9+/=]{20,}$/);
      expect(csp['style-src']).toEqual(["'self'", `'nonce-${nonce}'`]);
      const again = await fetch(`${base}/`);
      expect(/nonce="([^"]+)"/.exec(await again.text())?.[1]).not.toBe(nonce);

      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('permissions-policy')).toContain('fullscreen=(self)');
      expect(response.headers.get('permissions-policy')).toContain('camera=()');
      expect(response.headers.get('permissions-policy')).toContain('microphone=()');
      expect(response.headers.get('permissions-policy')).toContain('geolocation=()');
      expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(response.headers.get('x-powered-by')).toBeNull();
      expect(response.headers.get('strict-transport-security')).toBeNull();
    });

    it('forbids framing the creator app at all and lets it frame nothing', async () => {
      const response = await fetch(`${await start('creator-web')}/exams`);
      const csp = directives(response);
      expect(csp['frame-ancestors']).toEqual(["'none'"]);
      expect(csp['frame-src']).toEqual(["'none'"]);
      expect(response.headers.get('x-frame-options')).toBe('DENY');
    });

    it('lets the creator app post forms to an LMS over https (deep linking), and over http only on this machine', async () => {
      const csp = directives(await fetch(`${await start('creator-web')}/`));
      expect(csp['form-action']).toEqual(["'self'", 'https:', 'http://localhost:*', 'http://127.0.0.1:*']);
    });

    it('sends HSTS when told the site is served over HTTPS', async () => {
      const response = await fetch(`${await start('creator-web', { https: true })}/`);
      expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    });

    it('sends HSTS when a trusted proxy says the request came over HTTPS, and not when anyone else says so', async () => {
      const trusted = await start('creator-web', { trustedProxies: ['127.0.0.1'] });
      const viaProxy = await fetch(`${trusted}/`, { headers: { 'x-forwarded-proto': 'https' } });
      expect(viaProxy.headers.get('strict-transport-security')).toContain('max-age=');
      const untrusted = await start('creator-web');
      const spoofed = await fetch(`${untrusted}/`, { headers: { 'x-forwarded-proto': 'https' } });
      expect(spoofed.headers.get('strict-transport-security')).toBeNull();
    });
  });

  describe('the bundle', () => {
    it('caches hashed assets for a year, revalidates the page, and 404s a missing asset instead of the page', async () => {
      const base = await start('taker-web');
      const asset = await fetch(`${base}/assets/index-Ab12Cd.js`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect((await fetch(`${base}/exam/1`)).headers.get('cache-control')).toBe('no-cache');
      expect((await fetch(`${base}/favicon.svg`)).headers.get('cache-control')).toBe('no-cache');
      expect((await fetch(`${base}/assets/gone-123.js`)).status).toBe(404);
    });

    it('sends the build’s compressed copy a browser accepts, and the plain file to one that accepts none', async () => {
      const base = await start('taker-web');
      const raw = (encoding: string) =>
        new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
          get(`${base}/assets/index-Ab12Cd.js`, { headers: { 'accept-encoding': encoding } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          }).on('error', reject);
        });
      const br = await raw('gzip, deflate, br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(brotliDecompressSync(br.body).toString()).toBe('console.log("app");');
      const gz = await raw('gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.body).toString()).toBe('console.log("app");');
      const plain = await raw('identity');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString()).toBe('console.log("app");');
    });

    it('serves a prerendered page to a request in its language, the plain app to one in another the app has', async () => {
      const withPage = fakeBundle();
      mkdirSync(join(withPage, 'prerendered'));
      writeFileSync(
        join(withPage, 'prerendered', 'start.html'),
        `<html><head><meta property="csp-nonce" nonce="${NONCE_PLACEHOLDER}" /></head>` +
          '<body><div id="root" data-prerendered="/taker/start"><form>Exam URL</form></div></body></html>',
      );
      writeFileSync(
        join(withPage, 'prerendered.json'),
        JSON.stringify({ '/taker/start': { file: 'prerendered/start.html', language: 'en', languages: ['en', 'es'] } }),
      );
      const base = await start('taker-web', { root: withPage });
      const page = async (path: string, headers: Record<string, string> = {}) => {
        const response = await fetch(`${base}${path}`, { headers });
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
        const html = await response.text();
        return { html, prerendered: html.includes('data-prerendered'), response };
      };

      const english = await page('/taker/start', { 'accept-language': 'en-GB,en;q=0.9' });
      expect(english.prerendered).toBe(true);
      // The page carries this answer's style nonce, as the plain app does.
      const nonce = /nonce="([^"]+)"/.exec(english.html)?.[1];
      expect(directives(english.response)['style-src']).toContain(`'nonce-${nonce}'`);
      expect(english.html).not.toContain(NONCE_PLACEHOLDER);
      expect(english.response.headers.get('cache-control')).toBe('no-cache');
      expect(english.response.headers.get('vary')).toMatch(/accept-language/i);
      // No language named, or one the app lacks (it opens in English): the prerendered page.
      expect((await page('/taker/start')).prerendered).toBe(true);
      expect((await page('/taker/start', { 'accept-language': 'fr-FR,fr' })).prerendered).toBe(true);
      // Spanish from the browser, from the remembered choice, or from ?lang=: the app, drawn in Spanish.
      expect((await page('/taker/start', { 'accept-language': 'es-ES,es;q=0.9,en;q=0.8' })).prerendered).toBe(false);
      expect((await page('/taker/start', { cookie: 'a=1; exam.language=es' })).prerendered).toBe(false);
      expect((await page('/taker/start?lang=es', { 'accept-language': 'en' })).prerendered).toBe(false);
      // ?lang= comes before the remembered choice, which comes before the browser's, as in the app.
      expect((await page('/taker/start?lang=en', { cookie: 'exam.language=es' })).prerendered).toBe(true);
      expect((await page('/taker/start', { cookie: 'exam.language=en', 'accept-language': 'es' })).prerendered).toBe(
        true,
      );
      // Other pages are the app, and so is the file's own path (it is only ever the answer for its page).
      expect((await page('/taker/credentials', { 'accept-language': 'en' })).prerendered).toBe(false);
      expect((await page('/prerendered/start.html', { 'accept-language': 'en' })).prerendered).toBe(false);
    });

    it('answers the liveness and readiness probes in JSON, not with the page', async () => {
      const base = await start('creator-web');
      for (const [path, status] of [
        ['/health', 'ok'],
        ['/ready', 'ready'],
      ] as const) {
        const response = await fetch(`${base}${path}`);
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ status, service: 'creator-web' });
      }
    });

    it('answers 503 on the readiness probe once shutting down, while it still serves', async () => {
      const base = await start('taker-web');
      const server = servers.at(-1) as Awaited<ReturnType<typeof buildWebServer>>;
      lifecycleOf(server).beginDrain();
      const ready = await fetch(`${base}/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'draining', service: 'taker-web' });
      expect((await fetch(`${base}/health`)).status).toBe(200);
    });

    it('serves the runtime config with the workspace origin', async () => {
      const response = await fetch(`${await start('taker-web')}/runtime-config.json`);
      expect(await response.json()).toEqual({
        creatorOrigin: 'http://localhost:5173',
        takerOrigin: 'http://localhost:5174',
        workspaceOrigin: WORKSPACE_ORIGIN,
      });
      expect(response.headers.get('cache-control')).toBe('no-store');
    });
  });

  describe('the proxy', () => {
    it('answers 503 with the JSON error, Retry-After and the unreachable header when the service is down', async () => {
      const response = await fetch(`${await start('taker-web')}/api/llm/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'hello' }),
      });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('2');
      expect(response.headers.get(UNREACHABLE_HEADER)).toBe('1');
      expect(await response.json()).toEqual({
        error: {
          code: 'UNAVAILABLE',
          message: 'The platform is starting or restarting. Please try again in a moment.',
        },
      });
    });

    it("passes on the service's own 503 once, without the unreachable header", async () => {
      const before = busy.requests();
      const response = await fetch(`${await start('taker-web')}/api/attempts/a1`);
      expect(response.status).toBe(503);
      expect(response.headers.get(UNREACHABLE_HEADER)).toBeNull();
      expect(((await response.json()) as { error: { code: string; message: string } }).error.message).toBe(
        'Database is unavailable',
      );
      expect(busy.requests() - before).toBe(1);
    });

    it('answers 404 in JSON for an /api path no service owns', async () => {
      const response = await fetch(`${await start('creator-web')}/api/nothing-here`);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { code: string; message: string } }).error.code).toBe('NOT_FOUND');
    });

    it("never serves a service's Prometheus metrics, which are not under /api", async () => {
      expect((await fetch(`${kit.url}/metrics`)).status).toBe(200);
      const web = await start('creator-web');
      for (const path of [
        '/metrics',
        '/api/metrics',
        '/api/exam-service/metrics',
        '/api/exam-service/%2e%2e/%2e%2e/metrics',
      ]) {
        const response = await fetch(`${web}${path}`);
        expect(await response.text(), path).not.toContain('http_request_duration_seconds');
      }
    });

    it("forwards an LMS's form post to /lti/launch to exam-service on either app's origin, and its redirect back", async () => {
      for (const app of ['creator-web', 'taker-web'] as const) {
        const response = await fetch(`${await start(app)}/lti/launch`, {
          method: 'POST',
          body: new URLSearchParams({ id_token: 'x', state: 's1' }),
          redirect: 'manual',
        });
        expect(response.status, app).toBe(303);
        expect(response.headers.get('location'), app).toBe('/elsewhere?state=s1');
      }
    });

    it('streams an upload to the service and its answer back', async () => {
      const form = new FormData();
      form.append('file', new Blob(['hello']), 'notes.txt');
      const response = await fetch(`${await start('creator-web')}/api/materials`, { method: 'POST', body: form });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ names: ['notes.txt'] });
    });
  });

  describe('malformed bodies through the proxy', () => {
    const TRUNCATED =
      '--b\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\nhel';

    /** A raw request, so the body is sent exactly as given (fetch would repair it). */
    function send(base: string, path: string, contentType: string, body: Buffer | string) {
      return new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          `${base}${path}`,
          { method: 'POST', headers: { 'content-type': contentType } },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    }

    it('answers 400 with the reason for a multipart body without a boundary', async () => {
      const response = await send(await start('creator-web'), '/api/materials', 'multipart/form-data', TRUNCATED);
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body).error.message).toMatch(/boundary/i);
    });

    it('answers 400 with the reason for a multipart body cut short', async () => {
      const base = await start('creator-web');
      const response = await send(base, '/api/materials', 'multipart/form-data; boundary=b', TRUNCATED);
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body).error.message).toBe(
        'The multipart body is malformed: it ended before its closing boundary',
      );
    });

    it('answers 413 with a JSON error for an uploaded file past the limit', async () => {
      const form = new FormData();
      form.append('file', new Blob([Buffer.alloc(200_000, 1)]), 'big.bin');
      const response = await fetch(`${await start('creator-web')}/api/materials`, { method: 'POST', body: form });
      expect(response.status).toBe(413);
      expect(((await response.json()) as { error: { code: string; message: string } }).error.code).toBe(
        'PAYLOAD_TOO_LARGE',
      );
    });

    it('answers 413 with a JSON error for a JSON body past the limit', async () => {
      const body = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(3_000_000) });
      const response = await send(await start('creator-web'), '/api/auth/signup', 'application/json', body);
      expect(response.status).toBe(413);
      expect(JSON.parse(response.body).error.code).toBe('PAYLOAD_TOO_LARGE');
    });
  });
});
