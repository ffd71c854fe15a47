import type { LtiPlatform, LtiPlatformValues } from '@exam/domain/lti';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { ExamDatabase } from '../../db/database.ts';
import { ltiPlatforms } from '../../db/schema.ts';
import { originOf } from './platform-origins.ts';

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

/** What a new or changed registration collides with: the same issuer and client ID, or client ID and token origin. */
export type PlatformClash = 'issuer' | 'token-endpoint';

/** Serialises registrations and their changes, so two at once cannot both pass the uniqueness checks. */
const PLATFORMS_LOCK = sql`select pg_advisory_xact_lock(hashtext('exam_service.lti_platforms'))`;

/** Platform registrations. byId and byIssuerAndClient serve the protocol; the owned* queries serve the creator. */
export function createPlatformsRepository({ db }: ExamDatabase) {
  const owned = (creatorId: string, id: string) => and(eq(ltiPlatforms.creatorId, creatorId), eq(ltiPlatforms.id, id));
  const first = (rows: LtiPlatformRow[]) => rows[0];

  /**
   * The registration (other than `exceptId`) the values collide with. The token origins are compared as URL.origin
   * gives them, not as stored, so a registration from before the column (its origin computed in SQL) still counts.
   */
  async function clashOf(
    tx: typeof db,
    values: LtiPlatformValues,
    exceptId?: string,
  ): Promise<PlatformClash | undefined> {
    const sameClient = await tx.select().from(ltiPlatforms).where(eq(ltiPlatforms.clientId, values.clientId));
    const others = sameClient.filter((row) => row.id !== exceptId);
    if (others.some((row) => row.issuer === values.issuer)) return 'issuer';
    const tokenOrigin = originOf(values.authTokenUrl);
    // A suspended registration (no token origin: it came second) holds nothing; the registration it copied does.
    if (others.some((row) => row.tokenOrigin !== null && originOf(row.authTokenUrl) === tokenOrigin))
      return 'token-endpoint';
    return undefined;
  }

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

    /** The new registration, or what it collides with (by anyone). */
    insert: (row: Omit<typeof ltiPlatforms.$inferInsert, 'tokenOrigin'>) =>
      db.transaction(async (tx): Promise<{ row: LtiPlatformRow } | { clash: PlatformClash }> => {
        await tx.execute(PLATFORMS_LOCK);
        const clash = await clashOf(tx as unknown as typeof db, row);
        if (clash) return { clash };
        const [inserted] = await tx
          .insert(ltiPlatforms)
          .values({ ...row, tokenOrigin: originOf(row.authTokenUrl) ?? null })
          .returning();
        return { row: inserted! };
      }),

    /** The changed registration, undefined when it is not the creator's, or what the change collides with. */
    updateOwned: (creatorId: string, id: string, values: LtiPlatformValues, now: Date) =>
      db.transaction(async (tx): Promise<{ row: LtiPlatformRow | undefined } | { clash: PlatformClash }> => {
        await tx.execute(PLATFORMS_LOCK);
        const clash = await clashOf(tx as unknown as typeof db, values, id);
        if (clash) return { clash };
        const [row] = await tx
          .update(ltiPlatforms)
          .set({ ...values, tokenOrigin: originOf(values.authTokenUrl) ?? null, updatedAt: now })
          .where(owned(creatorId, id))
          .returning();
        return { row };
      }),

    removeOwned: (creatorId: string, id: string) =>
      db
        .delete(ltiPlatforms)
        .where(owned(creatorId, id))
        .returning({ id: ltiPlatforms.id })
        .then((rows) => rows.length > 0),
  };
}
export type PlatformsRepository = ReturnType<typeof createPlatformsRepository>;
