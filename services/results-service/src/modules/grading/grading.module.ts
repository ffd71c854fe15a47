import type { AppModule } from '../../module-context.ts';
import { gradingRoutes } from './grading.routes.ts';
import { createBulkResultsService } from './bulk.service.ts';
import { createGradingService } from './grading.service.ts';
import { createRegradeService } from './regrade.service.ts';
import { createReleaseNotices, type ReleaseNotices } from './release-notices.ts';
import { createResultWritesRepository } from './result-writes.repository.ts';
import { createTestGradingRepository } from './test-grading.repository.ts';
import { createTestGradingService } from './test-grading.service.ts';
import { createChosenLanguagesRepository } from '../attempts/chosen-languages.repository.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** One pass of the test-grading job (jobs/test-grading.ts); server.ts runs it on an interval, tests directly. */
    gradeTests: () => Promise<number>;
    /** Release notices still being handed to exam-service (tests wait for them). */
    releaseNotices: ReleaseNotices;
  }
}

/** Marks, regrades, test grading and releasing results to candidates. */
export const gradingModule: AppModule = async (app, { deps, use }) => {
  const resultWrites = createResultWritesRepository(deps.database);
  const grading = createGradingService(resultWrites, deps);
  const testGrading = createTestGradingService(
    createTestGradingRepository(deps.database),
    deps,
    app.log,
    createChosenLanguagesRepository(deps.database),
  );
  const regrade = createRegradeService(resultWrites, testGrading, deps);
  app.decorate('gradeTests', () => testGrading.gradeTests());
  const releaseNotices = createReleaseNotices(use('submissionsRepository'), deps, app.log);
  app.decorate('releaseNotices', releaseNotices);
  app.addHook('onClose', () => releaseNotices.drain());
  const bulk = createBulkResultsService(resultWrites, deps);
  await app.register(
    gradingRoutes({ results: use('resultsService'), grading, bulk, regrade, releaseNotices, testGrading }),
  );
};
