import type { SubmittedCandidates } from '../../deps.ts';
import type { AppModule } from '../../module-context.ts';
import { createAdmissionService } from './admission.service.ts';
import { createNoticesService } from './notices.service.ts';
import { createRosterRepository, type RosterRepository } from './roster.repository.ts';
import { rosterRoutes } from './roster.routes.ts';
import { createRosterService } from './roster.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** One pass of the roster reminders; server.ts runs it on an interval (jobs/reminders.ts). */
    sendReminders: () => Promise<number>;
  }
}

declare module '../../module-context.ts' {
  interface Provided {
    /** The invited candidates of an exam: LTI's roster import writes them. */
    rosterRepository: RosterRepository;
  }
}

/** Without a results-service (a test that does not need one), nobody counts as submitted. */
const noSubmissions: SubmittedCandidates = { submittedCandidateKeys: async () => [] };

/** Rosters, invitations, admission and the reminders before an exam closes. */
export const rosterModule: AppModule = async (app, { config, deps, mailQueue, provide, use }) => {
  const examsRepository = use('examsRepository');
  const rosterRepository = createRosterRepository(deps.database);
  provide('rosterRepository', rosterRepository);
  const mailDeps = { ...deps, mail: mailQueue };
  const notices = createNoticesService(
    rosterRepository,
    examsRepository,
    { ...mailDeps, submissions: deps.submissions ?? noSubmissions },
    { takerOrigin: config.TAKER_ORIGIN, reminderHours: config.REMINDER_HOURS_BEFORE_CLOSE },
  );
  app.decorate('sendReminders', () => notices.sendReminders());
  await app.register(
    rosterRoutes(
      createRosterService(rosterRepository, examsRepository, use('examAccess'), mailDeps, {
        takerOrigin: config.TAKER_ORIGIN,
      }),
      createAdmissionService(rosterRepository, examsRepository),
      notices,
    ),
  );
};
