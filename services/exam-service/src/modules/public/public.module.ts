import type { AppModule } from '../../module-context.ts';
import { publicRoutes } from './public.routes.ts';
import { createPublicService } from './public.service.ts';

/** The candidate's view of a published exam. */
export const publicModule: AppModule = async (app, { config, use }) => {
  const candidateView = { defaultProviderKeys: config.defaultProviderKeys };
  await app.register(
    publicRoutes(createPublicService(use('examsRepository'), use('materialsRepository'), candidateView)),
  );
};
