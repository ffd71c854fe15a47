import { isInstructorLaunch, LtiClaim, LtiMessages, LtiMessageType } from '@exam/domain/lti';
import { deepLinkingTicket } from './deep-linking.ts';
import { LtiLaunchError, verifyIdToken } from './id-token.ts';
import { SUSPENDED, type LaunchContext } from './launch-context.ts';
import { examOfLink, landResourceLink } from './resource-link-launch.ts';

/**
 * The authentication response (LTI Core 1.3 §5.1.1.3): spends the state, validates the id_token, and answers
 * where the browser goes. A refusal throws LtiLaunchError with the reason; nothing of the launch is stored.
 */
export async function verifyLaunch(
  ctx: LaunchContext,
  form: { id_token?: string; state?: string },
  cookieState: string | undefined,
): Promise<string> {
  const { repos, deps, opts } = ctx;
  if (!form.state) throw new LtiLaunchError('The launch carries no state');
  if (!form.id_token) throw new LtiLaunchError('The launch carries no id_token');
  const login = await repos.launches.consumeState(form.state);
  const now = deps.clock.now();
  if (!login) throw new LtiLaunchError('This login is unknown or was already used: start it again from the LMS');
  if (login.expiresAt <= now) throw new LtiLaunchError('This login took too long: start it again from the LMS');
  // The browser-bound check, when the browser kept the cookie (see ARCHITECTURE.md "LTI" on blocked cookies).
  if (cookieState !== undefined && cookieState !== form.state)
    throw new LtiLaunchError('This launch did not come back to the browser that started the login');
  const platform = await repos.platforms.byId(login.platformId);
  if (!platform) throw new LtiLaunchError('The platform of this login is no longer registered');
  if (platform.tokenOrigin === null) throw new LtiLaunchError(SUSPENDED);
  const claims = await verifyIdToken(
    form.id_token,
    platform,
    { nonce: login.nonce, targetLinkUri: login.targetLinkUri },
    {
      keys: deps.platformKeys(platform.jwksUrl),
      clockToleranceSeconds: opts.clockToleranceSeconds,
      iatSkewSeconds: opts.iatSkewSeconds,
      now,
    },
  );
  const messageType = claims[LtiClaim.messageType];
  const instructor = isInstructorLaunch(claims[LtiClaim.roles]);
  if (messageType === LtiMessageType.deepLinkingRequest && !instructor)
    throw new LtiLaunchError(LtiMessages.notInstructor, 403);
  if (messageType === LtiMessageType.resourceLink) await examOfLink(ctx, platform, claims);
  // The nonce is spent only for a launch that will be acted on, until the token could no longer be valid.
  const tokenExpiry = new Date(((claims.exp ?? 0) + opts.clockToleranceSeconds) * 1000);
  if (!(await repos.launches.spendNonce(platform.id, claims.nonce as string, tokenExpiry)))
    throw new LtiLaunchError('This id_token was already used');

  if (messageType === LtiMessageType.resourceLink) return landResourceLink(ctx, platform, claims, now);
  return deepLinkingTicket(ctx, platform, claims);
}
