import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracing } from './tracing.ts';

const FIXTURE = fileURLToPath(new URL('./testing/traced-service/server.ts', import.meta.url));

/** A span as OTLP/HTTP's JSON encoding carries it (ids in hex), with its resource's service.name. */
type ReceivedSpan = {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: { stringValue?: string } }>;
};
type OtlpAttribute = { key: string; value: { stringValue?: string } };
type OtlpTraces = {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{ spans?: Array<Omit<ReceivedSpan, 'service'>> }>;
  }>;
};

const SPAN_KIND_SERVER = 2;
const SPAN_KIND_CLIENT = 3;

/** A local OTLP/HTTP receiver: what an OpenTelemetry Collector's `otlphttp` receiver accepts at /v1/traces. */
function startReceiver() {
  const spans: ReceivedSpan[] = [];
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (part: string) => (body += part));
    req.on('end', () => {
      paths.push(req.url ?? '');
      const traces = JSON.parse(body) as OtlpTraces;
      for (const rs of traces.resourceSpans ?? []) {
        const service = rs.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
        for (const ss of rs.scopeSpans ?? []) for (const span of ss.spans ?? []) spans.push({ ...span, service });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return { server, spans, paths };
}

/** Starts the fixture service and resolves with its port once it listens. */
async function startService(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [FIXTURE], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.setEncoding('utf8');
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (part: string) => {
      out += part;
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`fixture exited with ${code}: ${out}`)));
  });
  return { child, port };
}

async function until<T>(read: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('tracing', () => {
  const receiver = startReceiver();
  const children: ChildProcess[] = [];
  let endpoint: string;

  beforeAll(async () => {
    receiver.server.listen(0, '127.0.0.1');
    await once(receiver.server, 'listening');
    endpoint = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => (child.exitCode === null ? once(child, 'exit') : undefined)));
    receiver.server.close();
  });

  it('is off, loading nothing, when no OTLP endpoint is configured', async () => {
    expect(await startTracing('nothing', {})).toBeUndefined();
  });

  it(
    'traces a request through service A and its internal call to service B as one trace',
    { timeout: 30_000 },
    async () => {
      const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: '50' };
      const b = await startService({ ...otel, FIXTURE_SERVICE: 'service-b' });
      children.push(b.child);
      const a = await startService({
        ...otel,
        FIXTURE_SERVICE: 'service-a',
        UPSTREAM_URL: `http://127.0.0.1:${b.port}`,
      });
      children.push(a.child);

      const response = await fetch(`http://127.0.0.1:${a.port}/api/hop/abc-123`);
      expect(await response.json()).toEqual({ service: 'a', upstream: { id: 'abc-123' } });

      const serverOf = (service: string) =>
        receiver.spans.find((s) => s.service === service && s.kind === SPAN_KIND_SERVER);
      const [serverA, serverB] = await until(() => {
        const pair = [serverOf('service-a'), serverOf('service-b')];
        return pair[0] && pair[1] ? (pair as [ReceivedSpan, ReceivedSpan]) : undefined;
      });
      const clientA = receiver.spans.find((s) => s.service === 'service-a' && s.kind === SPAN_KIND_CLIENT);

      expect(receiver.paths.every((p) => p === '/v1/traces')).toBe(true);
      // One trace: B's server span is the child of A's outgoing call, which is the child of A's server span.
      expect(serverB.traceId).toBe(serverA.traceId);
      expect(clientA?.traceId).toBe(serverA.traceId);
      expect(clientA?.parentSpanId).toBe(serverA.spanId);
      expect(serverB.parentSpanId).toBe(clientA?.spanId);
      // Named by route pattern, never by the id in the URL.
      expect(serverA.name).toBe('GET /api/hop/:id');
      expect(serverB.name).toBe('GET /internal/hop/:id');
      expect(serverA.attributes).toContainEqual({ key: 'http.route', value: { stringValue: '/api/hop/:id' } });
    },
  );

  // PostgreSQL through postgres.js; PGlite has no spans. `pnpm test:pg` runs it (scripts/run-if-pg.ts).
  it.runIf(process.env.TEST_DB_URL)(
    "adds a span per PostgreSQL query under the request's span, inside transactions too",
    { timeout: 30_000 },
    async () => {
      const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: '50' };
      const d = await startService({
        ...otel,
        FIXTURE_SERVICE: 'service-d',
        FIXTURE_DATABASE_URL: process.env.TEST_DB_URL!,
      });
      children.push(d.child);
      const response = await fetch(`http://127.0.0.1:${d.port}/internal/hop/with-db`);
      expect(await response.json()).toEqual({ id: 'with-db' });
      const query = await until(() => receiver.spans.find((s) => s.service === 'service-d' && s.name === 'SELECT'));
      const server = receiver.spans.find((s) => s.service === 'service-d' && s.kind === SPAN_KIND_SERVER);
      expect(query.kind).toBe(SPAN_KIND_CLIENT);
      expect(query.traceId).toBe(server?.traceId);
      expect(query.parentSpanId).toBe(server?.spanId);
      expect(query.attributes).toContainEqual({ key: 'db.system.name', value: { stringValue: 'postgresql' } });
      // The text is parameterised: the value never leaves the service.
      const text = query.attributes.find((a) => a.key === 'db.query.text')?.value.stringValue ?? '';
      expect(text).toMatch(/select \$1::text as id/);
      expect(text).not.toContain('with-db');
      // The migrations at start ran outside any request: no span of theirs.
      expect(receiver.spans.filter((s) => s.service === 'service-d' && !s.parentSpanId)).toHaveLength(1);
    },
  );

  it('does not trace health probes or metric scrapes', { timeout: 30_000 }, async () => {
    const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: '50' };
    const c = await startService({ ...otel, FIXTURE_SERVICE: 'service-c' });
    children.push(c.child);
    await fetch(`http://127.0.0.1:${c.port}/health`);
    await fetch(`http://127.0.0.1:${c.port}/metrics`);
    await fetch(`http://127.0.0.1:${c.port}/internal/hop/x`);
    const hop = await until(() => receiver.spans.find((s) => s.service === 'service-c'));
    expect(hop.name).toBe('GET /internal/hop/:id');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.spans.filter((s) => s.service === 'service-c')).toHaveLength(1);
  });
});
