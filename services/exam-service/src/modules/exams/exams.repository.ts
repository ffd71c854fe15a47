import type { ExamGrantRow } from '@exam/domain/internal';
import { and, desc, eq, gte, isNotNull, lte, or, sql } from 'drizzle-orm';
import type { ExamDatabase } from '../../db/database.ts';
import type { ExamMember, SharedRole } from '@exam/domain/roles';
import { examMembers, exams, rosterEntries, users } from '../../db/schema.ts';

export type ExamRow = typeof exams.$inferSelect;
export type NewExamRow = typeof exams.$inferInsert;
export type ExamPatch = Partial<Omit<NewExamRow, 'id' | 'ownerId' | 'createdAt'>>;

/** The caller's place on an exam when it is shared with them (exam_members), for roleOn (@exam/domain/roles). */
export type MemberGrant = { role: SharedRole; mayRelease: boolean };
export type ExamWithMember = { row: ExamRow; member: MemberGrant | null };

/**
 * Creator-facing reads take the creator and answer the exam with the creator's membership, if any; whether that
 * creator may see or change it is decided by exam-access.ts alone (roles.ts), never by a filter here.
 */
export function createExamsRepository({ db }: ExamDatabase) {
  const membership = (creatorId: string) => and(eq(examMembers.examId, exams.id), eq(examMembers.userId, creatorId));
  const grantOf = (row: { role: SharedRole | null; mayRelease: boolean | null }): MemberGrant | null =>
    row.role === null ? null : { role: row.role, mayRelease: row.mayRelease ?? false };
  return {
    async insert(row: NewExamRow): Promise<ExamRow> {
      const [inserted] = await db.insert(exams).values(row).returning();
      if (!inserted) throw new Error('insert returned no row');
      return inserted;
    },
    /** The exam with the creator's membership (null when they are not a member: the owner, or nobody to it). */
    async findWithMember(id: string, creatorId: string): Promise<ExamWithMember | undefined> {
      const [found] = await db
        .select({ row: exams, role: examMembers.role, mayRelease: examMembers.mayRelease })
        .from(exams)
        .leftJoin(examMembers, membership(creatorId))
        .where(eq(exams.id, id))
        .limit(1);
      return found && { row: found.row, member: grantOf(found) };
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
    /** The exams shared with a creator in a role (exam_members), for the other services' cross-exam listings. */
    async findGrants(creatorId: string): Promise<ExamGrantRow[]> {
      return db
        .select({ examId: examMembers.examId, role: examMembers.role, mayRelease: examMembers.mayRelease })
        .from(examMembers)
        .where(eq(examMembers.userId, creatorId))
        .orderBy(examMembers.createdAt);
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
    /** The creator's own exams and those shared with them, newest first, each with the creator's membership. */
    async listForCreator(creatorId: string): Promise<ExamWithMember[]> {
      const found = await db
        .select({ row: exams, role: examMembers.role, mayRelease: examMembers.mayRelease })
        .from(exams)
        .leftJoin(examMembers, membership(creatorId))
        .where(or(eq(exams.ownerId, creatorId), isNotNull(examMembers.userId)))
        .orderBy(desc(exams.createdAt), desc(exams.id));
      return found.map((f) => ({ row: f.row, member: grantOf(f) }));
    },
    /** Unscoped: callers have checked the creator's role first (exam-access.ts). */
    async updateById(id: string, patch: ExamPatch): Promise<ExamRow | undefined> {
      const [row] = await db.update(exams).set(patch).where(eq(exams.id, id)).returning();
      return row;
    },
    /** Unscoped: callers have checked the creator's role first (exam-access.ts). */
    async deleteById(id: string): Promise<boolean> {
      const rows = await db.delete(exams).where(eq(exams.id, id)).returning({ id: exams.id });
      return rows.length > 0;
    },
  };
}
export type ExamsRepository = ReturnType<typeof createExamsRepository>;
