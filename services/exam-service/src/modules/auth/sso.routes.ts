import { ErrorBodySchema } from '@exam/domain/errors';
import {
  SsoSessionRequestSchema,
  SsoSessionResponseSchema,
  SsoStartResponseSchema,
  SsoStartSchema,
} from '@exam/domain/organizations';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { CreatorSignIn } from './creator-sign-in.ts';
import { SSO_STATE_TTL_MS, type SsoService } from './sso.service.ts';

/** Binds a sign-in to the browser that started it; sent back only to the callback (a top-level GET: SameSite=Lax). */
export const SSO_STATE_COOKIE = 'exam_sso_state';

const CallbackQuerySchema = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2000).optional(),
  iss: z.string().max(500).optional(),
});

const cookieValue = (header: string | undefined, name: string): string | undefined => {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
};

export function ssoRoutes(service: SsoService, signIn: CreatorSignIn, opts: { secureCookies: boolean }) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['auth'];
    const cookie = (value: string, maxAgeSeconds: number) =>
      [
        `${SSO_STATE_COOKIE}=${encodeURIComponent(value)}`,
        'Path=/api/auth/sso/',
        `Max-Age=${maxAgeSeconds}`,
        'HttpOnly',
        'SameSite=Lax',
        ...(opts.secureCookies ? ['Secure'] : []),
      ].join('; ');

    app.post(
      '/api/auth/sso/start',
      {
        schema: {
          tags,
          description:
            "Starts a sign-in through the organization's OpenID Connect provider, found by the e-mail's domain or by the organization: answers the provider's authorization URL to send the browser to.",
          body: SsoStartSchema,
          response: { 200: SsoStartResponseSchema, 400: ErrorBodySchema, 404: ErrorBodySchema, 502: ErrorBodySchema },
        },
      },
      async (request, reply) => {
        const { authorizationUrl, state } = await service.start(request.body);
        reply.header('set-cookie', cookie(state, SSO_STATE_TTL_MS / 1000));
        return { authorizationUrl };
      },
    );

    app.get(
      '/api/auth/sso/callback',
      {
        schema: {
          tags,
          description:
            "The provider's redirect back (authorization code): verified, then the browser goes to the creator app's /sso-callback with a one-time ticket, or with the reason it failed, in the URL fragment.",
          querystring: CallbackQuerySchema,
          produces: ['text/html'],
        },
      },
      async (request, reply) => {
        const location = await service.callback(
          request.query,
          cookieValue(request.headers.cookie, SSO_STATE_COOKIE),
          request.log,
        );
        reply.header('set-cookie', cookie('', 0));
        reply.header('cache-control', 'no-store');
        return reply.redirect(location, 303);
      },
    );

    app.post(
      '/api/auth/sso/session',
      {
        schema: {
          tags,
          description: 'Exchanges the one-time ticket of a finished single sign-on for a creator session.',
          body: SsoSessionRequestSchema,
          response: { 200: SsoSessionResponseSchema, 400: ErrorBodySchema },
        },
      },
      async (request) => signIn(await service.redeemTicket(request.body.ticket)),
    );
  };
}
