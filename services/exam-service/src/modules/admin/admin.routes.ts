import { ErrorBodySchema } from '@exam/domain/errors';
import { PlatformStatusSchema } from '@exam/domain/service-status';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AdminService } from './admin.service.ts';

/** The platform administrators' routes (ADMIN_EMAILS). */
export function adminRoutes(service: AdminService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/api/admin/me',
      {
        onRequest: [app.requireCreator],
        schema: {
          tags: ['admin'],
          description:
            'Whether the signed-in creator is a platform administrator (the account menu links the status page).',
          response: { 200: z.object({ admin: z.boolean() }), 401: ErrorBodySchema, 403: ErrorBodySchema },
        },
      },
      async (request) => ({ admin: service.isAdmin(creatorOf(request).email) }),
    );
    app.get(
      '/api/admin/status',
      {
        onRequest: [app.requireCreator],
        schema: {
          tags: ['admin'],
          description:
            "Every service's status for platform administrators (ADMIN_EMAILS): database and migrations, workspace engines, each language's code runner, each workspace type's image, mail delivery and queue, platform provider keys (never the keys). Each service is asked with a 2 s deadline; one that does not answer is listed as not reachable. The operator's detail (sockets, images, scripts) is shown here and nowhere else. 403 for anyone else.",
          response: { 200: PlatformStatusSchema, 401: ErrorBodySchema, 403: ErrorBodySchema },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return service.status(creatorOf(request).email);
      },
    );
  };
}
