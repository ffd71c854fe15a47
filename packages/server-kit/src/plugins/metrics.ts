import { timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, ErrorCode } from '@exam/domain/errors';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Prometheus metrics of one process (prom-client), served at `GET /metrics` in the text exposition format.
 *
 * Every replica is scraped on its own and keeps only its own counters; Prometheus sums or maxes across
 * replicas at query time. Nothing here is shared between processes. Gauges read from the database
 * (queue depths, workspace counts) are the same on every replica: aggregate them with `max`, not `sum`.
 *
 * `/metrics` is not under `/api`, so the web servers never proxy it (packages/web-server proxies `/api/*`
 * only); with `METRICS_TOKEN` set it also wants `Authorization: Bearer <token>`.
 */
export type MetricsOptions = {
  service: string;
  /** METRICS_TOKEN: when set, a scrape must send it as a bearer token. */
  token?: string | undefined;
  /** How long a database-backed gauge's value is reused, so a scrape storm costs one query per window. */
  cacheMs?: number | undefined;
};

export type GaugeSample = { labels?: Record<string, string>; value: number };

export type GaugeDefinition = {
  name: string;
  help: string;
  labelNames?: readonly string[];
  /** Read at scrape time: a number, or one sample per label set. */
  collect: () => number | GaugeSample[] | Promise<number | GaugeSample[]>;
  /** Cache the collected value (database counts); in-memory counters pass false. Default true. */
  cached?: boolean;
};

export type Metrics = {
  registry: Registry;
  /** A gauge whose value is read at scrape time; failures keep the last value and are logged. */
  gauge(def: GaugeDefinition): void;
  /** Requests of this route (its pattern, e.g. `/api/llm/chat`) still being answered or streamed. */
  inFlight(route: string): number;
};

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

/** Seconds; the default buckets of prom-client plus the long tail of streamed replies. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Route label of a request that matched no route: one value, so probing random URLs adds no series. */
const UNMATCHED = 'unmatched';

// Node's default metrics (CPU, memory, event loop lag, GC, handles) describe the process, not an app: one
// registry per process, merged into each app's answer, so tests that build many apps register them once.
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? UNMATCHED;
}

/** Memoizes an async read for `ttlMs`; concurrent scrapes share one query. */
function cachedRead<T>(read: () => T | Promise<T>, ttlMs: number): () => Promise<T> {
  let value: Promise<T> | undefined;
  let readAt = 0;
  return () => {
    const now = Date.now();
    if (!value || now - readAt >= ttlMs) {
      readAt = now;
      value = Promise.resolve().then(read);
      // A failed read is not cached: the next scrape tries again.
      value.catch(() => {
        readAt = 0;
      });
    }
    return value;
  };
}

export const metricsPlugin = fp(
  async (app: FastifyInstance, opts: MetricsOptions) => {
    const registry = new Registry();
    const cacheMs = opts.cacheMs ?? 5000;

    const duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from receiving a request to the end of its response (a streamed reply counts until it ends), by route pattern and status class',
      labelNames: ['method', 'route', 'status_class'],
      buckets: DURATION_BUCKETS,
      registers: [registry],
    });
    const open = new Map<string, number>();
    new Gauge({
      name: 'http_requests_in_flight',
      help: 'Requests being answered (or streamed) now, by route pattern',
      labelNames: ['route'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [route, count] of open) if (count > 0) this.set({ route }, count);
      },
    });

    // Measured on the raw response's close, not onResponse: hijacked replies (server-sent events) skip
    // Fastify's hooks, and a client that goes away mid-stream still ends the measurement.
    app.addHook('onRequest', async (request, reply) => {
      const started = process.hrtime.bigint();
      const route = routeOf(request);
      open.set(route, (open.get(route) ?? 0) + 1);
      const raw: ServerResponse = reply.raw;
      raw.once('close', () => {
        open.set(route, (open.get(route) ?? 1) - 1);
        const status = raw.headersSent ? raw.statusCode : 499;
        duration.observe(
          { method: request.method, route, status_class: `${Math.floor(status / 100)}xx` },
          Number(process.hrtime.bigint() - started) / 1e9,
        );
      });
    });

    const metrics: Metrics = {
      registry,
      gauge(def) {
        const read = def.cached === false ? def.collect : cachedRead(def.collect, cacheMs);
        new Gauge({
          name: def.name,
          help: def.help,
          labelNames: def.labelNames ?? [],
          registers: [registry],
          async collect() {
            let value: number | GaugeSample[];
            try {
              value = await read();
            } catch (err) {
              app.log.warn({ err, metric: def.name }, 'metric could not be collected; the last value is kept');
              return;
            }
            if (typeof value === 'number') {
              this.set(value);
              return;
            }
            this.reset();
            for (const sample of value) this.set(sample.labels ?? {}, sample.value);
          },
        });
      },
      inFlight: (route) => open.get(route) ?? 0,
    };
    app.decorate('metrics', metrics);

    app.get('/metrics', { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
      if (opts.token) {
        const header = request.headers.authorization ?? '';
        const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
        if (!sameToken(given, opts.token)) {
          reply.header('www-authenticate', 'Bearer');
          throw new AppError(ErrorCode.UNAUTHENTICATED, 'A scrape of /metrics needs the METRICS_TOKEN bearer token');
        }
      }
      const merged = Registry.merge([processMetrics(), registry]);
      merged.setDefaultLabels({ service: opts.service });
      reply.header('content-type', merged.contentType);
      return merged.metrics();
    });
  },
  { name: 'metrics' },
);
