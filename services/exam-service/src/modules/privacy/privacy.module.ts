import type { PrivacyServices } from '../../adapters/privacy-services.ts';
import type { AppModule } from '../../module-context.ts';
import { createPrivacyRepository } from './privacy.repository.ts';
import { privacyRoutes } from './privacy.routes.ts';
import { createPrivacyService } from './privacy.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** One pass of the retention and erasure-retry job; server.ts runs it on an interval (jobs/privacy.ts). */
    runPrivacyJob: () => Promise<number>;
  }
}

/** Without the other services (a test that does not need them), every call to them fails: the erasure stays pending. */
const unreachable: PrivacyServices = {
  attempts: async () => [],
  erase: async (service) => Promise.reject(new Error(`${service} is not configured`)),
  export: async (service) => Promise.reject(new Error(`${service} is not configured`)),
};

/** Candidates' data: erasure on request, export, the erasure records, and the retention job's pass. */
export const privacyModule: AppModule = async (app, { config, deps, use }) => {
  const service = createPrivacyService(
    createPrivacyRepository(deps.database),
    use('examsRepository'),
    deps.privacyServices ?? unreachable,
    deps,
    { leaseMs: config.PRIVACY_JOB_INTERVAL_SECONDS * 1000, log: app.log },
  );
  app.decorate('runPrivacyJob', () => service.pass());
  await app.register(privacyRoutes(service));
};
