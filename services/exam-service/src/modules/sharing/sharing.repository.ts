import { and, eq } from 'drizzle-orm';
import type { SharedRole } from '@exam/domain/roles';
import type { ExamInviteView, ExamMemberView } from '@exam/domain/sharing';
import type { ExamDatabase } from '../../db/database.ts';
import { examMemberInvites, examMembers, users } from '../../db/schema.ts';

export type NewMember = { examId: string; userId: string; role: SharedRole; mayRelease: boolean; addedBy: string };
export type NewInvite = { examId: string; email: string; role: SharedRole; mayRelease: boolean; invitedBy: string };

/** An exam's members (exam_members) and pending invites (exam_member_invites); queries only. */
export function createSharingRepository({ db }: ExamDatabase) {
  const memberColumns = {
    creatorId: examMembers.userId,
    email: users.email,
    role: examMembers.role,
    mayRelease: examMembers.mayRelease,
    createdAt: examMembers.createdAt,
  };
  const toMember = (r: {
    creatorId: string;
    email: string;
    role: SharedRole;
    mayRelease: boolean;
    createdAt: Date;
  }) => ({
    creatorId: r.creatorId,
    email: r.email,
    role: r.role,
    mayRelease: r.mayRelease,
    addedAt: r.createdAt.toISOString(),
  });
  const toInvite = (r: typeof examMemberInvites.$inferSelect): ExamInviteView => ({
    email: r.email,
    role: r.role,
    mayRelease: r.mayRelease,
    invitedAt: r.createdAt.toISOString(),
  });
  const one = (examId: string, creatorId: string) =>
    and(eq(examMembers.examId, examId), eq(examMembers.userId, creatorId));
  const oneInvite = (examId: string, email: string) =>
    and(eq(examMemberInvites.examId, examId), eq(examMemberInvites.email, email));

  return {
    async findUserByEmail(email: string): Promise<{ id: string; email: string } | undefined> {
      const [row] = await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.email, email));
      return row;
    },
    async findUserEmail(id: string): Promise<string | undefined> {
      const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, id));
      return row?.email;
    },
    async listMembers(examId: string): Promise<ExamMemberView[]> {
      const rows = await db
        .select(memberColumns)
        .from(examMembers)
        .innerJoin(users, eq(users.id, examMembers.userId))
        .where(eq(examMembers.examId, examId))
        .orderBy(examMembers.createdAt);
      return rows.map(toMember);
    },
    async findMember(examId: string, creatorId: string): Promise<ExamMemberView | undefined> {
      const [row] = await db
        .select(memberColumns)
        .from(examMembers)
        .innerJoin(users, eq(users.id, examMembers.userId))
        .where(one(examId, creatorId));
      return row && toMember(row);
    },
    async listInvites(examId: string): Promise<ExamInviteView[]> {
      const rows = await db
        .select()
        .from(examMemberInvites)
        .where(eq(examMemberInvites.examId, examId))
        .orderBy(examMemberInvites.createdAt);
      return rows.map(toInvite);
    },
    /** False when the creator is a member already (the primary key). */
    async insertMember(member: NewMember, now: Date): Promise<boolean> {
      const rows = await db
        .insert(examMembers)
        .values({ ...member, createdAt: now })
        .onConflictDoNothing()
        .returning({ id: examMembers.userId });
      return rows.length > 0;
    },
    /** False when the e-mail is invited already (the primary key). */
    async insertInvite(invite: NewInvite, now: Date): Promise<ExamInviteView | undefined> {
      const [row] = await db
        .insert(examMemberInvites)
        .values({ ...invite, createdAt: now })
        .onConflictDoNothing()
        .returning();
      return row && toInvite(row);
    },
    async updateMember(examId: string, creatorId: string, patch: { role: SharedRole; mayRelease: boolean }) {
      const rows = await db.update(examMembers).set(patch).where(one(examId, creatorId)).returning();
      return rows.length > 0;
    },
    async deleteMember(examId: string, creatorId: string): Promise<boolean> {
      const rows = await db.delete(examMembers).where(one(examId, creatorId)).returning();
      return rows.length > 0;
    },
    async deleteInvite(examId: string, email: string): Promise<ExamInviteView | undefined> {
      const [row] = await db.delete(examMemberInvites).where(oneInvite(examId, email)).returning();
      return row && toInvite(row);
    },
  };
}
export type SharingRepository = ReturnType<typeof createSharingRepository>;
