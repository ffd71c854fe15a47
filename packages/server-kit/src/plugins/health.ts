import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { lifecycleOf } from '../lifecycle.ts';
import { NotReadyError } from '../not-ready.ts';

/**
 * /health answers while the process runs; /ready only while its dependencies answer too, and never once the
 * process is shutting down (src/run.ts), so routing moves away before the listener closes.
 */
export const healthPlugin = fp(
  async (
    app: FastifyInstance,
    opts: {
      service: string;
      checks: Record<string, () => Promise<void>>;
      /**
       * Dependencies the service can do without for a while (it falls back to another store): a failing one is
       * named under `degraded` in a 200, so an outage of it never takes every replica out of rotation at once.
       */
      degradable?: Record<string, () => Promise<void>>;
    },
  ) => {
    const schema = { hide: true, response: { 200: z.object({ status: z.string(), service: z.string() }) } };
    app.get('/health', { schema, logLevel: 'warn' }, async () => ({ status: 'ok', service: opts.service }));
    app.get(`/api/${opts.service}/health`, { schema }, async () => ({ status: 'ok', service: opts.service }));
    const lifecycle = lifecycleOf(app);
    app.get('/ready', { schema: { hide: true }, logLevel: 'warn' }, async (_request, reply) => {
      if (lifecycle.isDraining) return reply.status(503).send({ status: 'draining', service: opts.service });
      const failures: string[] = [];
      const reasons: Record<string, string> = {};
      await Promise.all(
        Object.entries(opts.checks).map(async ([name, check]) => {
          try {
            await check();
          } catch (err) {
            failures.push(name);
            if (err instanceof NotReadyError) reasons[name] = err.message;
          }
        }),
      );
      if (failures.length) {
        const body = { status: 'unavailable', service: opts.service, failing: failures.sort() };
        return reply.status(503).send(Object.keys(reasons).length ? { ...body, reasons } : body);
      }
      const degraded: string[] = [];
      await Promise.all(
        Object.entries(opts.degradable ?? {}).map(([name, check]) => check().catch(() => degraded.push(name))),
      );
      if (degraded.length) return reply.send({ status: 'degraded', service: opts.service, degraded: degraded.sort() });
      return { status: 'ready', service: opts.service };
    });
  },
);
