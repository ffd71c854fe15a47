import type { StatusItem } from '@exam/domain/service-status';
import type { AppModule } from '../../module-context.ts';
import { createAdminRepository } from './admin.repository.ts';
import { adminRoutes } from './admin.routes.ts';
import { createAdminService } from './admin.service.ts';

/** The platform administrators' status page (docs/product.md#platform-status). */
export const adminModule: AppModule = async (app, { config, deps }) => {
  const service = createAdminService(createAdminRepository(deps.database), {
    adminEmails: config.ADMIN_EMAILS,
    internalToken: config.internalToken,
    sources: [
      { service: 'results-service', baseUrl: config.RESULTS_SERVICE_URL },
      { service: 'llm-gateway', baseUrl: config.LLM_GATEWAY_URL },
      { service: 'workspace-orchestrator', baseUrl: config.WORKSPACE_ORCHESTRATOR_URL },
    ],
    defaultProviderKeys: config.defaultProviderKeys,
    smtp: Boolean(config.SMTP_URL),
    // This service's own checks, exactly as its GET /internal/status answers them to the others.
    ownStatus: async () => {
      const answer = await app.inject({
        method: 'GET',
        url: '/internal/status',
        headers: { 'x-internal-token': config.internalToken },
      });
      return (answer.json() as { items: StatusItem[] }).items;
    },
    clock: deps.clock,
  });
  app.addHook('onClose', async () => service.close());
  await app.register(adminRoutes(service));
};
