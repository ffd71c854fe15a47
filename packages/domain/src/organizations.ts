import { z } from 'zod';
import { UserSchema } from './auth.ts';

/**
 * Organizations and their single sign-on (OpenID Connect). Every creator belongs to exactly one organization; its
 * admins manage members, invitations, whether passwords may be used, and the identity provider.
 */

const EmailSchema = z
  .email({ error: (issue) => (issue.input === '' ? 'Enter an email' : 'Enter a valid email address') })
  .max(320)
  .transform((e) => e.trim().toLowerCase());

export const OrganizationRoleSchema = z.enum(['admin', 'member']);
export type OrganizationRole = z.infer<typeof OrganizationRoleSchema>;

export const OrganizationMemberSchema = z.object({
  userId: z.string(),
  email: z.string(),
  role: OrganizationRoleSchema,
  joinedAt: z.string(),
  /** Whether the account can sign in with a password at all (accounts made by single sign-on have none). */
  hasPassword: z.boolean(),
});
export type OrganizationMember = z.infer<typeof OrganizationMemberSchema>;

export const OrganizationInviteSchema = z.object({
  email: z.string(),
  role: OrganizationRoleSchema,
  invitedAt: z.string(),
});
export type OrganizationInvite = z.infer<typeof OrganizationInviteSchema>;

/** The identity provider as admins see it: never the client secret, only whether one is stored. */
export const SsoSettingsSchema = z.object({
  issuer: z.string(),
  clientId: z.string(),
  hasClientSecret: z.boolean(),
  emailDomains: z.array(z.string()),
  enabled: z.boolean(),
  /** Where the provider must send the browser back: register it with the provider. */
  redirectUri: z.string(),
  updatedAt: z.string(),
});
export type SsoSettings = z.infer<typeof SsoSettingsSchema>;

export const OrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  passwordSignIn: z.boolean(),
  members: z.array(OrganizationMemberSchema),
  invites: z.array(OrganizationInviteSchema),
  sso: SsoSettingsSchema.nullable(),
  /** The redirect URI to register with a provider before single sign-on is configured. */
  redirectUri: z.string(),
});
export type Organization = z.infer<typeof OrganizationSchema>;

export const OrganizationUpdateSchema = z
  .object({
    name: z.string().trim().min(1, 'Enter a name').max(200).optional(),
    passwordSignIn: z.boolean().optional(),
  })
  .strict();
export type OrganizationUpdate = z.infer<typeof OrganizationUpdateSchema>;

export const OrganizationInviteCreateSchema = z.object({ email: EmailSchema, role: OrganizationRoleSchema });
export type OrganizationInviteCreate = z.infer<typeof OrganizationInviteCreateSchema>;

export const OrganizationMemberUpdateSchema = z.object({ role: OrganizationRoleSchema });

/** A host name as an e-mail carries it after the `@` (no scheme, no port). */
const EmailDomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/, {
    error: 'Enter a domain such as example.edu',
  });

const IssuerSchema = z
  .url({ protocol: /^https?$/, error: 'Enter the issuer URL, such as https://login.example.edu' })
  .max(500)
  .transform((value) => value.replace(/\/+$/, ''));

export const SsoSettingsUpdateSchema = z.object({
  issuer: IssuerSchema,
  clientId: z.string().trim().min(1, 'Enter the client ID').max(500),
  /** Omitted: keep the stored secret; null: remove it (a public client, PKCE only); a string: replace it. */
  clientSecret: z.string().min(1).max(2000).nullable().optional(),
  emailDomains: z.array(EmailDomainSchema).max(50),
  enabled: z.boolean(),
});
export type SsoSettingsUpdate = z.infer<typeof SsoSettingsUpdateSchema>;

export const SsoDiscoveryRequestSchema = z.object({ issuer: IssuerSchema });

/** What an issuer's discovery document says, as the "Test" button shows it. */
export const SsoDiscoveryResultSchema = z.object({
  issuer: z.string(),
  authorizationEndpoint: z.string(),
  tokenEndpoint: z.string(),
  jwksUri: z.string(),
  supportsPkceS256: z.boolean(),
});
export type SsoDiscoveryResult = z.infer<typeof SsoDiscoveryResultSchema>;

/** Starts a single sign-on: by the e-mail's domain, or by the organization directly. */
export const SsoStartSchema = z.union([
  z.object({ email: EmailSchema }).strict(),
  z.object({ organizationId: z.string().min(1).max(200) }).strict(),
]);
export type SsoStart = z.infer<typeof SsoStartSchema>;

export const SsoStartResponseSchema = z.object({ authorizationUrl: z.string() });

/** The one-time ticket the callback hands to the creator app (in the URL fragment), exchanged for a session. */
export const SsoSessionRequestSchema = z.object({ ticket: z.string().min(1).max(200) });
export const SsoSessionResponseSchema = z.object({ token: z.string(), user: UserSchema });

/** Why a sign-in through the provider ended without a session: the creator app names it (`/sso-callback#error=`). */
export const SsoFailure = {
  /** The sign-in took too long, was already used, or did not start here. */
  expired: 'expired',
  /** The provider refused (the person cancelled, or is not allowed to use this application). */
  denied: 'denied',
  /** The provider's answer could not be verified (token exchange, ID token). */
  invalid: 'invalid',
  /** The identity cannot be linked to an account here (an account of another organization, an unverified e-mail). */
  notLinked: 'not-linked',
} as const;
export type SsoFailure = (typeof SsoFailure)[keyof typeof SsoFailure];

/**
 * An invitation to another organization waiting for the signed-in creator (GET /api/organization/invitations).
 * Accepting moves the account: it leaves its organization (its exams stay its own) and joins this one in `role`.
 */
export const OrganizationInvitationSchema = z.object({
  organizationId: z.string(),
  organizationName: z.string(),
  role: OrganizationRoleSchema,
  invitedAt: z.string(),
});
export type OrganizationInvitation = z.infer<typeof OrganizationInvitationSchema>;
export const OrganizationInvitationListSchema = z.object({ invitations: z.array(OrganizationInvitationSchema) });

export const OrganizationMessages = {
  notAdmin: 'Only an admin of the organization can do this.',
  lastAdmin: 'The organization needs at least one admin: make another member an admin first.',
  passwordOffNeedsSso:
    'Password sign-in can only be turned off once single sign-on is configured and enabled; otherwise nobody could sign in.',
  passwordOffLocksYouOut:
    'Turning password sign-in off would lock you out: sign in once through single sign-on so your account is linked to the provider, then turn passwords off.',
  ssoDisableNeedsPasswords:
    'Single sign-on cannot be disabled while password sign-in is off; otherwise nobody could sign in. Turn password sign-in on first.',
  alreadyMember: 'That person is already a member of this organization.',
  invitationNotFound: 'No pending invitation to that organization.',
  lastAdminLeaving:
    'You are the last admin of your current organization and others are still in it: make another member an admin before you move.',
  memberNotFound: 'No such member in this organization.',
  inviteNotFound: 'No pending invitation for that e-mail.',
  domainTaken: 'Another organization already signs in people of that e-mail domain.',
  discoveryFailed: 'The issuer did not answer with a valid OpenID Connect discovery document',
  noSsoForEmail: 'No organization signs in that e-mail domain with single sign-on. Sign in with your password.',
  ssoNotConfigured: 'This organization has no single sign-on enabled.',
  passwordSignInOff:
    'Your organization signs in through its identity provider: use "Sign in with your organization (SSO)".',
  ticketInvalid: 'This sign-in link has expired or was already used. Sign in again.',
} as const;
