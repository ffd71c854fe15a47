import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UNREACHABLE_HEADER } from '@exam/domain/api-error';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUnreachable } from './proxy-errors.ts';
import { appViteConfig } from './vite-preset.ts';

describe("dev mode's proxy (vite)", () => {
  let vite: ViteDevServer;
  let base: string;
  const saved = process.env.EXAM_SERVICE_URL;

  beforeAll(async () => {
    const stopped = createHttpServer();
    await new Promise<void>((resolve) => stopped.listen(0, '127.0.0.1', resolve));
    const port = (stopped.address() as AddressInfo).port;
    await new Promise((resolve) => stopped.close(resolve));
    process.env.EXAM_SERVICE_URL = `http://127.0.0.1:${port}`;
    const root = mkdtempSync(join(tmpdir(), 'vite-preset-'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>t</title>');
    const config = appViteConfig('creator-web');
    vite = await createServer({
      ...config,
      configFile: false,
      root,
      logLevel: 'silent',
      server: { ...config.server, port: 0, strictPort: false, host: '127.0.0.1' },
    });
    await vite.listen();
    base = `http://127.0.0.1:${(vite.httpServer!.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await vite.close();
    process.env.EXAM_SERVICE_URL = saved;
  });

  it('answers 503 with the JSON error, Retry-After and the unreachable header when the service is down', async () => {
    const response = await fetch(`${base}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(response.headers.get(UNREACHABLE_HEADER)).toBe('1');
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('UNAVAILABLE');
  });

  it('serves the runtime config with the workspace origin', async () => {
    const body = (await (await fetch(`${base}/runtime-config.json`)).json()) as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(['creatorOrigin', 'takerOrigin', 'workspaceOrigin']);
  });
});

describe('isUnreachable', () => {
  it('counts refused, unresolvable and unrouted connections, and a dual-stack refusal, but not a reset', () => {
    expect(isUnreachable(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isUnreachable(new Error('wrapped', { cause: Object.assign(new Error('y'), { code: 'ENOTFOUND' }) }))).toBe(
      true,
    );
    const refused = () => Object.assign(new Error('r'), { code: 'ECONNREFUSED' });
    expect(isUnreachable(new AggregateError([refused(), refused()]))).toBe(true);
    expect(isUnreachable(Object.assign(new Error('z'), { code: 'ECONNRESET' }))).toBe(false);
  });
});
