import type { BankQuestion } from '@exam/domain/bank';
import type { Question } from '@exam/domain/question';
import { and, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { ExamDatabase } from '../../db/database.ts';
import { bankQuestions } from '../../db/schema.ts';

type Row = typeof bankQuestions.$inferSelect;

const toBankQuestion = (row: Row): BankQuestion => ({
  id: row.id,
  question: row.question,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** LIKE pattern of a literal text: its %, _ and \ match themselves. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The bank's queries; every one is scoped to the owner, so another creator's question is never found. */
export function createBankRepository({ db }: ExamDatabase) {
  const owned = (ownerId: string, id: string) => and(eq(bankQuestions.ownerId, ownerId), eq(bankQuestions.id, id));
  return {
    async insert(row: typeof bankQuestions.$inferInsert): Promise<BankQuestion> {
      const [inserted] = await db.insert(bankQuestions).values(row).returning();
      return toBankQuestion(inserted!);
    },

    /** The owner's questions, most recently changed first, filtered by text and topic. */
    async list(ownerId: string, opts: { search?: string; topic?: string; limit: number }): Promise<BankQuestion[]> {
      const filters: SQL[] = [eq(bankQuestions.ownerId, ownerId)];
      if (opts.search) {
        const pattern = containing(opts.search);
        filters.push(
          or(
            ilike(sql`${bankQuestions.question}->>'title'`, pattern),
            ilike(sql`${bankQuestions.question}->>'content'`, pattern),
            ilike(sql`${bankQuestions.question}->>'topic'`, pattern),
          )!,
        );
      }
      if (opts.topic) filters.push(sql`lower(${bankQuestions.question}->>'topic') = lower(${opts.topic})`);
      const rows = await db
        .select()
        .from(bankQuestions)
        .where(and(...filters))
        .orderBy(desc(bankQuestions.updatedAt), desc(bankQuestions.id))
        .limit(opts.limit);
      return rows.map(toBankQuestion);
    },

    /** The owner's questions among ids, in the order of ids (unknown ids left out). */
    async findMany(ownerId: string, ids: string[]): Promise<BankQuestion[]> {
      const rows = await db
        .select()
        .from(bankQuestions)
        .where(and(eq(bankQuestions.ownerId, ownerId), inArray(bankQuestions.id, ids)));
      const byId = new Map(rows.map((r) => [r.id, toBankQuestion(r)]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    async update(ownerId: string, id: string, question: Question, now: Date): Promise<BankQuestion | undefined> {
      const [row] = await db
        .update(bankQuestions)
        .set({ question, updatedAt: now })
        .where(owned(ownerId, id))
        .returning();
      return row ? toBankQuestion(row) : undefined;
    },

    async remove(ownerId: string, id: string): Promise<boolean> {
      const rows = await db.delete(bankQuestions).where(owned(ownerId, id)).returning({ id: bankQuestions.id });
      return rows.length > 0;
    },
  };
}
export type BankRepository = ReturnType<typeof createBankRepository>;
