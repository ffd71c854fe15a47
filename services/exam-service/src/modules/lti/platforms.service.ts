import { AppError, ErrorCode, notFound } from '@exam/domain/errors';
import { LtiMessages, type LtiPlatform, type LtiPlatformValues } from '@exam/domain/lti';
import type { Deps } from '../../deps.ts';
import { toLtiPlatform, type PlatformsRepository } from './platforms.repository.ts';

/** An issuer and client id name one registration across all creators (the launch finds the platform by them). */
const duplicate = () =>
  new AppError(ErrorCode.CONFLICT, LtiMessages.duplicate, [{ path: 'clientId', message: LtiMessages.duplicate }]);

const URL_FIELDS = ['issuer', 'authLoginUrl', 'authTokenUrl', 'jwksUrl'] as const;
const HTTPS_ONLY = 'Must be an https:// URL (http:// on this machine only where LTI_ALLOW_LOOPBACK_HTTP is set)';

/**
 * The shared schema lets http:// through for localhost (development, the LMS simulator); a deployment without
 * LTI_ALLOW_LOOPBACK_HTTP takes https only (1EdTech Security Framework 1.0: TLS between tool and platform), so a
 * registration can never point exam-service's requests at this machine's own services.
 */
function assertHttps(values: LtiPlatformValues, allowLoopbackHttp: boolean) {
  if (allowLoopbackHttp) return;
  const issues = URL_FIELDS.filter((f) => new URL(values[f]).protocol !== 'https:').map((path) => ({
    path,
    message: HTTPS_ONLY,
  }));
  if (issues.length) throw new AppError(ErrorCode.VALIDATION, `${issues[0]!.path}: ${HTTPS_ONLY}`, issues);
}

/** A creator's LMS registrations; another creator's platform is never found (404). */
export function createPlatformsService(
  repo: PlatformsRepository,
  deps: Pick<Deps, 'clock' | 'ids'>,
  opts: { allowLoopbackHttp: boolean } = { allowLoopbackHttp: false },
) {
  const getOwned = async (creatorId: string, id: string) => {
    const row = await repo.findOwned(creatorId, id);
    if (!row) throw notFound('LTI platform');
    return row;
  };
  return {
    list: async (creatorId: string): Promise<LtiPlatform[]> => (await repo.listOwned(creatorId)).map(toLtiPlatform),

    get: async (creatorId: string, id: string): Promise<LtiPlatform> => toLtiPlatform(await getOwned(creatorId, id)),

    async create(creatorId: string, values: LtiPlatformValues): Promise<LtiPlatform> {
      assertHttps(values, opts.allowLoopbackHttp);
      const now = deps.clock.now();
      const row = await repo.insert({ ...values, id: deps.ids.next(), creatorId, createdAt: now, updatedAt: now });
      if (!row) throw duplicate();
      return toLtiPlatform(row);
    },

    async update(creatorId: string, id: string, values: LtiPlatformValues): Promise<LtiPlatform> {
      await getOwned(creatorId, id);
      assertHttps(values, opts.allowLoopbackHttp);
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
