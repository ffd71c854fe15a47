import type { AppModule } from '../../module-context.ts';
import { auditEventsRoutes } from './audit-events.routes.ts';
import { internalRoutes } from './internal.routes.ts';

/** The API the other services call (server-kit's internal token). */
export const internalModule: AppModule = async (app, { deps, use }) => {
  await app.register(internalRoutes(use('attemptsService'), deps));
  await app.register(auditEventsRoutes(deps.database));
};
