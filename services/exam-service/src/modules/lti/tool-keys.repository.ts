import { and, desc, eq, gt, isNull, ne, or, sql } from 'drizzle-orm';
import type { ExamDatabase } from '../../db/database.ts';
import { ltiToolKeys } from '../../db/schema.ts';

export type ToolKeyRow = typeof ltiToolKeys.$inferSelect;

/** Serialises the creation and rotation of the tool's keys across replicas (a transaction-scoped advisory lock). */
const KEYS_LOCK = sql`select pg_advisory_xact_lock(hashtext('exam_service.lti_tool_keys'))`;

export function createToolKeysRepository({ db }: ExamDatabase) {
  const newestActive = (tx: typeof db) =>
    tx
      .select()
      .from(ltiToolKeys)
      .where(isNull(ltiToolKeys.retiredAt))
      .orderBy(desc(ltiToolKeys.createdAt), desc(ltiToolKeys.kid))
      .limit(1)
      .then((rows) => rows[0]);

  return {
    findSigning: () => newestActive(db),

    /**
     * The newest active key, or the one `make` builds when there is none. The check and the insert run under the
     * lock, so replicas starting together create one key between them.
     */
    async findOrCreateSigning(make: () => Promise<typeof ltiToolKeys.$inferInsert>): Promise<ToolKeyRow> {
      const existing = await newestActive(db);
      if (existing) return existing;
      // The key is made before the transaction: generating RSA keys takes long enough not to hold the lock for it.
      const candidate = await make();
      return db.transaction(async (tx) => {
        await tx.execute(KEYS_LOCK);
        const raced = await newestActive(tx as unknown as typeof db);
        if (raced) return raced;
        const [inserted] = await tx.insert(ltiToolKeys).values(candidate).returning();
        return inserted!;
      });
    },

    /** Adds the key and retires every other active one, in one transaction. */
    async rotate(row: typeof ltiToolKeys.$inferInsert, now: Date): Promise<string[]> {
      return db.transaction(async (tx) => {
        await tx.execute(KEYS_LOCK);
        await tx.insert(ltiToolKeys).values(row);
        const retired = await tx
          .update(ltiToolKeys)
          .set({ retiredAt: now })
          .where(and(isNull(ltiToolKeys.retiredAt), ne(ltiToolKeys.kid, row.kid)))
          .returning({ kid: ltiToolKeys.kid });
        return retired.map((r) => r.kid);
      });
    },

    /** Keys a platform may still meet: active ones, and those retired after `retiredAfter`. */
    published: (retiredAfter: Date) =>
      db
        .select()
        .from(ltiToolKeys)
        .where(or(isNull(ltiToolKeys.retiredAt), gt(ltiToolKeys.retiredAt, retiredAfter)))
        .orderBy(desc(ltiToolKeys.createdAt), desc(ltiToolKeys.kid)),

    byKid: (kid: string) =>
      db
        .select()
        .from(ltiToolKeys)
        .where(eq(ltiToolKeys.kid, kid))
        .then((rows) => rows[0]),
  };
}
export type ToolKeysRepository = ReturnType<typeof createToolKeysRepository>;
