import type { FastifyInstance } from 'fastify';

/** The routes whose reply is a server-sent event stream (modules/chat/chat.routes.ts). */
export const STREAMING_ROUTES = ['/api/llm/chat', '/api/llm/test-chat'] as const;

/**
 * llm-gateway's own gauges beside server-kit's request metrics (plugins/metrics.ts). A chat request stays
 * in flight until its stream ends or the browser goes away, so the streams open on this replica are the
 * in-flight requests of the streaming routes (the few milliseconds of checks before the first event included).
 */
export function registerServiceMetrics(app: FastifyInstance) {
  app.metrics.gauge({
    name: 'llm_gateway_active_streams',
    help: 'Assistant replies being streamed by this replica, by route',
    labelNames: ['route'],
    cached: false,
    collect: () => STREAMING_ROUTES.map((route) => ({ labels: { route }, value: app.metrics.inFlight(route) })),
  });
}
