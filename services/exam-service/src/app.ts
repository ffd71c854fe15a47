import { schemaCheck } from '@exam/server-kit/db';
import { createBaseApp } from '@exam/server-kit/base-app';
import { createMailer } from '@exam/server-kit/mail';
import { join } from 'node:path';
import { createIsolatedRunner } from './adapters/isolated-worker.ts';
import type { Config } from './config.ts';
import type { Deps, SubmittedCandidates } from './deps.ts';
import { createAuthRepository } from './modules/auth/auth.repository.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { createPasswordResetRepository } from './modules/auth/password-reset.repository.ts';
import { createPasswordResetService } from './modules/auth/password-reset.service.ts';
import { createPasswordStrength } from './modules/auth/password-strength.ts';
import { createSessionsRepository } from './modules/auth/sessions.repository.ts';
import { bankRoutes } from './modules/bank/bank.routes.ts';
import { createBankRepository } from './modules/bank/bank.repository.ts';
import { createBankService } from './modules/bank/bank.service.ts';
import { createExamsRepository } from './modules/exams/exams.repository.ts';
import { examsRoutes } from './modules/exams/exams.routes.ts';
import { createExamsService } from './modules/exams/exams.service.ts';
import { interchangeRoutes } from './modules/interchange/interchange.routes.ts';
import { createInterchangeService } from './modules/interchange/interchange.service.ts';
import { createLtiEgress } from './adapters/lti-egress.ts';
import { createMembershipsClient } from './adapters/lti-nrps.ts';
import { createScorePublisher } from './adapters/lti-ags.ts';
import { createServiceTokens } from './adapters/lti-service-token.ts';
import { createAdvantageRepository } from './modules/lti/advantage.repository.ts';
import { advantageRoutes } from './modules/lti/advantage.routes.ts';
import { jwksRoutes } from './modules/lti/jwks.routes.ts';
import { createLmsRosterService } from './modules/lti/lms-roster.service.ts';
import { createLtiScoresService } from './modules/lti/lti-scores.service.ts';
import { creatorSignIn } from './modules/auth/creator-sign-in.ts';
import { createLaunchRepository } from './modules/lti/launch.repository.ts';
import { launchRoutes } from './modules/lti/launch.routes.ts';
import { createLaunchService } from './modules/lti/launch.service.ts';
import { createPlatformKeys } from './modules/lti/platform-keys.ts';
import { createPlatformsRepository } from './modules/lti/platforms.repository.ts';
import { platformsRoutes } from './modules/lti/platforms.routes.ts';
import { createPlatformsService } from './modules/lti/platforms.service.ts';
import { toolConfiguration } from './modules/lti/tool-configuration.ts';
import { createToolKeys, type ToolKeys } from './modules/lti/tool-keys.ts';
import { internalRoutes } from './modules/internal/internal.routes.ts';
import { createInternalService } from './modules/internal/internal.service.ts';
import { createMailQueue, type MailQueue } from './adapters/mail/mail-queue.service.ts';
import { createAdmissionService } from './modules/roster/admission.service.ts';
import { createNoticesService } from './modules/roster/notices.service.ts';
import { createRosterRepository } from './modules/roster/roster.repository.ts';
import { rosterRoutes } from './modules/roster/roster.routes.ts';
import { createRosterService } from './modules/roster/roster.service.ts';
import { createMaterialsRepository } from './modules/materials/materials.repository.ts';
import { materialsRoutes } from './modules/materials/materials.routes.ts';
import { createMaterialsService } from './modules/materials/materials.service.ts';
import { registerServiceMetrics } from './plugins/service-metrics.ts';
import { createPreviewTokens } from './modules/preview/preview-token.ts';
import { previewRoutes } from './modules/preview/preview.routes.ts';
import { createPreviewService } from './modules/preview/preview.service.ts';
import { publicRoutes } from './modules/public/public.routes.ts';
import { createPublicService } from './modules/public/public.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The outgoing mail queue; server.ts runs its sender (jobs/mail-sender.ts), tests call sendDue directly. */
    mailQueue: MailQueue;
    /** One pass of the roster reminders; server.ts runs it on an interval (jobs/reminders.ts). */
    sendReminders: () => Promise<number>;
    /** The tool's LTI signing keys, one per registration (modules/lti/tool-keys.ts), for everything that signs as the tool. */
    ltiToolKeys: ToolKeys;
  }
}

/** exp and iat of a platform's id_token may be off by this much (the two clocks differ a little). */
const LTI_CLOCK_TOLERANCE_SECONDS = 30;

/** Without a results-service (a test that does not need one), nobody counts as submitted. */
const noSubmissions: SubmittedCandidates = { submittedCandidateKeys: async () => [] };

export async function buildApp(config: Config, deps: Deps) {
  const authRepository = createAuthRepository(deps.database);
  const sessionsRepository = createSessionsRepository(deps.database);
  const strength = createPasswordStrength({ timeoutMs: config.PASSWORD_STRENGTH_TIMEOUT_MS });
  const authService = createAuthService(
    authRepository,
    sessionsRepository,
    { ...deps, strength },
    {
      scryptCost: config.SCRYPT_COST,
      maxFailures: config.LOGIN_MAX_FAILURES,
      windowSeconds: config.LOGIN_WINDOW_SECONDS,
      accountFreeFailures: config.LOGIN_ACCOUNT_FREE_FAILURES,
      accountBaseDelaySeconds: config.LOGIN_ACCOUNT_BACKOFF_SECONDS,
      accountMaxDelaySeconds: config.LOGIN_ACCOUNT_BACKOFF_MAX_SECONDS,
    },
  );

  const app = await createBaseApp({
    service: 'exam-service',
    logLevel: config.LOG_LEVEL,
    trustedProxies: config.TRUSTED_PROXIES,
    metrics: { token: config.METRICS_TOKEN, cacheMs: config.METRICS_CACHE_MS },
    apiDocs: config.API_DOCS,
    jwtSecret: config.jwtSecret,
    internalToken: config.internalToken,
    // This service owns the sessions: its guards read the table directly.
    creatorSessions: (claims) => authService.isSessionOpen({ userId: claims.sub, sessionId: claims.sid }),
    checks: { database: () => deps.database.ping(), migrations: schemaCheck(deps.database) },
  });
  registerServiceMetrics(app, deps.database);

  const mailer =
    deps.mailer ??
    createMailer({
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM,
      outboxDir: join(config.DATA_DIR, 'outbox'),
      log: app.log,
    });
  const mailQueue = createMailQueue(deps.database, { ...deps, mailer }, app.log, {
    maxAttempts: config.MAIL_MAX_ATTEMPTS,
    baseDelayMs: config.MAIL_RETRY_BASE_SECONDS * 1000,
    maxDelayMs: config.MAIL_RETRY_MAX_SECONDS * 1000,
  });
  app.decorate('mailQueue', mailQueue);
  const passwordReset = createPasswordResetService(
    createPasswordResetRepository(deps.database),
    authRepository,
    sessionsRepository,
    { clock: deps.clock, mail: mailQueue, strength },
    app.log,
    {
      scryptCost: config.SCRYPT_COST,
      ttlMinutes: config.PASSWORD_RESET_TTL_MINUTES,
      maxPerAccount: config.PASSWORD_RESET_MAX_PER_ACCOUNT,
      maxPerAddress: config.PASSWORD_RESET_MAX_PER_ADDRESS,
      windowSeconds: config.PASSWORD_RESET_WINDOW_SECONDS,
      creatorOrigin: config.CREATOR_ORIGIN,
    },
  );
  app.addHook('onClose', async () => {
    await passwordReset.drain();
    mailer.close();
    await strength.close();
  });
  await app.register(authRoutes(authService, passwordReset, { tokenTtl: config.CREATOR_TOKEN_TTL }));

  const examsRepository = createExamsRepository(deps.database);
  const materialsRepository = createMaterialsRepository(deps.database);
  const examsService = createExamsService(examsRepository, materialsRepository, deps, {
    encryptionKey: config.encryptionKey,
    scryptCost: config.SCRYPT_COST,
    log: app.log,
  });
  // Uploaded files are parsed in worker threads with heap and time limits (ARCHITECTURE.md "Reading uploaded files").
  const isolated = createIsolatedRunner({
    timeoutMs: config.PARSE_TIMEOUT_SECONDS * 1000,
    maxHeapMb: config.PARSE_MAX_HEAP_MB,
    concurrency: config.PARSE_CONCURRENCY,
  });
  app.addHook('onClose', () => isolated.close());
  const zipLimits = { maxUnzippedBytes: config.IMPORT_MAX_UNZIPPED_BYTES, maxEntries: config.IMPORT_MAX_ZIP_ENTRIES };
  // Before the exams routes, so /api/exams/import is never read as an exam id.
  await app.register(interchangeRoutes(createInterchangeService(examsService, deps, { zipLimits, isolated })));
  await app.register(examsRoutes(examsService));
  await app.register(bankRoutes(createBankService(createBankRepository(deps.database), examsService, deps)));
  await app.register(
    materialsRoutes(
      createMaterialsService(
        materialsRepository,
        deps,
        {
          maxTextChars: config.MATERIAL_MAX_TEXT_CHARS,
          maxDecompressedBytes: config.MATERIAL_MAX_DECOMPRESSED_BYTES,
        },
        isolated,
      ),
      { maxBytes: config.MATERIAL_MAX_BYTES },
    ),
  );
  const candidateView = { defaultProviderKeys: config.defaultProviderKeys };
  await app.register(publicRoutes(createPublicService(examsRepository, materialsRepository, candidateView)));
  const previewTokens = createPreviewTokens({
    jwtSecret: config.jwtSecret,
    ttlSeconds: config.PREVIEW_TOKEN_TTL_SECONDS,
    clock: deps.clock,
  });
  await app.register(
    previewRoutes(
      createPreviewService(examsRepository, materialsRepository, previewTokens, candidateView, (ref) =>
        authService.isSessionOpen(ref),
      ),
      previewTokens,
    ),
  );
  await app.register(internalRoutes(createInternalService(examsRepository, materialsRepository, deps.clock)));

  const rosterRepository = createRosterRepository(deps.database);
  const mailDeps = { ...deps, mail: mailQueue };
  const notices = createNoticesService(
    rosterRepository,
    examsRepository,
    { ...mailDeps, submissions: deps.submissions ?? noSubmissions },
    { takerOrigin: config.TAKER_ORIGIN, reminderHours: config.REMINDER_HOURS_BEFORE_CLOSE },
  );
  app.decorate('sendReminders', () => notices.sendReminders());
  await app.register(
    rosterRoutes(
      createRosterService(rosterRepository, examsRepository, mailDeps, { takerOrigin: config.TAKER_ORIGIN }),
      createAdmissionService(rosterRepository, examsRepository),
      notices,
    ),
  );

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
      exams: examsRepository,
      auth: authRepository,
    },
    {
      ...deps,
      toolKeys: ltiToolKeys,
      signIn: creatorSignIn(app, authService, { tokenTtl: config.CREATOR_TOKEN_TTL }),
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

  // LTI Advantage services (AGS score passback, NRPS roster import) call the LMS with tokens got by an assertion
  // signed with the registration's own key.
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
        rosterRepository,
        examsRepository,
        createMembershipsClient(serviceTokens, upstream),
        deps,
      ),
    ),
  );

  return app;
}
