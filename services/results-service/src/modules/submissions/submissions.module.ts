import type { AppModule } from '../../module-context.ts';
import { createSubmissionsRepository, type SubmissionsRepository } from './submissions.repository.ts';
import { submissionsRoutes } from './submissions.routes.ts';

declare module '../../module-context.ts' {
  interface Provided {
    /** Who submitted what: grading's release notices read it. */
    submissionsRepository: SubmissionsRepository;
  }
}

/** Which candidates have submitted an exam (exam-service's reminders ask). */
export const submissionsModule: AppModule = async (app, { deps, provide }) => {
  const submissions = createSubmissionsRepository(deps.database);
  provide('submissionsRepository', submissions);
  await app.register(submissionsRoutes(submissions));
};
