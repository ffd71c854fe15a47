import { InternalCreatorSessionSchema } from '@exam/domain/internal';
import {
  createInternalClient,
  parseUpstream,
  unexpectedStatus,
  type InternalClientOptions,
} from './internal-client.ts';
import type { CreatorSessionCheck } from './plugins/auth.ts';

/**
 * The creator-session check of every service but exam-service: one internal call per creator request to
 * exam-service, which owns the sessions (ARCHITECTURE.md, "Creator sessions"). Nothing is cached, so a
 * sign-out is seen by every replica of every service on the next request. When exam-service cannot be
 * reached the guard fails closed with 503 rather than trusting a token it cannot check.
 */
export function createRemoteCreatorSessions(
  examServiceUrl: string,
  internalToken: string,
  opts: InternalClientOptions = {},
): CreatorSessionCheck & { close(): void } {
  const client = createInternalClient(examServiceUrl, internalToken, opts);
  const check: CreatorSessionCheck = async (claims) => {
    const { status, body } = await client(`/internal/creator-sessions/${encodeURIComponent(claims.sid)}`);
    if (status === 404) return false;
    if (status !== 200) throw unexpectedStatus('exam-service', status, 'a creator session');
    const session = parseUpstream('exam-service', InternalCreatorSessionSchema, body, 'a creator session');
    return session.userId === claims.sub;
  };
  return Object.assign(check, { close: () => client.close() });
}
