import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** The OpenAPI document built from the route schemas, at /api/<service>/docs (JSON at .../docs/json). */
export const openapiPlugin = fp(async (app: FastifyInstance, opts: { service: string; version?: string }) => {
  await app.register(swagger, {
    openapi: {
      info: { title: opts.service, version: opts.version ?? '1.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: `/api/${opts.service}/docs` });
});
