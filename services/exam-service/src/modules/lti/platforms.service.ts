import { AppError, ErrorCode, notFound } from '@exam/domain/errors';
import { LtiMessages, type LtiPlatform, type LtiPlatformValues } from '@exam/domain/lti';
import type { Deps } from '../../deps.ts';
import { originOf } from './platform-origins.ts';
import { toLtiPlatform, type PlatformClash, type PlatformsRepository } from './platforms.repository.ts';

/**
 * A client ID at a token endpoint is an LMS tenant's trust in this tool: the LMS issues access tokens to whoever
 * presents it with an assertion the tool's JWKS verifies. A second registration of it would borrow that trust.
 */
const TOKEN_ENDPOINT_TAKEN =
  "This client ID is already registered for this LMS's token endpoint. One LMS registration of the tool belongs to one creator: ask the LMS administrator for a client ID of your own.";

/** An issuer and client id, or a client id and token origin, name one registration across all creators. */
function conflict(clash: PlatformClash, tokenUrl: string) {
  if (clash === 'issuer')
    return new AppError(ErrorCode.CONFLICT, LtiMessages.duplicate, [
      { path: 'clientId', message: LtiMessages.duplicate },
    ]);
  const message = `${TOKEN_ENDPOINT_TAKEN} (${originOf(tokenUrl) ?? tokenUrl})`;
  return new AppError(ErrorCode.CONFLICT, message, [
    { path: 'clientId', message },
    { path: 'authTokenUrl', message },
  ]);
}

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
  deps: Pick<Deps, 'clock' | 'ids'> & {
    /** Makes the registration's own signing key, so /lti/jwks publishes it before the LMS meets it. */
    prepareKey?: (platformId: string) => Promise<unknown>;
  },
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
      const result = await repo.insert({ ...values, id: deps.ids.next(), creatorId, createdAt: now, updatedAt: now });
      if ('clash' in result) throw conflict(result.clash, values.authTokenUrl);
      await deps.prepareKey?.(result.row.id);
      return toLtiPlatform(result.row);
    },

    async update(creatorId: string, id: string, values: LtiPlatformValues): Promise<LtiPlatform> {
      await getOwned(creatorId, id);
      assertHttps(values, opts.allowLoopbackHttp);
      const result = await repo.updateOwned(creatorId, id, values, deps.clock.now());
      if ('clash' in result) throw conflict(result.clash, values.authTokenUrl);
      if (!result.row) throw notFound('LTI platform');
      return toLtiPlatform(result.row);
    },

    async remove(creatorId: string, id: string): Promise<void> {
      if (!(await repo.removeOwned(creatorId, id))) throw notFound('LTI platform');
    },
  };
}
export type PlatformsService = ReturnType<typeof createPlatformsService>;
