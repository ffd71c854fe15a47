import { createLtiEgress } from '../../adapters/lti-egress.ts';
import { createScorePublisher } from '../../adapters/lti-ags.ts';
import { createMembershipsClient } from '../../adapters/lti-nrps.ts';
import { createServiceTokens } from '../../adapters/lti-service-token.ts';
import type { AppModule } from '../../module-context.ts';
import { creatorSignIn } from '../auth/creator-sign-in.ts';
import { createAdvantageRepository } from './advantage.repository.ts';
import { advantageRoutes } from './advantage.routes.ts';
import { jwksRoutes } from './jwks.routes.ts';
import { createLaunchRepository } from './launch.repository.ts';
import { launchRoutes } from './launch.routes.ts';
import { createLaunchService } from './launch.service.ts';
import { createLmsRosterService } from './lms-roster.service.ts';
import { createLtiScoresService } from './lti-scores.service.ts';
import { createPlatformKeys } from './platform-keys.ts';
import { createPlatformsRepository } from './platforms.repository.ts';
import { platformsRoutes } from './platforms.routes.ts';
import { createPlatformsService } from './platforms.service.ts';
import { toolConfiguration } from './tool-configuration.ts';
import { createToolKeys, type ToolKeys } from './tool-keys.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The tool's LTI signing keys, one per registration (modules/lti/tool-keys.ts), for everything that signs as the tool. */
    ltiToolKeys: ToolKeys;
  }
}

/** exp and iat of a platform's id_token may be off by this much (the two clocks differ a little). */
const LTI_CLOCK_TOLERANCE_SECONDS = 30;

/** LTI 1.3: registrations, launches, and the Advantage services (AGS score passback, NRPS roster import). */
export const ltiModule: AppModule = async (app, { config, deps, use }) => {
  const examsRepository = use('examsRepository');
  // Every LMS URL (a registration's JWKS and token URLs, a launch's AGS and NRPS URLs) is someone else's input:
  // only https to public addresses unless LTI_ALLOW_LOOPBACK_HTTP (development, tests, the LMS simulator).
  const ltiFetch = createLtiEgress({ allowLocal: config.LTI_ALLOW_LOOPBACK_HTTP }).guard(deps.fetch ?? fetch);
  const ltiToolKeys = createToolKeys(deps.database, {
    encryptionKey: config.encryptionKey,
    clock: deps.clock,
    graceSeconds: config.LTI_KEY_GRACE_SECONDS,
  });
  app.decorate('ltiToolKeys', ltiToolKeys);
  await app.register(jwksRoutes(ltiToolKeys));
  const platformsRepository = createPlatformsRepository(deps.database);
  await app.register(
    platformsRoutes(
      createPlatformsService(
        platformsRepository,
        { ...deps, prepareKey: (platformId) => ltiToolKeys.signingKey(platformId) },
        { allowLoopbackHttp: config.LTI_ALLOW_LOOPBACK_HTTP },
      ),
      toolConfiguration(config.ltiToolOrigin),
    ),
  );
  const launches = createLaunchService(
    {
      platforms: platformsRepository,
      launches: createLaunchRepository(deps.database),
      examAccess: use('examAccess'),
      auth: use('authRepository'),
    },
    {
      ...deps,
      toolKeys: ltiToolKeys,
      signIn: creatorSignIn(app, use('authService'), { tokenTtl: config.CREATOR_TOKEN_TTL }),
      platformKeys: deps.ltiPlatformKeys ?? createPlatformKeys(ltiFetch),
    },
    {
      toolOrigin: config.ltiToolOrigin,
      creatorOrigin: new URL(config.CREATOR_ORIGIN).origin,
      takerOrigin: new URL(config.TAKER_ORIGIN).origin,
      jwtSecret: config.jwtSecret,
      stateTtlSeconds: config.LTI_STATE_TTL_SECONDS,
      ticketTtlSeconds: config.LTI_TICKET_TTL_SECONDS,
      grantTtlSeconds: config.LTI_GRANT_TTL_SECONDS,
      clockToleranceSeconds: LTI_CLOCK_TOLERANCE_SECONDS,
      iatSkewSeconds: config.LTI_IAT_SKEW_SECONDS,
      allowLoopbackHttp: config.LTI_ALLOW_LOOPBACK_HTTP,
    },
  );
  await app.register(
    launchRoutes(launches, {
      secureCookies: config.ltiToolOrigin.startsWith('https:'),
      stateTtlSeconds: config.LTI_STATE_TTL_SECONDS,
    }),
  );

  // AGS and NRPS call the LMS with tokens got by an assertion signed with the registration's own key.
  const serviceTokens = createServiceTokens({
    signingKey: (platformId) => ltiToolKeys.signingKey(platformId),
    clock: deps.clock,
    fetch: ltiFetch,
  });
  const upstream = { fetch: ltiFetch };
  const advantage = createAdvantageRepository(deps.database);
  await app.register(
    advantageRoutes(
      createLtiScoresService(advantage, createScorePublisher(serviceTokens, upstream), app.log),
      createLmsRosterService(
        advantage,
        use('rosterRepository'),
        examsRepository,
        use('examAccess'),
        createMembershipsClient(serviceTokens, upstream),
        deps,
      ),
    ),
  );
};
