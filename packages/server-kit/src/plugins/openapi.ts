import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { ApiDocsMode } from '../config.ts';

/** Service-to-service routes: never in a document, whoever reads it (they live under /internal/ or carry this tag). */
const INTERNAL_TAG = 'internal';
const isInternalRoute = (url: string, tags: unknown) =>
  url.startsWith('/internal/') || (Array.isArray(tags) && tags.includes(INTERNAL_TAG));

/**
 * The OpenAPI document built from the route schemas, at /api/<service>/docs (JSON at .../docs/json). The document
 * is always built (scripts/check-generated.ts commits it) and never lists an internal route; `docs` decides who is
 * served it: everyone, a signed-in creator (a creator bearer token), or nobody (the routes do not exist).
 */
export const openapiPlugin = fp(
  async (app: FastifyInstance, opts: { service: string; version?: string; docs?: ApiDocsMode }) => {
    await app.register(swagger, {
      openapi: {
        info: { title: opts.service, version: opts.version ?? '1.0.0' },
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      },
      hiddenTag: INTERNAL_TAG,
      transform: (input) => {
        const transformed = jsonSchemaTransform(input);
        if (!isInternalRoute(input.url, input.schema?.tags)) return transformed;
        return { ...transformed, schema: { ...transformed.schema, hide: true } };
      },
    });
    const docs = opts.docs ?? 'public';
    if (docs === 'off') return;
    await app.register(swaggerUi, {
      routePrefix: `/api/${opts.service}/docs`,
      // The auth plugin registers after this one; its guard is looked up when a request comes.
      ...(docs === 'signed-in'
        ? {
            uiHooks: {
              onRequest: (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
                app.requireCreator(request, reply).then(() => done(), done);
              },
            },
          }
        : {}),
    });
  },
);
