import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { lifecycleOf } from '../lifecycle.ts';

/**
 * /health answers while the process runs; /ready only while its dependencies answer too, and never once the
 * process is shutting down (src/run.ts), so routing moves away before the listener closes.
 */
export const healthPlugin = fp(
  async (app: FastifyInstance, opts: { service: string; checks: Record<string, () => Promise<void>> }) => {
    const schema = { hide: true, response: { 200: z.object({ status: z.string(), service: z.string() }) } };
    app.get('/health', { schema, logLevel: 'warn' }, async () => ({ status: 'ok', service: opts.service }));
    app.get(`/api/${opts.service}/health`, { schema }, async () => ({ status: 'ok', service: opts.service }));
    const lifecycle = lifecycleOf(app);
    app.get('/ready', { schema: { hide: true }, logLevel: 'warn' }, async (_request, reply) => {
      if (lifecycle.isDraining) return reply.status(503).send({ status: 'draining', service: opts.service });
      const failures: string[] = [];
      await Promise.all(
        Object.entries(opts.checks).map(async ([name, check]) => {
          try {
            await check();
          } catch {
            failures.push(name);
          }
        }),
      );
      if (failures.length)
        return reply.status(503).send({ status: 'unavailable', service: opts.service, failing: failures });
      return { status: 'ready', service: opts.service };
    });
  },
);
