import {
  bodyExtract,
  isRetryableStatus,
  LtiScopes,
  LtiServiceError,
  type LtiPlatformAuth,
  type ServiceTokens,
} from './lti-service-token.ts';

/** NRPS 2.0 §2.2: the media type of a membership container. */
export const MEMBERSHIP_MEDIA_TYPE = 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json';

/** A member as NRPS 2.0 §2.2 lists it (the fields this tool reads). */
export type NrpsMember = {
  user_id: string;
  roles: string[];
  status?: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
};

/** A course has hundreds of members, not hundreds of pages: past this, the LMS is sending us round in circles. */
const MAX_PAGES = 200;

/** The `rel="next"` target of an HTTP Link header (RFC 8288), as NRPS 2.0 §2.4 pages the container. */
export function nextLink(header: string | null): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!match) continue;
    const rels = /;\s*rel\s*=\s*"?([^";]+)"?/i.exec(match[2] ?? '')?.[1]?.split(/\s+/) ?? [];
    if (rels.includes('next')) return match[1];
  }
  return undefined;
}

const isMember = (value: unknown): value is NrpsMember => {
  const m = value as Partial<NrpsMember> | null;
  return typeof m === 'object' && m !== null && typeof m.user_id === 'string' && Array.isArray(m.roles);
};

/**
 * Reads a context's memberships (NRPS 2.0) with a bearer token of the read-only membership scope, following
 * `Link: <…>; rel="next"` pages. The next page must be on the same origin as the first: the token is never
 * sent to a host the registration did not name. Throws LtiServiceError.
 */
export function createMembershipsClient(
  tokens: ServiceTokens,
  opts: { fetch?: typeof fetch; timeoutMs?: number } = {},
) {
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const scopes = [LtiScopes.memberships];

  return {
    async members(platform: LtiPlatformAuth, membershipsUrl: string): Promise<NrpsMember[]> {
      const origin = new URL(membershipsUrl).origin;
      const token = await tokens.token(platform, scopes);
      const members: NrpsMember[] = [];
      let url: string | undefined = membershipsUrl;
      for (let page = 0; url; page++) {
        if (page >= MAX_PAGES) throw new LtiServiceError('LMS_REJECTED', 'The LMS roster has too many pages', false);
        let response: Response;
        try {
          response = await doFetch(url, {
            headers: { authorization: `Bearer ${token}`, accept: MEMBERSHIP_MEDIA_TYPE },
            signal: AbortSignal.timeout(timeoutMs),
          });
        } catch (err) {
          if (err instanceof LtiServiceError) throw err;
          throw new LtiServiceError(
            'LMS_UNREACHABLE',
            `The LMS could not be reached (${(err as Error).message})`,
            true,
          );
        }
        if (!response.ok) {
          if (response.status === 401) tokens.forget(platform, scopes, token);
          const retryable = isRetryableStatus(response.status);
          throw new LtiServiceError(
            retryable ? 'LMS_UNAVAILABLE' : 'LMS_REJECTED',
            `The LMS did not give the course roster (${response.status})${await bodyExtract(response)}`,
            retryable,
          );
        }
        const body = (await response.json().catch(() => undefined)) as { members?: unknown } | undefined;
        if (!body || !Array.isArray(body.members))
          throw new LtiServiceError('LMS_REJECTED', 'The LMS answered the roster request without members', false);
        members.push(...body.members.filter(isMember));
        const next = nextLink(response.headers.get('link'));
        url = next ? new URL(next, url).toString() : undefined;
        if (url && new URL(url).origin !== origin)
          throw new LtiServiceError('LMS_REJECTED', 'The LMS roster pages to another host', false);
      }
      return members;
    },
  };
}
export type MembershipsClient = ReturnType<typeof createMembershipsClient>;
