import { and, eq, gt, lt } from 'drizzle-orm';
import type { ExamDatabase } from '../../db/database.ts';
import { oidcLoginStates, ssoSignInTickets, userIdentities } from '../../db/schema.ts';

export type LoginState = typeof oidcLoginStates.$inferSelect;

/** Single sign-on's rows: sign-ins in flight, identities linked to accounts, and the tickets into the creator app. */
export function createSsoRepository({ db }: ExamDatabase) {
  return {
    /** Stores a sign-in in flight, and forgets the ones that expired. */
    async insertState(row: LoginState, now: Date): Promise<void> {
      await db.delete(oidcLoginStates).where(lt(oidcLoginStates.expiresAt, now));
      await db.insert(oidcLoginStates).values(row);
    },
    /** Spends the state: deleted whatever happens next, so it works once; an expired one answers undefined. */
    async spendState(stateHash: string, now: Date): Promise<LoginState | undefined> {
      const [row] = await db.delete(oidcLoginStates).where(eq(oidcLoginStates.stateHash, stateHash)).returning();
      return row && row.expiresAt > now ? row : undefined;
    },
    async findIdentityOwner(issuer: string, subject: string): Promise<string | undefined> {
      const [row] = await db
        .select({ userId: userIdentities.userId })
        .from(userIdentities)
        .where(and(eq(userIdentities.issuer, issuer), eq(userIdentities.subject, subject)))
        .limit(1);
      return row?.userId;
    },
    /** Links the identity; false when it was linked (to anyone) in the meantime. */
    async linkIdentity(row: typeof userIdentities.$inferInsert): Promise<boolean> {
      const inserted = await db
        .insert(userIdentities)
        .values(row)
        .onConflictDoNothing()
        .returning({ userId: userIdentities.userId });
      return inserted.length > 0;
    },
    async insertTicket(row: typeof ssoSignInTickets.$inferInsert, now: Date): Promise<void> {
      await db.delete(ssoSignInTickets).where(lt(ssoSignInTickets.expiresAt, now));
      await db.insert(ssoSignInTickets).values(row);
    },
    /** Spends a live ticket once; answers its user. */
    async spendTicket(ticketHash: string, now: Date): Promise<string | undefined> {
      const [row] = await db
        .delete(ssoSignInTickets)
        .where(and(eq(ssoSignInTickets.ticketHash, ticketHash), gt(ssoSignInTickets.expiresAt, now)))
        .returning({ userId: ssoSignInTickets.userId });
      return row?.userId;
    },
  };
}
export type SsoRepository = ReturnType<typeof createSsoRepository>;
