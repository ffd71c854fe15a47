import type { AppModule } from '../../module-context.ts';
import { auditRoutes } from './audit.routes.ts';
import { createAuditService } from './audit.service.ts';

/** An exam's audit log as its owner reads it: both services' halves merged (exams/audit-log.repository.ts). */
export const auditModule: AppModule = async (app, { deps, use }) => {
  await app.register(auditRoutes(createAuditService(use('examAccess'), use('auditLog'), deps.resultsAudit, app.log)));
};
