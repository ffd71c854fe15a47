import { examMaxPoints, LTI_VERSION, LtiClaim, LtiMessageType, type LtiDeepLinkResponse } from '@exam/domain/lti';
import { SignJWT } from 'jose';
import type { LaunchClaims } from './id-token.ts';
import { issueTicket, liveTicket } from './instructor-tickets.ts';
import { invalidTicket, randomToken, type LaunchContext } from './launch-context.ts';
import type { LtiPlatformRow } from './platforms.repository.ts';

/**
 * Deep Linking 2.0: an instructor's deep-linking request becomes a ticket into the creator app's exam picker,
 * and the picked exam goes back to the LMS as a signed deep-linking response.
 */

/** The verified deep-linking request: a ticket carrying where and how to answer the LMS (Deep Linking 2.0 §4.4). */
export function deepLinkingTicket(ctx: LaunchContext, platform: LtiPlatformRow, claims: LaunchClaims): Promise<string> {
  const settings = claims[LtiClaim.deepLinkingSettings]!;
  return issueTicket(ctx, platform.id, {
    kind: 'deep-link',
    sub: claims.sub,
    deploymentId: claims[LtiClaim.deploymentId],
    returnUrl: settings.deep_link_return_url,
    ...(settings.data !== undefined ? { data: settings.data } : {}),
  });
}

/** Deep Linking 2.0 §4.5: the picked exam as one ltiResourceLink, signed with the registration's key. */
export async function respondDeepLink(
  ctx: LaunchContext,
  creatorId: string,
  choice: { ticket: string; examId: string },
): Promise<LtiDeepLinkResponse> {
  const { repos, deps } = ctx;
  const { row, launch, now } = await liveTicket(ctx, choice.ticket);
  if (launch.kind !== 'deep-link' || !row.redeemedAt) throw invalidTicket();
  const account = await repos.launches.findAccount(row.platformId, launch.sub);
  if (account?.userId !== creatorId) throw invalidTicket();
  const { row: exam } = await ctx.repos.examAccess.require(creatorId, choice.examId, 'exam:edit');
  const platform = await repos.platforms.byId(row.platformId);
  if (!platform || !(await repos.launches.consumeTicket(row.ticketHash, now))) throw invalidTicket();

  // Signed with the registration's own key: no other registration's messages verify as this one's.
  const { kid, privateKey } = await deps.toolKeys.signingKey(platform.id);
  const contentItem = {
    type: 'ltiResourceLink',
    title: exam.title,
    url: ctx.launchUrl,
    custom: { exam_id: exam.id },
    // AGS 2.0 §3.2 (Deep Linking 2.0 §3.4.7): the LMS makes a gradebook column for the link.
    lineItem: { scoreMaximum: examMaxPoints(exam.questions, exam.pools), label: exam.title, resourceId: exam.id },
  };
  const jwt = await new SignJWT({
    nonce: randomToken(),
    [LtiClaim.messageType]: LtiMessageType.deepLinkingResponse,
    [LtiClaim.version]: LTI_VERSION,
    [LtiClaim.deploymentId]: launch.deploymentId,
    [LtiClaim.contentItems]: [contentItem],
    ...(launch.data !== undefined ? { [LtiClaim.deepLinkingData]: launch.data } : {}),
  })
    .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
    .setIssuer(platform.clientId)
    .setAudience(platform.issuer)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(now.getTime() / 1000) + 300)
    .sign(privateKey);
  return { returnUrl: launch.returnUrl, jwt };
}
