import type { LtiPlatform, LtiPlatformValues } from '@exam/domain/lti';
import { and, desc, eq } from 'drizzle-orm';
import type { ExamDatabase } from '../../db/database.ts';
import { ltiPlatforms } from '../../db/schema.ts';

export type LtiPlatformRow = typeof ltiPlatforms.$inferSelect;

export const toLtiPlatform = (row: LtiPlatformRow): LtiPlatform => ({
  id: row.id,
  name: row.name,
  issuer: row.issuer,
  clientId: row.clientId,
  authLoginUrl: row.authLoginUrl,
  authTokenUrl: row.authTokenUrl,
  jwksUrl: row.jwksUrl,
  deploymentIds: row.deploymentIds,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** Platform registrations. byId and byIssuerAndClient serve the protocol; the owned* queries serve the creator. */
export function createPlatformsRepository({ db }: ExamDatabase) {
  const owned = (creatorId: string, id: string) => and(eq(ltiPlatforms.creatorId, creatorId), eq(ltiPlatforms.id, id));
  const first = (rows: LtiPlatformRow[]) => rows[0];
  return {
    byId: (id: string): Promise<LtiPlatformRow | undefined> =>
      db.select().from(ltiPlatforms).where(eq(ltiPlatforms.id, id)).then(first),

    /** The registration a login or launch names; without a client id, the issuer's only registration. */
    async byIssuerAndClient(issuer: string, clientId: string | undefined): Promise<LtiPlatformRow | undefined> {
      if (clientId !== undefined)
        return db
          .select()
          .from(ltiPlatforms)
          .where(and(eq(ltiPlatforms.issuer, issuer), eq(ltiPlatforms.clientId, clientId)))
          .then(first);
      // LTI Core 1.3 §5.1.1.1 makes client_id optional in the login request: it is then ambiguous when one
      // issuer registered this tool twice, and such a login is refused rather than guessed.
      const rows = await db.select().from(ltiPlatforms).where(eq(ltiPlatforms.issuer, issuer)).limit(2);
      return rows.length === 1 ? rows[0] : undefined;
    },

    listOwned: (creatorId: string) =>
      db
        .select()
        .from(ltiPlatforms)
        .where(eq(ltiPlatforms.creatorId, creatorId))
        .orderBy(desc(ltiPlatforms.createdAt), desc(ltiPlatforms.id)),

    findOwned: (creatorId: string, id: string) =>
      db.select().from(ltiPlatforms).where(owned(creatorId, id)).then(first),

    /** Undefined when the issuer and client id are already registered (by anyone). */
    insert: (row: typeof ltiPlatforms.$inferInsert): Promise<LtiPlatformRow | undefined> =>
      db
        .insert(ltiPlatforms)
        .values(row)
        .onConflictDoNothing({ target: [ltiPlatforms.issuer, ltiPlatforms.clientId] })
        .returning()
        .then(first),

    updateOwned: (creatorId: string, id: string, values: LtiPlatformValues, now: Date) =>
      db
        .update(ltiPlatforms)
        .set({ ...values, updatedAt: now })
        .where(owned(creatorId, id))
        .returning()
        .then(first),

    removeOwned: (creatorId: string, id: string) =>
      db
        .delete(ltiPlatforms)
        .where(owned(creatorId, id))
        .returning({ id: ltiPlatforms.id })
        .then((rows) => rows.length > 0),
  };
}
export type PlatformsRepository = ReturnType<typeof createPlatformsRepository>;
