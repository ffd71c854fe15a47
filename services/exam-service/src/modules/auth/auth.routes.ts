import { AuthResponseSchema, CredentialsSchema, type User } from '@exam/domain/auth';
import { ErrorBodySchema } from '@exam/domain/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LoginThrottledError, type AuthService } from './auth.service.ts';

export function authRoutes(service: AuthService, opts: { tokenTtl: string }) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const sign = (user: User) =>
      app.jwt.sign({ kind: 'creator', sub: user.id, email: user.email }, { expiresIn: opts.tokenTtl });

    app.post(
      '/api/auth/register',
      {
        schema: {
          tags: ['auth'],
          body: CredentialsSchema,
          response: { 201: AuthResponseSchema, 400: ErrorBodySchema, 409: ErrorBodySchema },
        },
      },
      async (request, reply) => {
        const user = await service.register(request.body);
        return reply.status(201).send({ token: sign(user), user });
      },
    );

    app.post(
      '/api/auth/login',
      {
        schema: {
          tags: ['auth'],
          body: CredentialsSchema,
          response: {
            200: AuthResponseSchema,
            400: ErrorBodySchema,
            401: ErrorBodySchema,
            429: ErrorBodySchema,
          },
        },
      },
      async (request, reply) => {
        try {
          const user = await service.login(request.body, request.ip);
          return { token: sign(user), user };
        } catch (err) {
          if (err instanceof LoginThrottledError) reply.header('retry-after', String(err.retryAfterSeconds));
          throw err;
        }
      },
    );
  };
}
