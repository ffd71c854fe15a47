import { and, desc, eq } from 'drizzle-orm';
import type { ExamDatabase } from '../../db/database.ts';
import { exams } from '../../db/schema.ts';

export type ExamRow = typeof exams.$inferSelect;
export type NewExamRow = typeof exams.$inferInsert;
export type ExamPatch = Partial<Omit<NewExamRow, 'id' | 'ownerId' | 'createdAt'>>;

/** Every creator-facing query takes the owner: another creator's exam simply does not exist for them. */
export function createExamsRepository({ db }: ExamDatabase) {
  const owned = (ownerId: string, id: string) => and(eq(exams.id, id), eq(exams.ownerId, ownerId));
  return {
    async insert(row: NewExamRow): Promise<ExamRow> {
      const [inserted] = await db.insert(exams).values(row).returning();
      if (!inserted) throw new Error('insert returned no row');
      return inserted;
    },
    async findOwned(ownerId: string, id: string): Promise<ExamRow | undefined> {
      const [row] = await db.select().from(exams).where(owned(ownerId, id)).limit(1);
      return row;
    },
    /** Unscoped: only for the public candidate view and service-to-service calls. */
    async findById(id: string): Promise<ExamRow | undefined> {
      const [row] = await db.select().from(exams).where(eq(exams.id, id)).limit(1);
      return row;
    },
    async listOwned(ownerId: string): Promise<ExamRow[]> {
      return db.select().from(exams).where(eq(exams.ownerId, ownerId)).orderBy(desc(exams.createdAt), desc(exams.id));
    },
    async updateOwned(ownerId: string, id: string, patch: ExamPatch): Promise<ExamRow | undefined> {
      const [row] = await db.update(exams).set(patch).where(owned(ownerId, id)).returning();
      return row;
    },
    async deleteOwned(ownerId: string, id: string): Promise<boolean> {
      const rows = await db.delete(exams).where(owned(ownerId, id)).returning({ id: exams.id });
      return rows.length > 0;
    },
  };
}
export type ExamsRepository = ReturnType<typeof createExamsRepository>;
