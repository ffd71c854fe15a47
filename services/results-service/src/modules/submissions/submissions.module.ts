import type { AppModule } from '../../module-context.ts';
import { createProcessWorker } from '../../scoring/process-worker.ts';
import { createProcessRecordsRepository } from './process-records.repository.ts';
import { createProcessRecordsService, type ProcessRecordsService } from './process-records.service.ts';
import { createSubmissionsRepository, type SubmissionsRepository } from './submissions.repository.ts';
import { submissionsRoutes } from './submissions.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * One pass of the process-records job (jobs/process-records.ts), at most `max` results; server.ts runs it on an
     * interval, tests directly.
     */
    computeProcessRecords: (max?: number) => Promise<number>;
    /** The process records: server.ts wakes the job with it, tests read records through it. */
    processRecords: ProcessRecordsService;
  }
}

declare module '../../module-context.ts' {
  interface Provided {
    /** Who submitted what: grading's release notices read it. */
    submissionsRepository: SubmissionsRepository;
    /**
     * How each result's answers came to be (results.process): a submission wakes its computation; the timeline and
     * the candidate's receipt read it with `processOf` (computed on the spot if still pending).
     */
    processRecords: ProcessRecordsService;
  }
}

/** Which candidates have submitted an exam (exam-service's reminders ask), and each submission's process record. */
export const submissionsModule: AppModule = async (app, { deps, provide }) => {
  const submissions = createSubmissionsRepository(deps.database);
  provide('submissionsRepository', submissions);
  const worker = createProcessWorker();
  app.addHook('onClose', () => worker.close());
  const processRecords = createProcessRecordsService(createProcessRecordsRepository(deps.database), worker, deps);
  provide('processRecords', processRecords);
  app.decorate('computeProcessRecords', (max?: number) => processRecords.computePending(max));
  app.decorate('processRecords', processRecords);
  await app.register(submissionsRoutes(submissions));
};
