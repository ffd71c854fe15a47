import type { AppModule } from '../../module-context.ts';
import { createResultsRepository } from './results.repository.ts';
import { resultsRoutes } from './results.routes.ts';
import { createResultsService, type ResultsService } from './results.service.ts';

declare module '../../module-context.ts' {
  interface Provided {
    /** The results as the creator reads them: grading and the LMS passback answer with them. */
    resultsService: ResultsService;
  }
}

/** A creator's results: reads and exports. */
export const resultsModule: AppModule = async (app, { deps, provide, use }) => {
  // insights sits above results: the CSV reads its columns at request time, once every module is registered.
  const results = createResultsService(
    createResultsRepository(deps.database),
    deps,
    use('refreshKeepGrade'),
    (examId, ownerId, hasRows) => use('insightsCsvColumns')(examId, ownerId, hasRows),
  );
  provide('resultsService', results);
  await app.register(resultsRoutes(results));
};
