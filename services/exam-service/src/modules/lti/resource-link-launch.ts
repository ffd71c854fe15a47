import { isInstructorLaunch, launchDisplayName, LtiClaim } from '@exam/domain/lti';
import { signLtiGrant } from '@exam/server-kit/lti-grant';
import { LtiLaunchError, type LaunchClaims } from './id-token.ts';
import { issueTicket } from './instructor-tickets.ts';
import type { LaunchContext } from './launch-context.ts';
import { isRegisteredOrigin } from './platform-origins.ts';
import type { LtiPlatformRow } from './platforms.repository.ts';

/** The exam a resource link opens: the deep link's custom exam_id, else the link's; one the platform's creator edits. */
export async function examOfLink(ctx: LaunchContext, platform: LtiPlatformRow, claims: LaunchClaims) {
  const resourceLinkId = claims[LtiClaim.resourceLink]!.id;
  const deploymentId = claims[LtiClaim.deploymentId];
  const custom = claims[LtiClaim.custom]?.exam_id;
  const link = await ctx.repos.launches.findLink(platform.id, deploymentId, resourceLinkId);
  const examId = typeof custom === 'string' && custom ? custom : link?.examId;
  if (!examId)
    throw new LtiLaunchError('This LMS link has no exam yet: an instructor chooses one through deep linking', 404);
  // The registration's creator must still edit the exam (its owner, or an editor it is shared with).
  const exam = await ctx.repos.examAccess.find(platform.creatorId, examId, 'exam:edit');
  if (!exam) throw new LtiLaunchError('The exam of this LMS link is not available', 404);
  return exam;
}

/**
 * Where a verified resource-link launch lands: the link is stored with its Advantage service URLs, then an
 * instructor goes to the creator app with a ticket and a learner to the taker app with a signed grant.
 */
export async function landResourceLink(
  ctx: LaunchContext,
  platform: LtiPlatformRow,
  claims: LaunchClaims,
  now: Date,
): Promise<string> {
  const { repos, deps, opts } = ctx;
  const exam = await examOfLink(ctx, platform, claims);
  const ags = claims[LtiClaim.agsEndpoint];
  const resourceLink = claims[LtiClaim.resourceLink]!;
  // The Advantage services are used only on the registration's own origins: a URL elsewhere (another LMS's course)
  // is not stored, so the launch works and that service is simply not offered.
  const onPlatform = (url: string | undefined) => (url && isRegisteredOrigin(platform, url) ? url : null);
  const link = await repos.launches.upsertLink({
    id: deps.ids.next(),
    platformId: platform.id,
    deploymentId: claims[LtiClaim.deploymentId],
    contextId: claims[LtiClaim.context]?.id ?? null,
    resourceLinkId: resourceLink.id,
    title: resourceLink.title ?? null,
    examId: exam.id,
    lineItemUrl: onPlatform(ags?.lineitem),
    lineItemsUrl: onPlatform(ags?.lineitems),
    agsScopes: ags?.scope ?? [],
    contextMembershipsUrl: onPlatform(claims[LtiClaim.nrpsService]?.context_memberships_url),
    createdAt: now,
    updatedAt: now,
  });
  if (isInstructorLaunch(claims[LtiClaim.roles]))
    return issueTicket(ctx, platform.id, { kind: 'exam', sub: claims.sub, examId: exam.id });

  // A learner: the candidate ID is the LMS's `sub`, the id AGS scores and NRPS memberships use for the same
  // person (lis.person_sourcedid is optional and not stable across LMSs); the name is the launch's.
  const grant = await signLtiGrant(
    {
      examId: exam.id,
      name: launchDisplayName(claims) || claims.sub,
      studentId: claims.sub,
      lti: {
        platformId: platform.id,
        deploymentId: link.deploymentId,
        resourceLinkId: link.resourceLinkId,
        lineItemUrl: link.lineItemUrl,
        sub: claims.sub,
      },
    },
    { jwtSecret: opts.jwtSecret, ttlSeconds: opts.grantTtlSeconds, now },
  );
  return `${opts.takerOrigin}/exam/${encodeURIComponent(exam.id)}#lti=${encodeURIComponent(grant)}`;
}
