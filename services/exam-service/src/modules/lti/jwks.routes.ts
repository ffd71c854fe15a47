import { LtiJwksSchema } from '@exam/domain/lti';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ToolKeys } from './tool-keys.ts';

/**
 * The tool's public keys (1EdTech Security Framework 1.0 §6.3), public and cacheable: platforms fetch it to check
 * deep-linking responses and client assertions. A short max-age keeps a rotation visible within minutes, and a
 * retired key stays in the set for LTI_KEY_GRACE_SECONDS, longer than any cache.
 */
export function jwksRoutes(toolKeys: ToolKeys) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.get('/lti/jwks', { schema: { tags: ['lti'], response: { 200: LtiJwksSchema } } }, async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return toolKeys.jwks();
    });
  };
}
