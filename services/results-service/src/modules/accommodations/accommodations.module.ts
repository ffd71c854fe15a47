import type { AppModule } from '../../module-context.ts';
import { accommodationsRoutes } from './accommodations.routes.ts';
import { createCohortRepository, type CohortRepository } from './cohort.repository.ts';
import { keepGradeRefresher, type RefreshKeepGrade } from './keep-grade-refresh.ts';
import { createOverridesService } from './overrides.service.ts';

declare module '../../module-context.ts' {
  interface Provided {
    /** Per-candidate overrides and the exam's keepGrade: starts, the briefing and the reports read them. */
    cohort: CohortRepository;
    refreshKeepGrade: RefreshKeepGrade;
  }
}

/** Accommodations: a candidate's own window, time and attempts. */
export const accommodationsModule: AppModule = async (app, { deps, provide }) => {
  const cohort = createCohortRepository(deps.database);
  provide('cohort', cohort);
  provide('refreshKeepGrade', keepGradeRefresher(cohort, deps));
  await app.register(accommodationsRoutes(createOverridesService(cohort, deps)));
};
