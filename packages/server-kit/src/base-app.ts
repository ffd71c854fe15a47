import { createServer } from './create-server.ts';
import { authPlugin, type CreatorSessionCheck } from './plugins/auth.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { healthPlugin } from './plugins/health.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import type { ApiDocsMode } from './config.ts';
import { openapiPlugin } from './plugins/openapi.ts';
import { statusPlugin } from './plugins/status.ts';
import type { StatusItem } from '@exam/domain/service-status';
import { tracingPlugin } from './tracing.ts';

export type BaseAppOptions = {
  service: string;
  logLevel: string;
  jwtSecret: string;
  internalToken: string;
  /** Whether a creator token's session is still open: exam-service's table, or a call to exam-service. */
  creatorSessions: CreatorSessionCheck;
  bodyLimit?: number;
  /** TRUSTED_PROXIES: whose X-Forwarded-For is believed. */
  trustedProxies?: string[];
  /** Readiness checks (the database ping, a Docker engine…). */
  checks: Record<string, () => Promise<void>>;
  /** Checks that report a fallback in use without failing readiness (plugins/health.ts). */
  degradable?: Record<string, () => Promise<void>>;
  /** GET /metrics: METRICS_TOKEN (a bearer token the scrape must send) and METRICS_CACHE_MS. */
  metrics?: { token?: string | undefined; cacheMs?: number | undefined };
  /** API_DOCS: who is served the OpenAPI document and its UI (plugins/openapi.ts); public when unset. */
  apiDocs?: ApiDocsMode;
  /** What GET /internal/status adds to the checks (engines, images, providers, queues), for the admin status page. */
  status?: () => Promise<StatusItem[]>;
};

/**
 * The plugins every service registers, in a fixed order: errors first so every later failure is
 * mapped, then metrics and tracing (their hooks see every later route), the OpenAPI collector (it must see every
 * route), auth guards, health.
 */
export async function createBaseApp(opts: BaseAppOptions) {
  const app = createServer({ logLevel: opts.logLevel, bodyLimit: opts.bodyLimit, trustedProxies: opts.trustedProxies });
  await app.register(errorsPlugin);
  await app.register(metricsPlugin, {
    service: opts.service,
    token: opts.metrics?.token,
    cacheMs: opts.metrics?.cacheMs,
  });
  await app.register(tracingPlugin);
  await app.register(openapiPlugin, { service: opts.service, docs: opts.apiDocs ?? 'public' });
  await app.register(authPlugin, {
    jwtSecret: opts.jwtSecret,
    internalToken: opts.internalToken,
    creatorSessions: opts.creatorSessions,
  });
  await app.register(healthPlugin, {
    service: opts.service,
    checks: opts.checks,
    ...(opts.degradable ? { degradable: opts.degradable } : {}),
  });
  await app.register(statusPlugin, {
    service: opts.service,
    checks: opts.checks,
    ...(opts.degradable ? { degradable: opts.degradable } : {}),
    ...(opts.status ? { items: opts.status } : {}),
  });
  return app;
}
