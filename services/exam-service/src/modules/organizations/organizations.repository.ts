import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { OrganizationRole } from '@exam/domain/organizations';
import type { ExamDatabase } from '../../db/database.ts';
import { organizationInvites, organizationMembers, organizations, organizationSso, users } from '../../db/schema.ts';

/** A transaction or the database itself (drizzle's transaction has the same query API). */
export type Tx = ExamDatabase['db'];

export type Membership = { organizationId: string; role: OrganizationRole };
export type SsoRow = typeof organizationSso.$inferSelect;

export function createOrganizationsRepository({ db }: ExamDatabase) {
  return {
    transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
      return db.transaction((tx) => work(tx as unknown as Tx));
    },
    async membershipOf(userId: string, tx: Tx = db): Promise<Membership | undefined> {
      const [row] = await tx
        .select({ organizationId: organizationMembers.organizationId, role: organizationMembers.role })
        .from(organizationMembers)
        .where(eq(organizationMembers.userId, userId))
        .limit(1);
      return row;
    },
    /** Whether the user's organization lets them sign in with a password (true when they have no organization). */
    async passwordSignInAllowed(userId: string): Promise<boolean> {
      const [row] = await db
        .select({ passwordSignIn: organizations.passwordSignIn })
        .from(organizationMembers)
        .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
        .where(eq(organizationMembers.userId, userId))
        .limit(1);
      return row?.passwordSignIn ?? true;
    },
    /** The organization of a pending invitation for the e-mail, as a sign-up would join it. */
    async invitedOrganization(email: string) {
      const invite = await this.pendingInvite(db, email);
      return invite ? this.findOrganization(invite.organizationId) : undefined;
    },
    async findOrganization(id: string, tx: Tx = db) {
      const [row] = await tx.select().from(organizations).where(eq(organizations.id, id)).limit(1);
      return row;
    },
    /** Locks the organization's row until the transaction ends, so two admins' changes to its admins serialise. */
    async lockOrganization(tx: Tx, id: string): Promise<void> {
      await tx.execute(sql`select 1 from ${organizations} where ${organizations.id} = ${id} for update`);
    },
    async insertOrganization(tx: Tx, row: typeof organizations.$inferInsert): Promise<void> {
      await tx.insert(organizations).values(row);
    },
    async updateOrganization(id: string, patch: { name?: string; passwordSignIn?: boolean }, tx: Tx = db) {
      if (Object.keys(patch).length === 0) return;
      await tx.update(organizations).set(patch).where(eq(organizations.id, id));
    },
    listMembers(organizationId: string) {
      return db
        .select({
          userId: users.id,
          email: users.email,
          role: organizationMembers.role,
          joinedAt: organizationMembers.createdAt,
          hasPassword: sql<boolean>`${users.passwordHash} is not null`,
        })
        .from(organizationMembers)
        .innerJoin(users, eq(users.id, organizationMembers.userId))
        .where(eq(organizationMembers.organizationId, organizationId))
        .orderBy(asc(organizationMembers.createdAt), asc(users.email));
    },
    async countAdmins(tx: Tx, organizationId: string): Promise<number> {
      const [row] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(organizationMembers)
        .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.role, 'admin')));
      return row?.n ?? 0;
    },
    async countMembers(tx: Tx, organizationId: string): Promise<number> {
      const [row] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(organizationMembers)
        .where(eq(organizationMembers.organizationId, organizationId));
      return row?.n ?? 0;
    },
    /** An organization nobody is in any more (its invitations and single sign-on go with it, by cascade). */
    async deleteOrganization(tx: Tx, id: string): Promise<void> {
      await tx.delete(organizations).where(eq(organizations.id, id));
    },
    /** The pending invitations to an e-mail, with the inviting organization's name, oldest first. */
    async invitationsTo(email: string) {
      return db
        .select({
          organizationId: organizationInvites.organizationId,
          organizationName: organizations.name,
          role: organizationInvites.role,
          invitedAt: organizationInvites.createdAt,
        })
        .from(organizationInvites)
        .innerJoin(organizations, eq(organizations.id, organizationInvites.organizationId))
        .where(and(eq(organizationInvites.email, email), isNull(organizationInvites.acceptedAt)))
        .orderBy(asc(organizationInvites.createdAt));
    },
    async emailOf(userId: string): Promise<string | undefined> {
      const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
      return row?.email;
    },
    async insertMember(tx: Tx, row: typeof organizationMembers.$inferInsert): Promise<void> {
      await tx.insert(organizationMembers).values(row);
    },
    async setMemberRole(tx: Tx, organizationId: string, userId: string, role: OrganizationRole): Promise<boolean> {
      const updated = await tx
        .update(organizationMembers)
        .set({ role })
        .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)))
        .returning({ userId: organizationMembers.userId });
      return updated.length > 0;
    },
    async removeMember(tx: Tx, organizationId: string, userId: string): Promise<boolean> {
      const removed = await tx
        .delete(organizationMembers)
        .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)))
        .returning({ userId: organizationMembers.userId });
      return removed.length > 0;
    },
    async findUserByEmail(email: string) {
      const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
      return row;
    },
    listInvites(organizationId: string) {
      return db
        .select({
          email: organizationInvites.email,
          role: organizationInvites.role,
          invitedAt: organizationInvites.createdAt,
        })
        .from(organizationInvites)
        .where(and(eq(organizationInvites.organizationId, organizationId), isNull(organizationInvites.acceptedAt)))
        .orderBy(asc(organizationInvites.createdAt));
    },
    /** The oldest pending invitation for the e-mail, if any (optionally only the given organization's). */
    async pendingInvite(tx: Tx, email: string, organizationId?: string) {
      const [row] = await tx
        .select()
        .from(organizationInvites)
        .where(
          and(
            eq(organizationInvites.email, email),
            isNull(organizationInvites.acceptedAt),
            organizationId ? eq(organizationInvites.organizationId, organizationId) : undefined,
          ),
        )
        .orderBy(asc(organizationInvites.createdAt))
        .limit(1);
      return row;
    },
    async upsertInvite(row: typeof organizationInvites.$inferInsert): Promise<void> {
      await db
        .insert(organizationInvites)
        .values(row)
        .onConflictDoUpdate({
          target: [organizationInvites.organizationId, organizationInvites.email],
          set: { role: row.role, invitedBy: row.invitedBy, createdAt: row.createdAt, acceptedAt: null },
        });
    },
    async acceptInvite(tx: Tx, organizationId: string, email: string, at: Date): Promise<void> {
      await tx
        .update(organizationInvites)
        .set({ acceptedAt: at })
        .where(and(eq(organizationInvites.organizationId, organizationId), eq(organizationInvites.email, email)));
    },
    async deleteInvite(organizationId: string, email: string): Promise<boolean> {
      const deleted = await db
        .delete(organizationInvites)
        .where(
          and(
            eq(organizationInvites.organizationId, organizationId),
            eq(organizationInvites.email, email),
            isNull(organizationInvites.acceptedAt),
          ),
        )
        .returning({ email: organizationInvites.email });
      return deleted.length > 0;
    },
    async findSso(organizationId: string, tx: Tx = db): Promise<SsoRow | undefined> {
      const [row] = await tx.select().from(organizationSso).where(eq(organizationSso.organizationId, organizationId));
      return row;
    },
    /** The enabled provider that signs in e-mails of this domain. */
    async findSsoByDomain(domain: string): Promise<SsoRow | undefined> {
      const [row] = await db
        .select()
        .from(organizationSso)
        .where(
          and(
            eq(organizationSso.enabled, true),
            sql`${organizationSso.emailDomains} @> ${JSON.stringify([domain])}::jsonb`,
          ),
        )
        .limit(1);
      return row;
    },
    /** Another organization's provider claiming one of these domains (enabled or not). */
    async domainOwner(domains: string[], exceptOrganizationId: string): Promise<string | undefined> {
      if (domains.length === 0) return undefined;
      const [row] = await db
        .select({ organizationId: organizationSso.organizationId })
        .from(organizationSso)
        .where(
          and(
            sql`${organizationSso.organizationId} <> ${exceptOrganizationId}`,
            sql`${organizationSso.emailDomains} ?| array[${sql.join(
              domains.map((d) => sql`${d}`),
              sql`, `,
            )}]::text[]`,
          ),
        )
        .limit(1);
      return row?.organizationId;
    },
    async upsertSso(row: typeof organizationSso.$inferInsert, tx: Tx = db): Promise<void> {
      await tx
        .insert(organizationSso)
        .values(row)
        .onConflictDoUpdate({
          target: organizationSso.organizationId,
          set: {
            issuer: row.issuer,
            clientId: row.clientId,
            encryptedClientSecret: row.encryptedClientSecret ?? null,
            emailDomains: row.emailDomains,
            enabled: row.enabled,
            updatedAt: row.updatedAt,
          },
        });
    },
  };
}
export type OrganizationsRepository = ReturnType<typeof createOrganizationsRepository>;
