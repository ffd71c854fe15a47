import type { AppModule } from '../../module-context.ts';
import { createSharingRepository } from './sharing.repository.ts';
import { sharingRoutes } from './sharing.routes.ts';
import { createSharingService } from './sharing.service.ts';

/** An exam shared with other creators in roles (@exam/domain/roles): members, pending invites, notices. */
export const sharingModule: AppModule = async (app, { config, deps, mailQueue, use }) => {
  const service = createSharingService(
    createSharingRepository(deps.database),
    use('examAccess'),
    use('auditLog'),
    { ...deps, mail: mailQueue },
    { creatorOrigin: config.CREATOR_ORIGIN },
  );
  await app.register(sharingRoutes(service));
};
