import { desc } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { receiptKeys } from '../../db/schema.ts';

export type ReceiptKeyRow = typeof receiptKeys.$inferSelect;

/** The receipt signing keys every replica shares (receipt_keys). */
export function createReceiptKeysRepository({ db }: ResultsDatabase) {
  return {
    /** Every key, the newest generation first. */
    list(): Promise<ReceiptKeyRow[]> {
      return db.select().from(receiptKeys).orderBy(desc(receiptKeys.generation));
    },

    /**
     * Stores `key` as the first generation unless a replica got there first (the unique generation decides, so
     * concurrent replicas never end with two first keys): the caller reads the keys again either way.
     */
    async insertFirst(key: Pick<ReceiptKeyRow, 'kid' | 'publicJwk' | 'privateJwk'>): Promise<void> {
      await db
        .insert(receiptKeys)
        .values({ ...key, generation: 1 })
        .onConflictDoNothing();
    },
  };
}
export type ReceiptKeysRepository = ReturnType<typeof createReceiptKeysRepository>;
