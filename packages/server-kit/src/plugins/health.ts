import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { NotReadyError } from '../not-ready.ts';

/** /health answers while the process runs; /ready only while its dependencies answer too. */
export const healthPlugin = fp(
  async (app: FastifyInstance, opts: { service: string; checks: Record<string, () => Promise<void>> }) => {
    const schema = { hide: true, response: { 200: z.object({ status: z.string(), service: z.string() }) } };
    app.get('/health', { schema, logLevel: 'warn' }, async () => ({ status: 'ok', service: opts.service }));
    app.get(`/api/${opts.service}/health`, { schema }, async () => ({ status: 'ok', service: opts.service }));
    app.get('/ready', { schema: { hide: true }, logLevel: 'warn' }, async (_request, reply) => {
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
      return { status: 'ready', service: opts.service };
    });
  },
);
