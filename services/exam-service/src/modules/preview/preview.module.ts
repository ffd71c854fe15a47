import type { AppModule } from '../../module-context.ts';
import { createPreviewTokens } from './preview-token.ts';
import { previewRoutes } from './preview.routes.ts';
import { createPreviewService } from './preview.service.ts';

/** A creator trying their exam as a candidate would see it. */
export const previewModule: AppModule = async (app, { config, deps, use }) => {
  const candidateView = { defaultProviderKeys: config.defaultProviderKeys };
  const previewTokens = createPreviewTokens({
    jwtSecret: config.jwtSecret,
    ttlSeconds: config.PREVIEW_TOKEN_TTL_SECONDS,
    clock: deps.clock,
  });
  const authService = use('authService');
  await app.register(
    previewRoutes(
      createPreviewService(use('examAccess'), use('materialsRepository'), previewTokens, candidateView, (ref) =>
        authService.isSessionOpen(ref),
      ),
      previewTokens,
    ),
  );
};
