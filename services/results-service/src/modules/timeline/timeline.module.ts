import type { AppModule } from '../../module-context.ts';
import { createTimelineRepository } from './timeline.repository.ts';
import { timelineRoutes } from './timeline.routes.ts';
import { createTimelineService } from './timeline.service.ts';

/** One timeline per attempt, for the exam's creator: events, edits, the assistant, tests, workspace and submit. */
export const timelineModule: AppModule = async (app, { deps }) => {
  const service = createTimelineService(createTimelineRepository(deps.database), deps, app.log);
  await app.register(timelineRoutes(service));
};
