import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { ExamDatabase } from '../../db/database.ts';
import { ltiAccounts, ltiLaunchTickets, ltiLinks, ltiLoginStates, ltiUsedNonces } from '../../db/schema.ts';

export type LoginStateRow = typeof ltiLoginStates.$inferSelect;
export type LinkRow = typeof ltiLinks.$inferSelect;
export type TicketRow = typeof ltiLaunchTickets.$inferSelect;

/** What a login and a launch write: states, spent nonces, links, account links, tickets. Queries only. */
export function createLaunchRepository({ db }: ExamDatabase) {
  const first = <T>(rows: T[]) => rows[0];
  return {
    insertState: (row: LoginStateRow) => db.insert(ltiLoginStates).values(row),

    /** Spends the state whatever its age (so an expired one cannot be tried again); the caller checks expiry. */
    consumeState: (state: string) =>
      db.delete(ltiLoginStates).where(eq(ltiLoginStates.state, state)).returning().then(first),

    /** False when the platform's nonce was accepted before. */
    async spendNonce(platformId: string, nonce: string, expiresAt: Date): Promise<boolean> {
      const rows = await db
        .insert(ltiUsedNonces)
        .values({ platformId, nonce, expiresAt })
        .onConflictDoNothing()
        .returning({ nonce: ltiUsedNonces.nonce });
      return rows.length > 0;
    },

    findLink: (platformId: string, deploymentId: string, resourceLinkId: string) =>
      db
        .select()
        .from(ltiLinks)
        .where(
          and(
            eq(ltiLinks.platformId, platformId),
            eq(ltiLinks.deploymentId, deploymentId),
            eq(ltiLinks.resourceLinkId, resourceLinkId),
          ),
        )
        .then(first),

    /** Creates the link at its first launch, or refreshes its exam, title and service URLs from a later one. */
    upsertLink: (row: typeof ltiLinks.$inferInsert) =>
      db
        .insert(ltiLinks)
        .values(row)
        .onConflictDoUpdate({
          target: [ltiLinks.platformId, ltiLinks.deploymentId, ltiLinks.resourceLinkId],
          set: {
            examId: row.examId,
            contextId: row.contextId,
            title: row.title,
            lineItemUrl: row.lineItemUrl,
            lineItemsUrl: row.lineItemsUrl,
            agsScopes: row.agsScopes,
            contextMembershipsUrl: row.contextMembershipsUrl,
            updatedAt: row.updatedAt,
          },
        })
        .returning()
        .then((rows) => rows[0]!),

    findAccount: (platformId: string, sub: string) =>
      db
        .select()
        .from(ltiAccounts)
        .where(and(eq(ltiAccounts.platformId, platformId), eq(ltiAccounts.sub, sub)))
        .then(first),

    /** The account link as stored after the insert: an existing link (maybe to someone else) is left as it was. */
    async linkAccount(row: typeof ltiAccounts.$inferInsert) {
      await db.insert(ltiAccounts).values(row).onConflictDoNothing();
      return db
        .select()
        .from(ltiAccounts)
        .where(and(eq(ltiAccounts.platformId, row.platformId), eq(ltiAccounts.sub, row.sub)))
        .then((rows) => rows[0]!);
    },

    insertTicket: (row: typeof ltiLaunchTickets.$inferInsert) => db.insert(ltiLaunchTickets).values(row),

    findTicket: (ticketHash: string, now: Date) =>
      db
        .select()
        .from(ltiLaunchTickets)
        .where(and(eq(ltiLaunchTickets.ticketHash, ticketHash), gt(ltiLaunchTickets.expiresAt, now)))
        .then(first),

    /** Marks the ticket as having opened a session; undefined when it was already used, or expired. */
    redeemTicket: (ticketHash: string, now: Date) =>
      db
        .update(ltiLaunchTickets)
        .set({ redeemedAt: now })
        .where(
          and(
            eq(ltiLaunchTickets.ticketHash, ticketHash),
            isNull(ltiLaunchTickets.redeemedAt),
            gt(ltiLaunchTickets.expiresAt, now),
          ),
        )
        .returning()
        .then(first),

    /** Spends a redeemed ticket (the deep-linking answer); undefined when it is gone or expired. */
    consumeTicket: (ticketHash: string, now: Date) =>
      db
        .delete(ltiLaunchTickets)
        .where(and(eq(ltiLaunchTickets.ticketHash, ticketHash), gt(ltiLaunchTickets.expiresAt, now)))
        .returning()
        .then(first),

    /** Expired states, tickets and nonces (the prune job). */
    async pruneExpired(now: Date): Promise<number> {
      const [states, tickets, nonces] = await Promise.all([
        db.delete(ltiLoginStates).where(lt(ltiLoginStates.expiresAt, now)).returning({ k: ltiLoginStates.state }),
        db
          .delete(ltiLaunchTickets)
          .where(lt(ltiLaunchTickets.expiresAt, now))
          .returning({ k: ltiLaunchTickets.ticketHash }),
        db.delete(ltiUsedNonces).where(lt(ltiUsedNonces.expiresAt, now)).returning({ k: ltiUsedNonces.nonce }),
      ]);
      return states.length + tickets.length + nonces.length;
    },
  };
}
export type LaunchRepository = ReturnType<typeof createLaunchRepository>;
