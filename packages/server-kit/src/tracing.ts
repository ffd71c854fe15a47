import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type * as OpenTelemetryApi from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * OpenTelemetry tracing, off unless `OTEL_EXPORTER_OTLP_ENDPOINT` is set (ARCHITECTURE.md, "Observability").
 *
 * Each service's `src/instrumentation.ts` calls `startTracing` and is the first import of its `server.ts`:
 * ES modules evaluate their imports in order and wait for a top-level await, so the SDK is running before
 * Fastify and the rest load. The SDK (about 30 packages) is imported only when tracing is on, so `pnpm start`
 * without an endpoint pays nothing for it.
 *
 * What is traced: node:http in and out (@opentelemetry/instrumentation-http). Every call between services
 * goes through `internal-client.ts` on node:http, whose requests the instrumentation wraps and stamps with
 * the W3C `traceparent` header; the callee's server span continues that trace, so a chat is one trace across
 * llm-gateway, exam-service and results-service. The provider call (fetch, undici) and PostgreSQL
 * (postgres.js has no instrumentation) are not spans of their own; their time is inside the route's span.
 *
 * The SDK reads the OpenTelemetry variables itself (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_HEADERS`,
 * `OTEL_TRACES_SAMPLER`, `OTEL_BSP_*`, `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`…), as the
 * specification defines them; this is the one place outside a service's config.ts that reads the environment.
 * The exporter speaks OTLP over HTTP with JSON bodies to `<endpoint>/v1/traces`.
 */
export type Tracing = {
  /** Exports the spans still buffered. */
  flush(): Promise<void>;
  /** Flushes and stops the SDK (server.ts's graceful close, through the app's onClose). */
  shutdown(): Promise<void>;
};

let active: Tracing | undefined;
/** Sets the route of the current server span; present only while tracing runs. */
let nameServerSpan: ((route: string) => void) | undefined;
/** The OpenTelemetry API, once tracing runs. */
let otel: typeof OpenTelemetryApi | undefined;

/** Probes and scrapes are not traced: they would be most of the spans and say nothing. */
const UNTRACED_PATHS = new Set(['/health', '/ready', '/metrics']);

export async function startTracing(
  serviceName: string,
  env: Record<string, string | undefined> = process.env,
): Promise<Tracing | undefined> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return undefined;
  if (active) return active;
  const [{ NodeSDK }, { HttpInstrumentation }, { OTLPTraceExporter }, api, { getRPCMetadata, RPCType }] =
    await Promise.all([
      import('@opentelemetry/sdk-node'),
      import('@opentelemetry/instrumentation-http'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/api'),
      import('@opentelemetry/core'),
    ]);
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? serviceName,
    traceExporter: new OTLPTraceExporter(),
    // Traces only: metrics are Prometheus's (plugins/metrics.ts), logs stay pino's lines on stdout.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request: IncomingMessage) =>
          UNTRACED_PATHS.has((request.url ?? '').split('?')[0] ?? ''),
      }),
    ],
  });
  sdk.start();
  const { context, trace } = api;
  // The instrumentation patches node:http and node:https when they are next required. ES modules import
  // them without require, and Node 24 loads the CommonJS packages an ES module imports (Fastify) without
  // Module.prototype.require, so nothing would trigger it: require them here. Both import styles share these
  // module objects, so `http.request(...)` (internal-client.ts) and every server's request events are traced.
  const require = createRequire(import.meta.url);
  require('node:http');
  require('node:https');
  otel = api;
  nameServerSpan = (route) => {
    const metadata = getRPCMetadata(context.active());
    if (metadata?.type === RPCType.HTTP) metadata.route = route;
  };
  const provider = trace.getTracerProvider() as { getDelegate?: () => { forceFlush?: () => Promise<void> } };
  active = {
    flush: async () => provider.getDelegate?.().forceFlush?.(),
    shutdown: async () => {
      active = undefined;
      nameServerSpan = undefined;
      otel = undefined;
      await sdk.shutdown();
    },
  };
  return active;
}

/**
 * Names each server span by its route pattern (`GET /api/attempts/:id`, never the URL with ids): the HTTP
 * instrumentation reads the route from the request's RPC metadata when the span ends. Without tracing
 * (started before the app is built, by src/instrumentation.ts) it adds nothing. Closing the app flushes and
 * stops the SDK.
 */
export const tracingPlugin = fp(
  async (app: FastifyInstance) => {
    const name = nameServerSpan;
    if (!name) return;
    app.addHook('onRequest', async (request) => {
      if (request.routeOptions.url) name(request.routeOptions.url);
    });
    app.addHook('onClose', async () => {
      await active?.shutdown();
    });
  },
  { name: 'tracing' },
);

/** What a postgres.js client offers that drizzle calls: queries, transactions and savepoints. */
type PostgresClient = {
  unsafe: (...args: never[]) => PromiseLike<unknown>;
  begin?: (...args: never[]) => unknown;
  savepoint?: (...args: never[]) => unknown;
};

/**
 * PostgreSQL spans for a postgres.js client (which has no OpenTelemetry instrumentation): each query drizzle
 * sends (`unsafe`, also inside transactions and savepoints) becomes a client span named by its operation, with
 * the parameterised text (never the values). Only queries made inside a traced request get a span, so the
 * jobs' polling and the migrations at start add none. A postgres.js query runs when it is first awaited, so
 * the span starts there. Does nothing unless tracing runs.
 */
export function traceDatabaseClient<C>(client: C): C {
  const api = otel;
  if (!api) return client;
  const tracer = api.trace.getTracer('@exam/server-kit/db');
  const wrap = (sql: PostgresClient) => {
    const unsafe = sql.unsafe.bind(sql) as (query: string, ...rest: unknown[]) => PromiseLike<unknown>;
    sql.unsafe = ((query: string, ...rest: unknown[]) => {
      const pending = unsafe(query, ...rest);
      const parent = api.trace.getSpan(api.context.active());
      if (!parent) return pending;
      const then = pending.then;
      let settled: PromiseLike<unknown> | undefined;
      pending.then = ((onFulfilled, onRejected) => {
        if (!settled) {
          const operation = /^\s*(\w+)/.exec(query)?.[1]?.toUpperCase() ?? 'QUERY';
          const span = tracer.startSpan(operation, {
            kind: api.SpanKind.CLIENT,
            attributes: { 'db.system.name': 'postgresql', 'db.operation.name': operation, 'db.query.text': query },
          });
          settled = then.call(
            pending,
            (value) => {
              span.end();
              return value;
            },
            (err: unknown) => {
              span.recordException(err as Error);
              span.setStatus({ code: api.SpanStatusCode.ERROR });
              span.end();
              throw err;
            },
          );
        }
        return settled.then(onFulfilled, onRejected);
      }) as typeof pending.then;
      return pending;
    }) as PostgresClient['unsafe'];
    // A transaction or savepoint runs its callback with a client of its own: trace that one too.
    for (const method of ['begin', 'savepoint'] as const) {
      const original = sql[method];
      if (!original) continue;
      sql[method] = ((...args: unknown[]) => {
        const last = args.length - 1;
        const callback = args[last];
        if (typeof callback === 'function')
          args[last] = (inner: PostgresClient) => (callback as (c: PostgresClient) => unknown)(wrap(inner));
        return (original as (...a: unknown[]) => unknown).apply(sql, args);
      }) as PostgresClient[typeof method];
    }
    return sql;
  };
  return wrap(client as PostgresClient) as C;
}
