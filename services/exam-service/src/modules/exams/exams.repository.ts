import { and, desc, eq, gte, lte, sql } from 'drizzle-orm';
import type { ExamDatabase } from '../../db/database.ts';
import type { ExamMember } from '@exam/domain/roles';
import { examMembers, exams, rosterEntries, users } from '../../db/schema.ts';

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
    /**
     * Live exams with a coding workspace whose window opens between `from` and `to`, with their roster's size
     * (for workspace-orchestrator's pre-start; see internal.service.ts).
     */
    async opening(from: Date, to: Date) {
      return db
        .select({
          id: exams.id,
          codingWorkspace: exams.codingWorkspace,
          opensAt: exams.opensAt,
          // Written out: inside a subquery drizzle would leave both columns unqualified.
          rosterSize: sql<number>`(select count(*)::int from ${rosterEntries} as r where r.exam_id = "exams"."id")`,
        })
        .from(exams)
        .where(
          and(
            eq(exams.isLive, true),
            eq(exams.isDraft, false),
            gte(exams.opensAt, from),
            lte(exams.opensAt, to),
            sql`(${exams.codingWorkspace}->>'enabled')::boolean`,
          ),
        );
    },
    /** The creators the exam is shared with (@exam/domain/roles), oldest first; the owner is not among them. */
    async findMembers(examId: string): Promise<ExamMember[]> {
      return db
        .select({
          creatorId: examMembers.userId,
          email: users.email,
          role: examMembers.role,
          mayRelease: examMembers.mayRelease,
        })
        .from(examMembers)
        .innerJoin(users, eq(users.id, examMembers.userId))
        .where(eq(examMembers.examId, examId))
        .orderBy(examMembers.createdAt);
    },
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
