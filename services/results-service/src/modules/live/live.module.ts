import type { PresenceStore } from '../../deps.ts';
import type { AppModule } from '../../module-context.ts';
import { createLiveRepository } from './live.repository.ts';
import { liveRoutes, recordPresence } from './live.routes.ts';
import { createLiveService } from './live.service.ts';
import { databasePresence, redisPresence } from './presence.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the live view reads when candidates were last seen (tests read it whichever store it is). */
    presence: PresenceStore;
  }
}

/**
 * The live proctor view and the presence hook. app.ts registers it before every other module: a Fastify hook
 * reaches only the routes registered after it, and the hook must see every candidate request.
 */
export const liveModule: AppModule = async (app, { deps, use }) => {
  const liveRepository = createLiveRepository(deps.database);
  const database = databasePresence(liveRepository, app.log);
  const presence = deps.redis ? redisPresence(deps.redis, database, app.log) : database;
  app.decorate('presence', presence);
  // The touches this replica holds are written before the database closes (server.ts closes it in onClose, and
  // onClose hooks run last-added first); touches of requests still finishing go straight through from then on.
  app.addHook('preClose', () => presence.close());
  // attempts registers after this module: its submit is read when the live view first submits.
  const live = createLiveService(liveRepository, presence, deps, (attemptId) =>
    use('attemptsService').submit(attemptId),
  );
  app.addHook('onResponse', recordPresence(live, app.log));
  await app.register(liveRoutes(live));
};
