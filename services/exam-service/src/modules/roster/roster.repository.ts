import { and, asc, count, eq, exists, gt, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { ExamDatabase } from '../../db/database.ts';
import { examMembers, exams, rosterEntries } from '../../db/schema.ts';

export type RosterRow = typeof rosterEntries.$inferSelect;
export type NewRosterEntry = Pick<RosterRow, 'id' | 'examId' | 'name' | 'candidateId' | 'candidateKey' | 'email'>;
type Tx = ExamDatabase['db'];

export function createRosterRepository({ db }: ExamDatabase) {
  return {
    transaction: <T>(work: (tx: Tx) => Promise<T>) => db.transaction((tx) => work(tx as unknown as Tx)),

    list(examId: string, tx: Tx = db): Promise<RosterRow[]> {
      return tx
        .select()
        .from(rosterEntries)
        .where(eq(rosterEntries.examId, examId))
        .orderBy(asc(rosterEntries.createdAt), asc(rosterEntries.candidateKey));
    },

    /** The e-mail of each roster candidate who has one (the gradebook export's Email column). */
    async emails(examId: string): Promise<Array<{ candidateKey: string; email: string }>> {
      const rows = await db
        .select({ candidateKey: rosterEntries.candidateKey, email: rosterEntries.email })
        .from(rosterEntries)
        .where(and(eq(rosterEntries.examId, examId), isNotNull(rosterEntries.email)));
      return rows.flatMap((r) => (r.email ? [{ candidateKey: r.candidateKey, email: r.email }] : []));
    },

    async findById(examId: string, id: string): Promise<RosterRow | undefined> {
      const [row] = await db
        .select()
        .from(rosterEntries)
        .where(and(eq(rosterEntries.examId, examId), eq(rosterEntries.id, id)));
      return row;
    },

    async findByKey(examId: string, key: string): Promise<RosterRow | undefined> {
      const [row] = await db
        .select()
        .from(rosterEntries)
        .where(and(eq(rosterEntries.examId, examId), eq(rosterEntries.candidateKey, key)));
      return row;
    },

    async findByInvite(examId: string, tokenHash: string): Promise<RosterRow | undefined> {
      const [row] = await db
        .select()
        .from(rosterEntries)
        .where(and(eq(rosterEntries.examId, examId), eq(rosterEntries.inviteTokenHash, tokenHash)));
      return row;
    },

    /** Inserts the entry; false when its candidate ID is already on the roster. */
    async insert(entry: NewRosterEntry, now: Date): Promise<RosterRow | undefined> {
      const [row] = await db
        .insert(rosterEntries)
        .values({ ...entry, createdAt: now })
        .onConflictDoNothing({ target: [rosterEntries.examId, rosterEntries.candidateKey] })
        .returning();
      return row;
    },

    /** Adds or updates (by candidate ID) every row in one statement of the caller's transaction. */
    async upsertMany(entries: NewRosterEntry[], now: Date, tx: Tx): Promise<void> {
      if (entries.length === 0) return;
      await tx
        .insert(rosterEntries)
        .values(entries.map((e) => ({ ...e, createdAt: now })))
        .onConflictDoUpdate({
          target: [rosterEntries.examId, rosterEntries.candidateKey],
          set: {
            name: sql`excluded.name`,
            candidateId: sql`excluded.candidate_id`,
            email: sql`excluded.email`,
          },
        });
    },

    /** Updates the entry; 'duplicate' when the new candidate ID belongs to another entry. */
    async update(
      examId: string,
      id: string,
      patch: Pick<RosterRow, 'name' | 'candidateId' | 'candidateKey' | 'email'>,
    ): Promise<RosterRow | 'duplicate' | undefined> {
      const other = await this.findByKey(examId, patch.candidateKey);
      if (other && other.id !== id) return 'duplicate';
      const [row] = await db
        .update(rosterEntries)
        .set(patch)
        .where(and(eq(rosterEntries.examId, examId), eq(rosterEntries.id, id)))
        .returning();
      return row;
    },

    async remove(examId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(rosterEntries)
        .where(and(eq(rosterEntries.examId, examId), eq(rosterEntries.id, id)))
        .returning({ id: rosterEntries.id });
      return rows.length > 0;
    },

    async setInvited(entries: { id: string; tokenHash: string }[], now: Date, tx: Tx): Promise<void> {
      for (const e of entries) {
        await tx
          .update(rosterEntries)
          .set({ inviteTokenHash: e.tokenHash, invitedAt: now })
          .where(eq(rosterEntries.id, e.id));
      }
    },

    /**
     * Marks the entries of these candidates (with an e-mail, not yet notified) as notified and answers
     * them; the update is the claim, so a repeated release never mails a candidate twice.
     */
    claimReleaseNotices(examId: string, keys: string[], now: Date, tx: Tx): Promise<RosterRow[]> {
      if (keys.length === 0) return Promise.resolve([]);
      return tx
        .update(rosterEntries)
        .set({ releaseNotifiedAt: now })
        .where(
          and(
            eq(rosterEntries.examId, examId),
            inArray(rosterEntries.candidateKey, keys),
            isNotNull(rosterEntries.email),
            isNull(rosterEntries.releaseNotifiedAt),
          ),
        )
        .returning();
    },

    /** Entries with an e-mail that have had no reminder yet; the caller claims them with claimReminders. */
    listUnreminded(examId: string): Promise<RosterRow[]> {
      return db
        .select()
        .from(rosterEntries)
        .where(and(eq(rosterEntries.examId, examId), isNotNull(rosterEntries.email), isNull(rosterEntries.remindedAt)));
    },

    /** Published, live exams closing in (from, until] that have roster entries still to remind. */
    listExamsClosingBetween(from: Date, until: Date) {
      const unreminded = db
        .select({ one: sql`1` })
        .from(rosterEntries)
        .where(
          and(eq(rosterEntries.examId, exams.id), isNotNull(rosterEntries.email), isNull(rosterEntries.remindedAt)),
        );
      return db
        .select()
        .from(exams)
        .where(
          and(
            eq(exams.isDraft, false),
            eq(exams.isLive, true),
            gt(exams.closesAt, from),
            lte(exams.closesAt, until),
            exists(unreminded),
          ),
        );
    },

    /** Invitations sent per exam of this creator's own or shared with them: the entries that have an invitedAt. */
    countInvitedByOwner(creatorId: string): Promise<{ examId: string; invited: number }[]> {
      const shared = db
        .select({ one: sql`1` })
        .from(examMembers)
        .where(and(eq(examMembers.examId, exams.id), eq(examMembers.userId, creatorId)));
      return db
        .select({ examId: rosterEntries.examId, invited: count() })
        .from(rosterEntries)
        .innerJoin(exams, eq(exams.id, rosterEntries.examId))
        .where(and(or(eq(exams.ownerId, creatorId), exists(shared)), isNotNull(rosterEntries.invitedAt)))
        .groupBy(rosterEntries.examId);
    },

    claimReminders(ids: string[], now: Date, tx: Tx): Promise<RosterRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return tx
        .update(rosterEntries)
        .set({ remindedAt: now })
        .where(and(inArray(rosterEntries.id, ids), isNull(rosterEntries.remindedAt)))
        .returning();
    },
  };
}
export type RosterRepository = ReturnType<typeof createRosterRepository>;
