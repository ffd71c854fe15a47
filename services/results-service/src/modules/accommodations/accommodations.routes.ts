import {
  OverrideEnvelopeSchema,
  OverrideInputSchema,
  OverrideListSchema,
  OverrideParamsSchema,
} from '@exam/domain/cohort';
import { ErrorBodySchema } from '@exam/domain/errors';
import { actorOf, scopeOf } from '../../access/exam-guard.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { OverridesService } from './overrides.service.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

/** Accommodations: the exam's owner and the members who control the live view; another creator's exam is 404. */
export function accommodationsRoutes(overrides: OverridesService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/api/exams/:id/overrides',
      {
        onRequest: app.requireCreator,
        schema: {
          tags: ['cohort'],
          description: "The exam's per-candidate accommodations, by candidate ID.",
          params: z.object({ id: z.string().min(1).max(64) }),
          response: { 200: OverrideListSchema, ...errors, 502: ErrorBodySchema, 503: ErrorBodySchema },
        },
        preHandler: app.requireCapability('live:control', { exam: 'id' }),
      },
      async (request) => ({ overrides: await overrides.list(request.params.id, scopeOf(request).ownerId) }),
    );

    app.put(
      '/api/exams/:id/overrides/:studentId',
      {
        onRequest: app.requireCreator,
        schema: {
          tags: ['cohort'],
          description:
            "Sets one candidate's accommodation: extra minutes and/or a time factor, a window of their own, more attempts. An omitted field keeps what was set, null clears it. During the candidate's attempt its deadline moves at once (never past their window's close). 400 names the field, also when the window that results closes before it opens.",
          params: OverrideParamsSchema,
          body: OverrideInputSchema,
          response: { 200: OverrideEnvelopeSchema, ...errors, 502: ErrorBodySchema, 503: ErrorBodySchema },
        },
        preHandler: app.requireCapability('live:control', { exam: 'id' }),
      },
      async (request) => ({
        override: await overrides.put(request.params.id, request.params.studentId, request.body, actorOf(request)),
      }),
    );

    app.post(
      '/internal/exams/:id/deadlines',
      {
        onRequest: app.requireInternal,
        schema: {
          hide: true,
          params: z.object({ id: z.string().min(1).max(64) }),
          response: { 200: z.object({ moved: z.number().int() }), 401: ErrorBodySchema, 404: ErrorBodySchema },
        },
      },
      async (request) => ({ moved: await overrides.recomputeDeadlines(request.params.id) }),
    );
  };
}
