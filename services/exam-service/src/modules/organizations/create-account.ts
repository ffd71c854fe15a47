import type { User } from '@exam/domain/auth';
import { examMemberInvites, examMembers, userIdentities, users } from '../../db/schema.ts';
import { eq } from 'drizzle-orm';
import type { Deps } from '../../deps.ts';
import type { OrganizationsRepository, Tx } from './organizations.repository.ts';

export type NewAccount = {
  email: string;
  /** Null for an account made by single sign-on (no password until a reset sets one). */
  passwordHash: string | null;
  /** Single sign-on: the organization whose provider vouched for the person, and the identity to link. */
  sso?: { organizationId: string; issuer: string; subject: string };
};

/**
 * The one way a creator account comes to exist (sign-up and single sign-on), in one transaction:
 * - its organization: the single sign-on's organization (as invited there, else member), else the organization of a
 *   pending invitation for the e-mail (in the invited role), else a new organization of its own, as admin;
 * - the identity provider's subject, for single sign-on;
 * - the exams already shared with the e-mail (exam_member_invites) become exam_members rows, added by whoever
 *   invited, and the invitations are spent.
 * Answers undefined when the e-mail already has an account (a concurrent sign-up included): nothing is written.
 */
export function createAccountCreator(repo: OrganizationsRepository, deps: Pick<Deps, 'clock' | 'ids'>) {
  return async function createAccount(account: NewAccount): Promise<User | undefined> {
    return repo.transaction(async (tx) => {
      const now = deps.clock.now();
      const [row] = await tx
        .insert(users)
        .values({ id: deps.ids.next(), email: account.email, passwordHash: account.passwordHash, createdAt: now })
        .onConflictDoNothing({ target: users.email })
        .returning();
      if (!row) return undefined;
      await placeInOrganization(tx, row.id, account, now);
      if (account.sso)
        await tx
          .insert(userIdentities)
          .values({ issuer: account.sso.issuer, subject: account.sso.subject, userId: row.id, createdAt: now });
      await acceptExamInvites(tx, row.id, account.email, now);
      return { id: row.id, email: row.email, createdAt: row.createdAt.toISOString() };
    });
  };

  async function placeInOrganization(tx: Tx, userId: string, account: NewAccount, now: Date) {
    const invite = await repo.pendingInvite(tx, account.email, account.sso?.organizationId);
    const organizationId = account.sso?.organizationId ?? invite?.organizationId;
    if (organizationId) {
      if (invite) await repo.acceptInvite(tx, invite.organizationId, invite.email, now);
      await repo.insertMember(tx, { organizationId, userId, role: invite?.role ?? 'member', createdAt: now });
      return;
    }
    const own = deps.ids.next();
    // Named after its first admin, as migration 0017 named every existing creator's; the admin renames it.
    await repo.insertOrganization(tx, { id: own, name: account.email, passwordSignIn: true, createdAt: now });
    await repo.insertMember(tx, { organizationId: own, userId, role: 'admin', createdAt: now });
  }

  async function acceptExamInvites(tx: Tx, userId: string, email: string, now: Date) {
    const invites = await tx.select().from(examMemberInvites).where(eq(examMemberInvites.email, email));
    if (invites.length === 0) return;
    await tx
      .insert(examMembers)
      .values(
        invites.map((invite) => ({
          examId: invite.examId,
          userId,
          role: invite.role,
          mayRelease: invite.mayRelease,
          addedBy: invite.invitedBy,
          createdAt: now,
        })),
      )
      .onConflictDoNothing();
    await tx.delete(examMemberInvites).where(eq(examMemberInvites.email, email));
  }
}
export type CreateAccount = ReturnType<typeof createAccountCreator>;
