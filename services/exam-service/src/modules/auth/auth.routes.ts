import {
  AuthMessages,
  AuthResponseSchema,
  CredentialsSchema,
  LoginSchema,
  PasswordChangeSchema,
  AuthNoticeSchema,
  PasswordResetConfirmSchema,
  PasswordResetRequestSchema,
} from '@exam/domain/auth';
import { AppError, ErrorBodySchema, ErrorCode } from '@exam/domain/errors';
import { InternalCreatorSessionSchema } from '@exam/domain/internal';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { creatorSignIn } from './creator-sign-in.ts';
import { LoginThrottledError, type AuthService, type SessionRef } from './auth.service.ts';
import { ResetThrottledError, type PasswordResetService } from './password-reset.service.ts';

const sessionOf = (request: FastifyRequest): SessionRef => {
  const creator = creatorOf(request);
  return { userId: creator.sub, sessionId: creator.sid };
};

export function authRoutes(service: AuthService, reset: PasswordResetService, opts: { tokenTtl: string }) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const signIn = creatorSignIn(app, service, opts);
    const signedIn = { onRequest: [app.requireCreator] };

    app.post(
      '/api/auth/register',
      {
        schema: {
          tags: ['auth'],
          body: CredentialsSchema,
          response: { 201: AuthResponseSchema, 400: ErrorBodySchema, 409: ErrorBodySchema },
        },
      },
      async (request, reply) => reply.status(201).send(await signIn(await service.register(request.body))),
    );

    app.post(
      '/api/auth/login',
      {
        schema: {
          tags: ['auth'],
          body: LoginSchema,
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
          return await signIn(await service.login(request.body, request.ip));
        } catch (err) {
          if (err instanceof LoginThrottledError) reply.header('retry-after', String(err.retryAfterSeconds));
          throw err;
        }
      },
    );

    app.post(
      '/api/auth/logout',
      { ...signedIn, schema: { tags: ['auth'], response: { 200: AuthNoticeSchema, 401: ErrorBodySchema } } },
      async (request) => {
        await service.signOut(sessionOf(request));
        return { message: AuthMessages.signedOut };
      },
    );

    app.post(
      '/api/auth/logout-all',
      { ...signedIn, schema: { tags: ['auth'], response: { 200: AuthNoticeSchema, 401: ErrorBodySchema } } },
      async (request) => {
        await service.signOutEverywhere(sessionOf(request).userId);
        return { message: AuthMessages.signedOutEverywhere };
      },
    );

    app.post(
      '/api/auth/password',
      {
        ...signedIn,
        schema: {
          tags: ['auth'],
          body: PasswordChangeSchema,
          response: { 200: AuthNoticeSchema, 400: ErrorBodySchema, 401: ErrorBodySchema, 429: ErrorBodySchema },
        },
      },
      async (request, reply) => {
        try {
          await service.changePassword(sessionOf(request), request.body, request.ip);
        } catch (err) {
          if (err instanceof LoginThrottledError) reply.header('retry-after', String(err.retryAfterSeconds));
          throw err;
        }
        return { message: AuthMessages.passwordChanged };
      },
    );

    app.post(
      '/api/auth/password-reset',
      {
        schema: {
          tags: ['auth'],
          body: PasswordResetRequestSchema,
          response: { 202: AuthNoticeSchema, 400: ErrorBodySchema, 429: ErrorBodySchema },
        },
      },
      async (request, reply) => {
        try {
          await reset.request(request.body.email, request.ip);
        } catch (err) {
          if (err instanceof ResetThrottledError) reply.header('retry-after', String(err.retryAfterSeconds));
          throw err;
        }
        return reply.status(202).send({ message: AuthMessages.resetAccepted });
      },
    );

    app.post(
      '/api/auth/password-reset/confirm',
      {
        schema: {
          tags: ['auth'],
          body: PasswordResetConfirmSchema,
          response: { 200: AuthNoticeSchema, 400: ErrorBodySchema },
        },
      },
      async (request) => {
        await reset.confirm(request.body);
        return { message: AuthMessages.passwordReset };
      },
    );

    app.get(
      '/internal/creator-sessions/:sid',
      {
        onRequest: [app.requireInternal],
        schema: {
          tags: ['internal'],
          params: z.object({ sid: z.string().min(1).max(200) }),
          response: { 200: InternalCreatorSessionSchema, 401: ErrorBodySchema, 404: ErrorBodySchema },
        },
      },
      async (request) => {
        const userId = await service.findSessionOwner(request.params.sid);
        if (!userId) throw new AppError(ErrorCode.NOT_FOUND, 'No open session');
        return { userId };
      },
    );
  };
}
