import type { AppModule } from '../../module-context.ts';
import { internalRoutes } from './internal.routes.ts';
import { createInternalService } from './internal.service.ts';

/** The API the other services call (server-kit's internal token). */
export const internalModule: AppModule = async (app, { deps, use }) => {
  await app.register(
    internalRoutes(createInternalService(use('examsRepository'), use('materialsRepository'), deps.clock)),
  );
};
