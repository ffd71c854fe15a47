import type { AppModule } from '../../module-context.ts';
import { createPrivacyRepository } from './privacy.repository.ts';
import { privacyRoutes } from './privacy.routes.ts';
import { createPrivacyService } from './privacy.service.ts';
import { createResultDeletion } from './result-deletion.ts';
import { resultDeletionRoutes } from './result-deletion.routes.ts';

/**
 * Candidates' data on exam-service's request (find a candidate's attempts, erase them, export them), and an owner's
 * or editor's deletion of one result, which removes the same rows for one attempt.
 */
export const privacyModule: AppModule = async (app, { deps }) => {
  await app.register(privacyRoutes(createPrivacyService(createPrivacyRepository(deps.database), deps)));
  await app.register(resultDeletionRoutes(createResultDeletion(deps), deps));
};
