import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, type App } from '../create-server.ts';
import { errorsPlugin } from './errors.ts';
import { metricsPlugin, type MetricsOptions } from './metrics.ts';

async function metricsApp(opts: Partial<MetricsOptions> = {}) {
  const app = createServer({ logLevel: 'silent' });
  await app.register(errorsPlugin);
  await app.register(metricsPlugin, { service: 'test-service', ...opts });
  app.get('/api/things/:id', { schema: { params: z.object({ id: z.string() }) } }, async () => ({ ok: true }));
  app.get('/api/broken', async () => {
    throw new Error('boom');
  });
  return app;
}

/** The value of one sample line of the text format, or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const line = text.split('\n').find((l) => {
    if (!l.startsWith(`${name}{`)) return false;
    return Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`));
  });
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('metrics plugin', () => {
  let app: App;
  afterEach(() => app.close());

  it('counts a request under its route pattern and status class, never the raw URL', async () => {
    app = await metricsApp();
    await app.inject({ method: 'GET', url: '/api/things/abc-123' });
    await app.inject({ method: 'GET', url: '/api/things/def-456' });
    await app.inject({ method: 'GET', url: '/api/broken' });
    await app.inject({ method: 'GET', url: '/no/such/route/42' });

    const response = await app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    const text = response.body;
    const count = (route: string, statusClass: string) =>
      sample(text, 'http_request_duration_seconds_count', { route, status_class: statusClass, method: 'GET' });
    expect(count('/api/things/:id', '2xx')).toBe(2);
    expect(count('/api/broken', '5xx')).toBe(1);
    expect(count('unmatched', '4xx')).toBe(1);
    expect(text).not.toContain('abc-123');
    expect(text).not.toContain('/no/such/route');
    expect(text).toContain('service="test-service"');
  });

  it('includes the Node process metrics', async () => {
    app = await metricsApp();
    const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(text).toMatch(/^process_cpu_user_seconds_total\{service="test-service"\} \d/m);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(text).toContain('nodejs_heap_size_used_bytes');
  });

  it('answers 401 without the bearer token when METRICS_TOKEN is set, and the metrics with it', async () => {
    app = await metricsApp({ token: 'scrape-token-0123456789' });
    const none = await app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    expect(none.body).not.toContain('http_request_duration_seconds');
    const wrong = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer scrape-token-0123456780' },
    });
    expect(wrong.statusCode).toBe(401);
    const right = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer scrape-token-0123456789' },
    });
    expect(right.statusCode).toBe(200);
    expect(right.body).toContain('http_request_duration_seconds');
  });

  it('reads a gauge at scrape time and reuses the value within the cache window', async () => {
    app = await metricsApp({ cacheMs: 60_000 });
    let reads = 0;
    app.metrics.gauge({
      name: 'things_pending',
      help: 'test',
      labelNames: ['state'],
      collect: async () => {
        reads += 1;
        return [
          { labels: { state: 'queued' }, value: 3 * reads },
          { labels: { state: 'running' }, value: 1 },
        ];
      },
    });
    const first = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    const second = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(sample(first, 'things_pending', { state: 'queued' })).toBe(3);
    expect(sample(second, 'things_pending', { state: 'queued' })).toBe(3);
    expect(sample(second, 'things_pending', { state: 'running' })).toBe(1);
    expect(reads).toBe(1);
  });

  it('keeps serving the other metrics when a gauge cannot be read', async () => {
    app = await metricsApp();
    app.metrics.gauge({
      name: 'broken_gauge',
      help: 'test',
      collect: () => Promise.reject(new Error('database down')),
    });
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('http_requests_in_flight');
  });

  it('counts a request in flight until its response ends', async () => {
    app = await metricsApp();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    app.get('/api/slow', async () => {
      await held;
      return { ok: true };
    });
    const pending = app.inject({ method: 'GET', url: '/api/slow' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(app.metrics.inFlight('/api/slow')).toBe(1);
    const during = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(sample(during, 'http_requests_in_flight', { route: '/api/slow' })).toBe(1);
    release();
    await pending;
    expect(app.metrics.inFlight('/api/slow')).toBe(0);
  });
});
