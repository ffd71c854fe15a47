import { ErrorBodySchema } from '@exam/domain/errors';
import { DeletedSchema } from '@exam/domain/exam';
import {
  LtiPlatformEnvelopeSchema,
  LtiPlatformInputSchema,
  LtiPlatformListSchema,
  LtiPlatformParamsSchema,
  LtiToolConfigurationSchema,
  type LtiToolConfiguration,
} from '@exam/domain/lti';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { PlatformsService } from './platforms.service.ts';

const errors = { 401: ErrorBodySchema, 403: ErrorBodySchema };

/** The creator's LMS registrations and the tool configuration they enter in the LMS. Creator-only, owner-scoped. */
export function platformsRoutes(service: PlatformsService, toolConfiguration: LtiToolConfiguration) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const guarded = { onRequest: [app.requireCreator] };
    const tags = ['lti'];

    app.get(
      '/api/lti/tool-configuration',
      {
        ...guarded,
        schema: {
          tags,
          description: 'The URLs an LMS administrator enters when registering this tool.',
          response: { 200: LtiToolConfigurationSchema, ...errors },
        },
      },
      async () => toolConfiguration,
    );

    app.get(
      '/api/lti/platforms',
      { ...guarded, schema: { tags, response: { 200: LtiPlatformListSchema, ...errors } } },
      async (request) => ({ platforms: await service.list(creatorOf(request).sub) }),
    );

    app.post(
      '/api/lti/platforms',
      {
        ...guarded,
        schema: {
          tags,
          body: LtiPlatformInputSchema,
          response: { 201: LtiPlatformEnvelopeSchema, 400: ErrorBodySchema, 409: ErrorBodySchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send({ platform: await service.create(creatorOf(request).sub, request.body) }),
    );

    app.get(
      '/api/lti/platforms/:id',
      {
        ...guarded,
        schema: {
          tags,
          params: LtiPlatformParamsSchema,
          response: { 200: LtiPlatformEnvelopeSchema, 400: ErrorBodySchema, 404: ErrorBodySchema, ...errors },
        },
      },
      async (request) => ({ platform: await service.get(creatorOf(request).sub, request.params.id) }),
    );

    app.put(
      '/api/lti/platforms/:id',
      {
        ...guarded,
        schema: {
          tags,
          params: LtiPlatformParamsSchema,
          body: LtiPlatformInputSchema,
          response: {
            200: LtiPlatformEnvelopeSchema,
            400: ErrorBodySchema,
            404: ErrorBodySchema,
            409: ErrorBodySchema,
            ...errors,
          },
        },
      },
      async (request) => ({
        platform: await service.update(creatorOf(request).sub, request.params.id, request.body),
      }),
    );

    app.delete(
      '/api/lti/platforms/:id',
      {
        ...guarded,
        schema: {
          tags,
          params: LtiPlatformParamsSchema,
          response: { 200: DeletedSchema, 400: ErrorBodySchema, 404: ErrorBodySchema, ...errors },
        },
      },
      async (request) => {
        await service.remove(creatorOf(request).sub, request.params.id);
        return { id: request.params.id };
      },
    );
  };
}
