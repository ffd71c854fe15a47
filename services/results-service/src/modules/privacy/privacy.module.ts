import type { AppModule } from '../../module-context.ts';
import { createPrivacyRepository } from './privacy.repository.ts';
import { privacyRoutes } from './privacy.routes.ts';
import { createPrivacyService } from './privacy.service.ts';

/** Candidates' data on exam-service's request: find a candidate's attempts, erase them, export them. */
export const privacyModule: AppModule = async (app, { deps }) => {
  await app.register(privacyRoutes(createPrivacyService(createPrivacyRepository(deps.database), deps)));
};
