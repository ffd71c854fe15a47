import type { AppModule } from '../../module-context.ts';
import { createFollowUpRepository } from './follow-up.repository.ts';
import { followUpRoutes } from './follow-up.routes.ts';
import { createFollowUpService, type FollowUpService } from './follow-up.service.ts';

declare module '../../module-context.ts' {
  interface Provided {
    /** An attempt's follow-up after submit: the timeline lists its questions and answers. */
    followUp: FollowUpService;
  }
}

/** Follow-up questions after submit: generated through llm-gateway, answered by the candidate, marked by the grader. */
export const followUpModule: AppModule = async (app, { config, deps, provide }) => {
  const service = createFollowUpService(createFollowUpRepository(deps.database), deps, app.log, {
    timeoutMs: config.FOLLOW_UP_TIMEOUT_MS,
  });
  provide('followUp', service);
  await app.register(followUpRoutes(service));
};
