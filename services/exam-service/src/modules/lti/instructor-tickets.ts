import { AppError, ErrorCode } from '@exam/domain/errors';
import { LtiMessages, type LtiLaunchNext, type LtiLaunchSession } from '@exam/domain/lti';
import { hashTicket, invalidTicket, randomToken, type LaunchContext, type TicketLaunch } from './launch-context.ts';
import type { TicketRow } from './launch.repository.ts';

/**
 * An instructor's way from the LMS into the creator app: the launch stores a one-time ticket and sends the browser
 * to the creator app with it; there the ticket opens a creator session, or first links the LMS user to the
 * signed-in creator's account.
 */

/** Stores a ticket for the launch and answers the creator app's URL that carries it. */
export async function issueTicket(ctx: LaunchContext, platformId: string, launch: TicketLaunch): Promise<string> {
  const ticket = randomToken();
  await ctx.repos.launches.insertTicket({
    ticketHash: hashTicket(ticket),
    platformId,
    launch,
    expiresAt: ctx.later(ctx.opts.ticketTtlSeconds),
  });
  // In the fragment: never sent to a server, so never in an access log or a Referer.
  return `${ctx.opts.creatorOrigin}/lti-launch#ticket=${encodeURIComponent(ticket)}`;
}

/** The ticket's launch, if it is live, and the creator account its LMS user is linked to. */
export async function liveTicket(ctx: LaunchContext, ticket: string) {
  const now = ctx.deps.clock.now();
  const row = await ctx.repos.launches.findTicket(hashTicket(ticket), now);
  if (!row) throw invalidTicket();
  return { row, launch: row.launch as TicketLaunch, now };
}

/** Opens the ticket's way on: the exam's ticket is spent now, the deep-linking one when the picker answers. */
async function redeem(ctx: LaunchContext, row: TicketRow, launch: TicketLaunch, now: Date): Promise<LtiLaunchNext> {
  if (!(await ctx.repos.launches.redeemTicket(row.ticketHash, now))) throw invalidTicket();
  if (launch.kind === 'exam') {
    await ctx.repos.launches.consumeTicket(row.ticketHash, now);
    return { kind: 'exam', examId: launch.examId };
  }
  return { kind: 'deep-link' };
}

/** An instructor's ticket: a creator session when the LMS user is linked, else what to link. */
export async function openSession(ctx: LaunchContext, ticket: string): Promise<LtiLaunchSession> {
  const { repos, deps } = ctx;
  const { row, launch, now } = await liveTicket(ctx, ticket);
  if (row.redeemedAt) throw invalidTicket();
  const account = await repos.launches.findAccount(row.platformId, launch.sub);
  if (!account) {
    const platform = await repos.platforms.byId(row.platformId);
    return { status: 'link-required', platformName: platform?.name ?? '' };
  }
  const found = await repos.auth.findById(account.userId);
  if (!found) throw invalidTicket();
  const { passwordHash: _hash, ...user } = found;
  const next = await redeem(ctx, row, launch, now);
  const { token } = await deps.signIn(user);
  return { status: 'signed-in', token, user, next };
}

/** The signed-in creator links the ticket's LMS user to their account: only on a platform they registered. */
export async function linkAccount(
  ctx: LaunchContext,
  creatorId: string,
  ticket: string,
): Promise<{ next: LtiLaunchNext }> {
  const { repos } = ctx;
  const { row, launch, now } = await liveTicket(ctx, ticket);
  if (row.redeemedAt) throw invalidTicket();
  const platform = await repos.platforms.byId(row.platformId);
  if (!platform || platform.creatorId !== creatorId)
    throw new AppError(ErrorCode.FORBIDDEN, LtiMessages.notPlatformOwner);
  const account = await repos.launches.linkAccount({
    platformId: row.platformId,
    sub: launch.sub,
    userId: creatorId,
    createdAt: now,
  });
  if (account.userId !== creatorId) throw new AppError(ErrorCode.CONFLICT, LtiMessages.alreadyLinked);
  return { next: await redeem(ctx, row, launch, now) };
}
