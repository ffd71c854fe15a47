import { ErrorBodySchema } from '@exam/domain/errors';
import {
  LtiDeepLinkChoiceSchema,
  LtiDeepLinkResponseSchema,
  LtiLaunchSessionSchema,
  LtiLinkAccountResponseSchema,
  LtiTicketSchema,
} from '@exam/domain/lti';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LtiLaunchError } from './id-token.ts';
import { launchErrorPage, parseCookies } from './launch-page.ts';
import type { LaunchService } from './launch.service.ts';

const STATE_COOKIE = 'lti_state_';
const field = z.string().max(10_000).optional();
const LoginParamsSchema = z.looseObject({
  iss: field,
  login_hint: field,
  target_link_uri: field,
  lti_message_hint: field,
  client_id: field,
  lti_deployment_id: field,
});
const LaunchFormSchema = z.looseObject({ id_token: field, state: field, error: field, error_description: field });

const refuse = (reply: FastifyReply, err: unknown) => {
  if (!(err instanceof LtiLaunchError)) throw err;
  return reply.status(err.status).type('text/html; charset=utf-8').send(launchErrorPage(err.message));
};

/**
 * The protocol end of LTI 1.3 (browser-facing /lti/*, answered with redirects and pages) and the creator app's
 * /api/lti/launches and /api/lti/deep-links calls that finish an instructor's launch.
 */
export function launchRoutes(service: LaunchService, opts: { secureCookies: boolean; stateTtlSeconds: number }) {
  return async (fastify: FastifyInstance) => {
    await fastify.register(formbody);
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['lti'];

    /**
     * The state cookie binds the login to this browser. Inside an LMS iframe a browser may block it as a
     * third-party cookie, so the launch checks it only when the browser kept its LTI cookies at all (see
     * ARCHITECTURE.md "LTI"); the single-use state and nonce in the database hold either way.
     */
    const stateCookie = (state: string, maxAge: number) =>
      [
        `${STATE_COOKIE}${state}=1`,
        'Path=/lti/',
        `Max-Age=${maxAge}`,
        'HttpOnly',
        opts.secureCookies ? 'SameSite=None; Secure' : 'SameSite=Lax',
      ].join('; ');

    const login = async (params: z.infer<typeof LoginParamsSchema>, reply: FastifyReply) => {
      try {
        const { redirect, state } = await service.login(params);
        reply.header('set-cookie', stateCookie(state, opts.stateTtlSeconds));
        return await reply.redirect(redirect, 302);
      } catch (err) {
        return refuse(reply, err);
      }
    };
    const loginSchema = {
      tags,
      description: 'OIDC third-party initiated login (LTI Core 1.3 §5.1.1): redirects to the platform.',
      produces: ['text/html'],
    };
    app.get('/lti/login', { schema: { ...loginSchema, querystring: LoginParamsSchema } }, (request, reply) =>
      login(request.query, reply),
    );
    app.post('/lti/login', { schema: { ...loginSchema, body: LoginParamsSchema } }, (request, reply) =>
      login(request.body, reply),
    );

    app.post(
      '/lti/launch',
      {
        schema: {
          tags,
          description:
            "The platform's authentication response (form_post of id_token and state): validated, then an instructor goes on to the creator app, a learner to the exam's briefing. A refusal is a page with the reason.",
          body: LaunchFormSchema,
          produces: ['text/html'],
        },
      },
      async (request, reply) => {
        const { state, id_token: idToken, error, error_description: description } = request.body;
        if (error) return refuse(reply, new LtiLaunchError(`The LMS refused the login: ${description ?? error}`));
        const cookies = parseCookies(request.headers.cookie);
        const kept = [...cookies.keys()].some((name) => name.startsWith(STATE_COOKIE));
        // A browser that kept LTI cookies must hold this state's; one that kept none is not checked (blocked cookies).
        const cookieState = kept ? (state && cookies.has(`${STATE_COOKIE}${state}`) ? state : '') : undefined;
        try {
          const location = await service.launch({ id_token: idToken, state }, cookieState);
          if (state) reply.header('set-cookie', stateCookie(state, 0));
          return await reply.redirect(location, 303);
        } catch (err) {
          return refuse(reply, err);
        }
      },
    );

    app.post(
      '/api/lti/launches/session',
      {
        schema: {
          tags,
          description:
            "Signs in the creator an instructor's LMS account is linked to (with the ticket of their launch), or says that the account must be linked first.",
          body: LtiTicketSchema,
          response: { 200: LtiLaunchSessionSchema, 400: ErrorBodySchema },
        },
      },
      async (request) => service.openSession(request.body.ticket),
    );

    app.post(
      '/api/lti/launches/link',
      {
        onRequest: [app.requireCreator],
        schema: {
          tags,
          description:
            "Links the launch's LMS user to the signed-in creator (only on a platform that creator registered) and spends the ticket.",
          body: LtiTicketSchema,
          response: {
            200: LtiLinkAccountResponseSchema,
            400: ErrorBodySchema,
            401: ErrorBodySchema,
            403: ErrorBodySchema,
            409: ErrorBodySchema,
          },
        },
      },
      async (request) => service.linkAccount(creatorOf(request).sub, request.body.ticket),
    );

    app.post(
      '/api/lti/deep-links',
      {
        onRequest: [app.requireCreator],
        schema: {
          tags,
          description:
            'Answers a deep-linking request with the picked exam: the signed LtiDeepLinkingResponse and where to post it.',
          body: LtiDeepLinkChoiceSchema,
          response: {
            200: LtiDeepLinkResponseSchema,
            400: ErrorBodySchema,
            401: ErrorBodySchema,
            403: ErrorBodySchema,
            404: ErrorBodySchema,
          },
        },
      },
      async (request) => service.respondDeepLink(creatorOf(request).sub, request.body),
    );
  };
}
