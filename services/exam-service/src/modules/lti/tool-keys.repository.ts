import { and, desc, eq, gt, isNull, ne, or, sql } from 'drizzle-orm';
import type { ExamDatabase } from '../../db/database.ts';
import { ltiPlatforms, ltiToolKeys } from '../../db/schema.ts';

export type ToolKeyRow = typeof ltiToolKeys.$inferSelect;

/**
 * Serialises the creation and rotation of one registration's keys across replicas (a transaction-scoped advisory
 * lock per registration).
 */
const keysLock = (platformId: string) =>
  sql`select pg_advisory_xact_lock(hashtext('exam_service.lti_tool_keys'), hashtext(${platformId}))`;

export function createToolKeysRepository({ db }: ExamDatabase) {
  const newestActive = (tx: typeof db, platformId: string) =>
    tx
      .select()
      .from(ltiToolKeys)
      .where(and(eq(ltiToolKeys.platformId, platformId), isNull(ltiToolKeys.retiredAt)))
      .orderBy(desc(ltiToolKeys.createdAt), desc(ltiToolKeys.kid))
      .limit(1)
      .then((rows) => rows[0]);

  return {
    /**
     * The registration's newest active key, or the one `make` builds when there is none. The check and the insert
     * run under the registration's lock, so replicas asking together create one key between them. Undefined when
     * the registration is gone (the key's foreign key would refuse it).
     */
    async findOrCreateSigning(
      platformId: string,
      make: () => Promise<Omit<typeof ltiToolKeys.$inferInsert, 'platformId'>>,
    ): Promise<ToolKeyRow | undefined> {
      const existing = await newestActive(db, platformId);
      if (existing) return existing;
      // The key is made before the transaction: generating RSA keys takes long enough not to hold the lock for it.
      const candidate = await make();
      return db.transaction(async (tx) => {
        await tx.execute(keysLock(platformId));
        const raced = await newestActive(tx as unknown as typeof db, platformId);
        if (raced) return raced;
        const [platform] = await tx
          .select({ id: ltiPlatforms.id })
          .from(ltiPlatforms)
          .where(eq(ltiPlatforms.id, platformId));
        if (!platform) return undefined;
        const [inserted] = await tx
          .insert(ltiToolKeys)
          .values({ ...candidate, platformId })
          .returning();
        return inserted!;
      });
    },

    /** Adds the registration's new key and retires its other active ones, in one transaction. */
    async rotate(platformId: string, row: Omit<typeof ltiToolKeys.$inferInsert, 'platformId'>, now: Date) {
      return db.transaction(async (tx) => {
        await tx.execute(keysLock(platformId));
        await tx.insert(ltiToolKeys).values({ ...row, platformId });
        const retired = await tx
          .update(ltiToolKeys)
          .set({ retiredAt: now })
          .where(
            and(eq(ltiToolKeys.platformId, platformId), isNull(ltiToolKeys.retiredAt), ne(ltiToolKeys.kid, row.kid)),
          )
          .returning({ kid: ltiToolKeys.kid });
        return retired.map((r) => r.kid);
      });
    },

    /** Every registration's id (rotating all keys). */
    platformIds: () =>
      db
        .select({ id: ltiPlatforms.id })
        .from(ltiPlatforms)
        .orderBy(ltiPlatforms.createdAt, ltiPlatforms.id)
        .then((rows) => rows.map((r) => r.id)),

    /** Keys a platform may still meet: active ones, and those retired after `retiredAfter`. */
    published: (retiredAfter: Date) =>
      db
        .select()
        .from(ltiToolKeys)
        .where(or(isNull(ltiToolKeys.retiredAt), gt(ltiToolKeys.retiredAt, retiredAfter)))
        .orderBy(desc(ltiToolKeys.createdAt), desc(ltiToolKeys.kid)),
  };
}
export type ToolKeysRepository = ReturnType<typeof createToolKeysRepository>;
