import type { AppModule } from '../../module-context.ts';
import { createTimelineRepository } from './timeline.repository.ts';
import { timelineRoutes } from './timeline.routes.ts';
import { createTimelineService, type TimelineService } from './timeline.service.ts';

declare module '../../module-context.ts' {
  interface Provided {
    /** One attempt's timeline, as its route serves it: the collaboration profile's process figures read it. */
    timeline: TimelineService;
  }
}

/** One timeline per attempt, for the exam's creator: events, edits, the assistant, tests, workspace, submit and the follow-up. */
export const timelineModule: AppModule = async (app, { deps, provide, use }) => {
  const followUp = use('followUp');
  const service = createTimelineService(createTimelineRepository(deps.database), { ...deps, followUp }, app.log);
  provide('timeline', service);
  await app.register(timelineRoutes(service));
};
