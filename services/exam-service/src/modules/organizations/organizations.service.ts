import { AppError, ErrorCode } from '@exam/domain/errors';
import {
  type OrganizationInvitation,
  OrganizationMessages,
  type Organization,
  type OrganizationInviteCreate,
  type OrganizationRole,
  type OrganizationUpdate,
  type SsoDiscoveryResult,
  type SsoSettingsUpdate,
} from '@exam/domain/organizations';
import { decryptSecret, encryptSecret } from '@exam/server-kit/crypto';
import { and, eq } from 'drizzle-orm';
import type { ExamDatabase } from '../../db/database.ts';
import { userIdentities, users } from '../../db/schema.ts';
import type { MailQueue } from '../../adapters/mail/mail-queue.service.ts';
import type { Deps } from '../../deps.ts';
import { OidcError, type OidcClient } from '../../adapters/oidc-client.ts';
import type { Membership, OrganizationsRepository, SsoRow, Tx } from './organizations.repository.ts';

/** The admin acting on their organization (the route's guard found the membership). */
export type Actor = { userId: string; organizationId: string };

const invalid = (message: string, path?: string) =>
  new AppError(ErrorCode.VALIDATION, message, path ? [{ path, message }] : undefined);

export function createOrganizationsService(
  database: ExamDatabase,
  repo: OrganizationsRepository,
  oidc: OidcClient,
  deps: Pick<Deps, 'clock' | 'ids'> & { mail: Pick<MailQueue, 'enqueue'> },
  opts: { encryptionKey: Buffer; redirectUri: string; creatorOrigin: string },
) {
  const { db } = database;
  const hasIdentity = async (userId: string, issuer: string) =>
    (
      await db
        .select({ userId: userIdentities.userId })
        .from(userIdentities)
        .where(and(eq(userIdentities.userId, userId), eq(userIdentities.issuer, issuer)))
        .limit(1)
    ).length > 0;

  /** Whether members could still sign in at all with passwords off: single sign-on configured and enabled. */
  const ssoUsable = (sso: SsoRow | undefined): sso is SsoRow => Boolean(sso?.enabled);

  async function discover(issuer: string): Promise<Awaited<ReturnType<OidcClient['discover']>>> {
    try {
      return await oidc.discover(issuer, { fresh: true });
    } catch (err) {
      if (err instanceof OidcError) throw invalid(`${OrganizationMessages.discoveryFailed}: ${err.message}.`, 'issuer');
      throw err;
    }
  }

  /** A member removed from an organization keeps their account, in an organization of their own (as admin). */
  async function giveOwnOrganization(tx: Tx, userId: string, email: string, now: Date) {
    const id = deps.ids.next();
    await repo.insertOrganization(tx, { id, name: email, passwordSignIn: true, createdAt: now });
    await repo.insertMember(tx, { organizationId: id, userId, role: 'admin', createdAt: now });
  }

  return {
    membershipOf: (userId: string): Promise<Membership | undefined> => repo.membershipOf(userId),

    async get(organizationId: string): Promise<Organization> {
      const organization = await repo.findOrganization(organizationId);
      if (!organization) throw new AppError(ErrorCode.NOT_FOUND, OrganizationMessages.memberNotFound);
      const [members, invites, sso] = await Promise.all([
        repo.listMembers(organizationId),
        repo.listInvites(organizationId),
        repo.findSso(organizationId),
      ]);
      return {
        id: organization.id,
        name: organization.name,
        passwordSignIn: organization.passwordSignIn,
        members: members.map((m) => ({
          ...m,
          hasPassword: Boolean(m.hasPassword),
          joinedAt: m.joinedAt.toISOString(),
        })),
        invites: invites.map((i) => ({ ...i, invitedAt: i.invitedAt.toISOString() })),
        sso: sso
          ? {
              issuer: sso.issuer,
              clientId: sso.clientId,
              hasClientSecret: sso.encryptedClientSecret !== null,
              emailDomains: sso.emailDomains,
              enabled: sso.enabled,
              redirectUri: opts.redirectUri,
              updatedAt: sso.updatedAt.toISOString(),
            }
          : null,
        redirectUri: opts.redirectUri,
      };
    },

    /**
     * Password sign-in is turned off only when members can still get in: single sign-on configured and enabled, and
     * the admin doing it already linked to its provider (else the admin would lock themselves out).
     */
    async update(actor: Actor, patch: OrganizationUpdate): Promise<void> {
      if (patch.passwordSignIn === false) {
        const sso = await repo.findSso(actor.organizationId);
        if (!ssoUsable(sso)) throw invalid(OrganizationMessages.passwordOffNeedsSso, 'passwordSignIn');
        if (!(await hasIdentity(actor.userId, sso.issuer)))
          throw invalid(OrganizationMessages.passwordOffLocksYouOut, 'passwordSignIn');
      }
      await repo.updateOrganization(actor.organizationId, patch);
    },

    /**
     * An e-mail without an account is invited (the account joins when it is made). An account of another
     * organization is invited too, but never pulled out silently: it moves when its owner accepts
     * (acceptInvitation). An account already here is refused.
     */
    async invite(actor: Actor, invite: OrganizationInviteCreate): Promise<void> {
      const existing = await repo.findUserByEmail(invite.email);
      if (existing && (await repo.membershipOf(existing.id))?.organizationId === actor.organizationId)
        throw invalid(OrganizationMessages.alreadyMember, 'email');
      await repo.upsertInvite({
        organizationId: actor.organizationId,
        email: invite.email,
        role: invite.role,
        invitedBy: actor.userId,
        createdAt: deps.clock.now(),
      });
      // A plain notice with where to make the account; the invitation itself is the stored row, applied at sign-up.
      const [organization, [inviter]] = await Promise.all([
        repo.findOrganization(actor.organizationId),
        db.select({ email: users.email }).from(users).where(eq(users.id, actor.userId)).limit(1),
      ]);
      const origin = opts.creatorOrigin.replace(/\/$/, '');
      await deps.mail.enqueue([
        {
          to: invite.email,
          kind: 'organization-invite',
          subject: `${inviter?.email ?? 'An administrator'} invited you to ${organization?.name ?? 'their organization'}`,
          text: [
            `${inviter?.email ?? 'An administrator'} invited you to join ${organization?.name ?? 'their organization'} on the exam platform${
              invite.role === 'admin' ? ' as an administrator' : ''
            }.`,
            '',
            existing
              ? `Sign in and accept it on your organization page to move your account (your exams stay yours): ${origin}/creator/organization`
              : `Create your account with this e-mail address to join: ${origin}/creator/auth`,
          ].join('\n'),
        },
      ]);
    },

    async cancelInvite(actor: Actor, email: string): Promise<void> {
      if (!(await repo.deleteInvite(actor.organizationId, email.trim().toLowerCase())))
        throw new AppError(ErrorCode.NOT_FOUND, OrganizationMessages.inviteNotFound);
    },

    /** The organization keeps at least one admin: the last one cannot be demoted (checked under the row's lock). */
    async setRole(actor: Actor, userId: string, role: OrganizationRole): Promise<void> {
      await repo.transaction(async (tx) => {
        await repo.lockOrganization(tx, actor.organizationId);
        const target = await repo.membershipOf(userId, tx);
        if (target?.organizationId !== actor.organizationId)
          throw new AppError(ErrorCode.NOT_FOUND, OrganizationMessages.memberNotFound);
        if (target.role === 'admin' && role !== 'admin' && (await repo.countAdmins(tx, actor.organizationId)) <= 1)
          throw invalid(OrganizationMessages.lastAdmin, 'role');
        await repo.setMemberRole(tx, actor.organizationId, userId, role);
      });
    },

    async removeMember(actor: Actor, userId: string, email: string): Promise<void> {
      await repo.transaction(async (tx) => {
        await repo.lockOrganization(tx, actor.organizationId);
        const target = await repo.membershipOf(userId, tx);
        if (target?.organizationId !== actor.organizationId)
          throw new AppError(ErrorCode.NOT_FOUND, OrganizationMessages.memberNotFound);
        if (target.role === 'admin' && (await repo.countAdmins(tx, actor.organizationId)) <= 1)
          throw invalid(OrganizationMessages.lastAdmin);
        await repo.removeMember(tx, actor.organizationId, userId);
        await giveOwnOrganization(tx, userId, email, deps.clock.now());
      });
    },

    /** The invitations to other organizations waiting for the creator. */
    async invitationsOf(userId: string): Promise<OrganizationInvitation[]> {
      const email = await repo.emailOf(userId);
      const membership = await repo.membershipOf(userId);
      const rows = email ? await repo.invitationsTo(email) : [];
      return rows
        .filter((r) => r.organizationId !== membership?.organizationId)
        .map((r) => ({ ...r, invitedAt: r.invitedAt.toISOString() }));
    },

    /**
     * Moves the creator into the inviting organization in the invitation's role. Their exams, shares and sign-in
     * stay theirs (exams belong to accounts, not organizations). They leave their organization, which is deleted when
     * nobody is left in it; a last admin leaving others behind is refused (409), as removing them would be.
     * Both organizations are locked, in id order, so concurrent moves and removals apply one after the other.
     */
    async acceptInvitation(userId: string, organizationId: string): Promise<void> {
      const email = await repo.emailOf(userId);
      await repo.transaction(async (tx) => {
        const before = await repo.membershipOf(userId, tx);
        for (const id of [organizationId, before?.organizationId].filter((v): v is string => !!v).sort())
          await repo.lockOrganization(tx, id);
        const current = await repo.membershipOf(userId, tx);
        const invitation = email ? await repo.pendingInvite(tx, email, organizationId) : undefined;
        if (!email || !invitation || current?.organizationId === organizationId)
          throw new AppError(ErrorCode.NOT_FOUND, OrganizationMessages.invitationNotFound);
        const now = deps.clock.now();
        if (current) {
          const others = (await repo.countMembers(tx, current.organizationId)) - 1;
          if (current.role === 'admin' && others > 0 && (await repo.countAdmins(tx, current.organizationId)) <= 1)
            throw new AppError(ErrorCode.CONFLICT, OrganizationMessages.lastAdminLeaving);
          await repo.removeMember(tx, current.organizationId, userId);
          if (others === 0) await repo.deleteOrganization(tx, current.organizationId);
        }
        await repo.insertMember(tx, { organizationId, userId, role: invitation.role, createdAt: now });
        await repo.acceptInvite(tx, organizationId, email, now);
      });
    },

    async declineInvitation(userId: string, organizationId: string): Promise<void> {
      const email = await repo.emailOf(userId);
      if (!email || !(await repo.deleteInvite(organizationId, email)))
        throw new AppError(ErrorCode.NOT_FOUND, OrganizationMessages.invitationNotFound);
    },

    async discoverIssuer(issuer: string): Promise<SsoDiscoveryResult> {
      const found = await discover(issuer);
      return {
        issuer: found.issuer,
        authorizationEndpoint: found.authorizationEndpoint,
        tokenEndpoint: found.tokenEndpoint,
        jwksUri: found.jwksUri,
        supportsPkceS256: found.codeChallengeMethods.includes('S256'),
      };
    },

    /**
     * Saves the provider after fetching its discovery document (a wrong issuer is refused, with the reason). The
     * secret is kept encrypted; omitted it stays, null removes it.
     */
    async putSso(actor: Actor, settings: SsoSettingsUpdate): Promise<void> {
      await discover(settings.issuer);
      const organization = await repo.findOrganization(actor.organizationId);
      const current = await repo.findSso(actor.organizationId);
      if (organization && !organization.passwordSignIn && (!settings.enabled || current?.issuer !== settings.issuer))
        throw invalid(OrganizationMessages.ssoDisableNeedsPasswords, 'enabled');
      const domains = [...new Set(settings.emailDomains)];
      if (await repo.domainOwner(domains, actor.organizationId))
        throw new AppError(ErrorCode.CONFLICT, OrganizationMessages.domainTaken, [
          { path: 'emailDomains', message: OrganizationMessages.domainTaken },
        ]);
      const encryptedClientSecret =
        settings.clientSecret === undefined
          ? (current?.encryptedClientSecret ?? null)
          : settings.clientSecret === null
            ? null
            : encryptSecret(settings.clientSecret, opts.encryptionKey);
      await repo.upsertSso({
        organizationId: actor.organizationId,
        issuer: settings.issuer,
        clientId: settings.clientId,
        encryptedClientSecret,
        emailDomains: domains,
        enabled: settings.enabled,
        updatedAt: deps.clock.now(),
      });
    },

    /** The provider's client credentials for a sign-in (the secret decrypted), when single sign-on is enabled. */
    async ssoClientOf(sso: SsoRow) {
      return {
        organizationId: sso.organizationId,
        issuer: sso.issuer,
        clientId: sso.clientId,
        clientSecret: sso.encryptedClientSecret
          ? decryptSecret(sso.encryptedClientSecret, opts.encryptionKey)
          : undefined,
      };
    },
  };
}
export type OrganizationsService = ReturnType<typeof createOrganizationsService>;
