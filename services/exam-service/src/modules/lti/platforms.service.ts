import { AppError, ErrorCode, notFound } from '@exam/domain/errors';
import { LtiMessages, type LtiPlatform, type LtiPlatformValues } from '@exam/domain/lti';
import type { Deps } from '../../deps.ts';
import { toLtiPlatform, type PlatformsRepository } from './platforms.repository.ts';

/** An issuer and client id name one registration across all creators (the launch finds the platform by them). */
const duplicate = () =>
  new AppError(ErrorCode.CONFLICT, LtiMessages.duplicate, [{ path: 'clientId', message: LtiMessages.duplicate }]);

/** A creator's LMS registrations; another creator's platform is never found (404). */
export function createPlatformsService(repo: PlatformsRepository, deps: Pick<Deps, 'clock' | 'ids'>) {
  const getOwned = async (creatorId: string, id: string) => {
    const row = await repo.findOwned(creatorId, id);
    if (!row) throw notFound('LTI platform');
    return row;
  };
  return {
    list: async (creatorId: string): Promise<LtiPlatform[]> => (await repo.listOwned(creatorId)).map(toLtiPlatform),

    get: async (creatorId: string, id: string): Promise<LtiPlatform> => toLtiPlatform(await getOwned(creatorId, id)),

    async create(creatorId: string, values: LtiPlatformValues): Promise<LtiPlatform> {
      const now = deps.clock.now();
      const row = await repo.insert({ ...values, id: deps.ids.next(), creatorId, createdAt: now, updatedAt: now });
      if (!row) throw duplicate();
      return toLtiPlatform(row);
    },

    async update(creatorId: string, id: string, values: LtiPlatformValues): Promise<LtiPlatform> {
      await getOwned(creatorId, id);
      const clash = await repo.byIssuerAndClient(values.issuer, values.clientId);
      if (clash && clash.id !== id) throw duplicate();
      const row = await repo.updateOwned(creatorId, id, values, deps.clock.now());
      if (!row) throw notFound('LTI platform');
      return toLtiPlatform(row);
    },

    async remove(creatorId: string, id: string): Promise<void> {
      if (!(await repo.removeOwned(creatorId, id))) throw notFound('LTI platform');
    },
  };
}
export type PlatformsService = ReturnType<typeof createPlatformsService>;
