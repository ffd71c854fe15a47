import { schemaCheck } from '@exam/server-kit/db';
import { createBaseApp } from '@exam/server-kit/base-app';
import { lifecycleOf } from '@exam/server-kit/lifecycle';
import type { Config } from './config.ts';
import type { Deps } from './deps.ts';
import { registerServiceMetrics } from './plugins/service-metrics.ts';
import { auditVersionOf } from './modules/audit/audit-version.ts';
import { createEquivalenceRepository } from './modules/audit/equivalence.repository.ts';
import { equivalenceRoutes } from './modules/audit/equivalence.routes.ts';
import { createEquivalenceService } from './modules/audit/equivalence.service.ts';
import { registerAgentEndpoint } from './modules/agent-endpoint/agent-endpoint.module.ts';
import { createChatRepository } from './modules/chat/chat.repository.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { createAuditRepository } from './modules/audit/audit.repository.ts';
import { createAuditService } from './modules/audit/audit.service.ts';
import { chatRoutes } from './modules/chat/chat.routes.ts';
import { createChatService } from './modules/chat/chat.service.ts';
import { followUpRoutes } from './modules/follow-up/follow-up.routes.ts';
import { createFollowUpGenerator } from './modules/follow-up/generate-follow-ups.ts';
import { gradingRoutes } from './modules/grading/grading.routes.ts';
import { createGradingUsageRepository } from './modules/grading/grading-usage.repository.ts';
import { createCollaborationSuggester } from './modules/grading/suggest-collaboration.ts';
import { createGradingService } from './modules/grading/suggest-marks.ts';
import { registerPrivacy } from './modules/privacy/privacy.module.ts';
import { createSolvabilityRepository } from './modules/solvability/solvability.repository.ts';
import { solvabilityRoutes } from './modules/solvability/solvability.routes.ts';
import { createSolvabilityService } from './modules/solvability/solvability.service.ts';
import { transcriptRoutes } from './modules/transcripts/transcripts.routes.ts';
import { usageRoutes } from './modules/usage/usage.routes.ts';

export async function buildApp(config: Config, deps: Deps) {
  const app = await createBaseApp({
    service: 'llm-gateway',
    logLevel: config.LOG_LEVEL,
    trustedProxies: config.TRUSTED_PROXIES,
    metrics: { token: config.METRICS_TOKEN, cacheMs: config.METRICS_CACHE_MS },
    apiDocs: config.API_DOCS,
    jwtSecret: config.jwtSecret,
    internalToken: config.internalToken,
    creatorSessions: deps.creatorSessions,
    checks: { database: () => deps.database.ping(), migrations: schemaCheck(deps.database) },
  });
  registerServiceMetrics(app);

  const keys = {
    encryptionKey: config.encryptionKey,
    serverKeys: {
      openai: config.OPENAI_API_KEY,
      anthropic: config.ANTHROPIC_API_KEY,
      groq: config.GROQ_API_KEY,
      google: config.GEMINI_API_KEY,
    },
    // Never the key or the ciphertext: only that it could not be read (a different ENCRYPTION_KEY).
    onDecryptFailure: () =>
      app.log.error('the creator API key could not be decrypted; check that ENCRYPTION_KEY matches exam-service'),
  };
  const repo = createChatRepository(deps.database);
  const chatService = createChatService(repo, deps, {
    ...keys,
    historyMessages: config.HISTORY_MESSAGES,
    testChatLimit: {
      messages: config.TEST_CHAT_MESSAGES_PER_WINDOW,
      windowMs: config.TEST_CHAT_WINDOW_MINUTES * 60_000,
    },
  });
  await app.register(
    chatRoutes(chatService, deps.llm, { coalesceMs: config.SSE_COALESCE_MS, streamsEnd: lifecycleOf(app).streamsEnd }),
  );
  // The workspace's agents: their calls are the attempt's transcript of kind `agent` (workspace-agents.ts).
  const agentCalls = await registerAgentEndpoint(app, config, deps, keys);
  await app.register(transcriptRoutes(repo, agentCalls, deps));
  await app.register(usageRoutes(repo, deps));
  const gradingUsage = createGradingUsageRepository(deps.database);
  await app.register(
    gradingRoutes(
      createGradingService(gradingUsage, deps, keys),
      createCollaborationSuggester(gradingUsage, deps, keys),
    ),
  );

  // Follow-up questions after submit spend the same grading and audit budget as suggested marks.
  await app.register(followUpRoutes(createFollowUpGenerator(gradingUsage, deps, keys)));

  const solvability = createSolvabilityService(
    createSolvabilityRepository(deps.database),
    chatService,
    { ...deps, log: app.log },
    {
      defaultMaxCalls: config.SOLVABILITY_MAX_CALLS,
      defaultMaxTokens: config.SOLVABILITY_MAX_TOKENS,
      leaseMs: config.SOLVABILITY_LEASE_MS,
      heartbeatMs: config.SOLVABILITY_HEARTBEAT_MS,
      runWaitMs: config.SOLVABILITY_RUN_WAIT_MS,
      examVersion: auditVersionOf,
    },
  );
  await app.register(solvabilityRoutes(solvability));
  // Runs in progress on this replica are recorded as interrupted before the database closes.
  app.addHook('onClose', () => solvability.close());

  const audit = createAuditService(
    createAuditRepository(deps.database),
    gradingUsage,
    chatService,
    { ...deps, log: app.log },
    {
      defaultMaxTokens: config.AUDIT_MAX_TOKENS,
      leaseMs: config.AUDIT_LEASE_MS,
      heartbeatMs: config.AUDIT_HEARTBEAT_MS,
      resumeIntervalMs: config.AUDIT_RESUME_INTERVAL_MS,
    },
  );
  await app.register(auditRoutes(audit));
  // Every replica resumes audits whose runner stopped (ARCHITECTURE.md "Where state lives"); on close this
  // replica's runs let their leases lapse before the database closes, so a restarted gateway goes on at once.
  if (config.AUDIT_RESUME_INTERVAL_MS > 0) app.addHook('onReady', async () => audit.startResuming());
  app.addHook('onClose', () => audit.close());
  await app.register(equivalenceRoutes(createEquivalenceService(createEquivalenceRepository(deps.database), deps)));
  await registerPrivacy(app, deps);

  return app;
}
