import { ServiceStatusSchema, type StatusItem } from '@exam/domain/service-status';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { NotReadyError } from '../not-ready.ts';

/**
 * GET /internal/status: the service's readiness checks one by one, and what else it knows about its dependencies
 * (engines, images, providers, the mail queue), with the operator's detail. Internal token only: exam-service
 * gathers every service's answer for the platform administrators' status page (GET /api/admin/status).
 */
export const statusPlugin = fp(
  async (
    app: FastifyInstance,
    opts: {
      service: string;
      checks: Record<string, () => Promise<void>>;
      degradable?: Record<string, () => Promise<void>>;
      items?: () => Promise<StatusItem[]>;
    },
  ) => {
    const checked = async (name: string, check: () => Promise<void>, degradable: boolean): Promise<StatusItem> => {
      try {
        await check();
        return { name, state: 'ok', summary: 'Answering' };
      } catch (err) {
        return {
          name,
          state: degradable ? 'degraded' : 'failing',
          summary: degradable ? 'Not answering: a fallback is in use' : 'Not answering',
          detail: err instanceof NotReadyError ? err.message : (err as Error).message,
        };
      }
    };
    app.get(
      '/internal/status',
      {
        onRequest: [app.requireInternal],
        logLevel: 'warn',
        schema: { hide: true, response: { 200: ServiceStatusSchema } },
      },
      async () => {
        const [checks, degradable, items] = await Promise.all([
          Promise.all(Object.entries(opts.checks).map(([name, check]) => checked(name, check, false))),
          Promise.all(Object.entries(opts.degradable ?? {}).map(([name, check]) => checked(name, check, true))),
          opts.items ? opts.items() : Promise.resolve([]),
        ]);
        return { service: opts.service, items: [...checks, ...degradable, ...items] };
      },
    );
  },
);
