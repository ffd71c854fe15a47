import { createHash, randomBytes } from 'node:crypto';
import type { User } from '@exam/domain/auth';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { OrganizationMessages, SsoFailure, type SsoStart } from '@exam/domain/organizations';
import type { Deps } from '../../deps.ts';
import { OidcError, type OidcClient } from '../../adapters/oidc-client.ts';
import type { CreateAccount } from '../organizations/create-account.ts';
import type { OrganizationsRepository } from '../organizations/organizations.repository.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';
import type { AuthRepository } from './auth.repository.ts';
import type { SsoRepository } from './sso.repository.ts';

/** A sign-in must come back from the provider within this time (the state, verifier and nonce are then forgotten). */
export const SSO_STATE_TTL_MS = 10 * 60 * 1000;
/** The ticket the callback hands to the creator app is exchanged right away by its page. */
export const SSO_TICKET_TTL_MS = 2 * 60 * 1000;

const random = () => randomBytes(32).toString('base64url');
const sha256 = (value: string) => createHash('sha256').update(value).digest();
export const hashState = (value: string) => sha256(value).toString('hex');

/** Ends a sign-in without a session; the creator app shows why (SsoFailure). */
export class SsoSignInError extends Error {
  readonly reason: SsoFailure;
  constructor(reason: SsoFailure, detail: string) {
    super(detail);
    this.name = 'SsoSignInError';
    this.reason = reason;
  }
}

/**
 * Sign-in through the organization's OpenID Connect provider (ARCHITECTURE.md "Creator sessions"): authorization
 * code with PKCE (S256), state and nonce kept hashed in the database for any replica; the ID token verified by
 * adapters/oidc-client.ts; the identity linked by subject, else by a verified e-mail of an account in this
 * organization, else a new account in the organization. The session goes to the creator app as a one-time ticket
 * in the URL fragment, as an LTI launch does.
 */
export function createSsoService(
  repo: SsoRepository,
  users: AuthRepository,
  organizations: { service: OrganizationsService; repo: OrganizationsRepository; createAccount: CreateAccount },
  oidc: OidcClient,
  deps: Pick<Deps, 'clock'>,
  opts: { redirectUri: string; creatorOrigin: string },
) {
  const landing = (fragment: Record<string, string>) =>
    `${new URL(opts.creatorOrigin).origin}/sso-callback#${new URLSearchParams(fragment).toString()}`;

  async function providerOf(input: SsoStart) {
    if ('email' in input) {
      const domain = input.email.slice(input.email.lastIndexOf('@') + 1);
      const sso = await organizations.repo.findSsoByDomain(domain);
      if (!sso) throw new AppError(ErrorCode.NOT_FOUND, OrganizationMessages.noSsoForEmail);
      return sso;
    }
    const sso = await organizations.repo.findSso(input.organizationId);
    if (!sso?.enabled) throw new AppError(ErrorCode.NOT_FOUND, OrganizationMessages.ssoNotConfigured);
    return sso;
  }

  async function discover(issuer: string) {
    try {
      return await oidc.discover(issuer);
    } catch (err) {
      if (err instanceof OidcError)
        throw new AppError(ErrorCode.UPSTREAM, `Your organization's identity provider did not answer: ${err.message}.`);
      throw err;
    }
  }

  /** Which account the verified identity signs in to, linking or creating it as the rules allow. */
  async function accountFor(
    sso: { organizationId: string; issuer: string },
    claims: { sub: string; email?: unknown; email_verified?: unknown },
    now: Date,
  ): Promise<User> {
    const linked = await repo.findIdentityOwner(sso.issuer, claims.sub);
    if (linked) {
      const found = await users.findById(linked);
      if (found) return { id: found.id, email: found.email, createdAt: found.createdAt };
    }
    if (typeof claims.email !== 'string' || !claims.email.includes('@'))
      throw new SsoSignInError(SsoFailure.invalid, 'The ID token carries no e-mail');
    const email = claims.email.trim().toLowerCase();
    const existing = await users.findByEmail(email);
    if (existing) {
      // Linking hands the account to whoever controls this identity: only for an address the provider verified,
      // and only an account of this organization (another organization's account is never taken over).
      if (claims.email_verified !== true)
        throw new SsoSignInError(SsoFailure.notLinked, 'The e-mail is not verified by the provider');
      const membership = await organizations.repo.membershipOf(existing.id);
      if (membership && membership.organizationId !== sso.organizationId)
        throw new SsoSignInError(SsoFailure.notLinked, 'The account belongs to another organization');
      if (!(await repo.linkIdentity({ issuer: sso.issuer, subject: claims.sub, userId: existing.id, createdAt: now })))
        throw new SsoSignInError(SsoFailure.notLinked, 'The identity was linked to another account meanwhile');
      return { id: existing.id, email: existing.email, createdAt: existing.createdAt };
    }
    const created = await organizations.createAccount({
      email,
      passwordHash: null,
      sso: { organizationId: sso.organizationId, issuer: sso.issuer, subject: claims.sub },
    });
    if (!created) throw new SsoSignInError(SsoFailure.notLinked, 'An account for the e-mail was made meanwhile');
    return created;
  }

  return {
    /** Answers the provider's authorization URL and the state (the route binds it to the browser in a cookie). */
    async start(input: SsoStart): Promise<{ authorizationUrl: string; state: string }> {
      const sso = await providerOf(input);
      const discovery = await discover(sso.issuer);
      const state = random();
      const codeVerifier = random();
      const nonce = random();
      const now = deps.clock.now();
      await repo.insertState(
        {
          stateHash: hashState(state),
          organizationId: sso.organizationId,
          codeVerifier,
          nonce,
          returnTo: null,
          expiresAt: new Date(now.getTime() + SSO_STATE_TTL_MS),
        },
        now,
      );
      const url = new URL(discovery.authorizationEndpoint);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', sso.clientId);
      url.searchParams.set('redirect_uri', opts.redirectUri);
      url.searchParams.set('scope', 'openid email profile');
      url.searchParams.set('state', state);
      url.searchParams.set('nonce', nonce);
      url.searchParams.set('code_challenge', sha256(codeVerifier).toString('base64url'));
      url.searchParams.set('code_challenge_method', 'S256');
      if ('email' in input) url.searchParams.set('login_hint', input.email);
      return { authorizationUrl: url.toString(), state };
    },

    /**
     * The provider's redirect back. Answers where to send the browser: the creator app with a one-time ticket, or
     * with the reason it failed. `browserState` is the state this browser started with (its cookie): a callback
     * carried to another browser (login CSRF) is refused.
     */
    async callback(
      query: { code?: string; state?: string; error?: string },
      browserState: string | undefined,
      log: { warn(obj: object, msg: string): void },
    ): Promise<string> {
      try {
        if (!query.state) throw new SsoSignInError(SsoFailure.expired, 'No state');
        const now = deps.clock.now();
        const row = await repo.spendState(hashState(query.state), now);
        if (!row) throw new SsoSignInError(SsoFailure.expired, 'Unknown, spent or expired state');
        if (browserState !== query.state) throw new SsoSignInError(SsoFailure.expired, 'Started in another browser');
        if (query.error) throw new SsoSignInError(SsoFailure.denied, `The provider answered ${query.error}`);
        if (!query.code) throw new SsoSignInError(SsoFailure.invalid, 'No code');
        const sso = await organizations.repo.findSso(row.organizationId);
        if (!sso?.enabled) throw new SsoSignInError(SsoFailure.expired, 'Single sign-on was turned off meanwhile');
        const client = await organizations.service.ssoClientOf(sso);
        const discovery = await oidc.discover(sso.issuer);
        const { idToken, accessToken } = await oidc.exchangeCode({
          discovery,
          clientId: client.clientId,
          ...(client.clientSecret ? { clientSecret: client.clientSecret } : {}),
          code: query.code,
          redirectUri: opts.redirectUri,
          codeVerifier: row.codeVerifier,
        });
        const verified = await oidc.verifyIdToken(idToken, { discovery, clientId: client.clientId, nonce: row.nonce });
        // The ID token's own claims win; the e-mail may only be at the UserInfo endpoint.
        const claims =
          typeof verified.email === 'string' || !accessToken
            ? verified
            : { ...(await oidc.userinfo(discovery, accessToken, verified.sub)), ...verified };
        const user = await accountFor(sso, claims, now);
        const ticket = random();
        await repo.insertTicket(
          { ticketHash: hashState(ticket), userId: user.id, expiresAt: new Date(now.getTime() + SSO_TICKET_TTL_MS) },
          now,
        );
        return landing({ ticket });
      } catch (err) {
        if (err instanceof OidcError) {
          log.warn({ reason: err.message }, 'single sign-on refused: the provider’s answer did not verify');
          return landing({ error: SsoFailure.invalid });
        }
        if (err instanceof SsoSignInError) {
          log.warn({ reason: err.message }, 'single sign-on refused');
          return landing({ error: err.reason });
        }
        throw err;
      }
    },

    /** The creator app's page exchanges the ticket, once, for the account to open a session for. */
    async redeemTicket(ticket: string): Promise<User> {
      const userId = await repo.spendTicket(hashState(ticket), deps.clock.now());
      const found = userId ? await users.findById(userId) : undefined;
      if (!found) throw new AppError(ErrorCode.VALIDATION, OrganizationMessages.ticketInvalid);
      return { id: found.id, email: found.email, createdAt: found.createdAt };
    },
  };
}
export type SsoService = ReturnType<typeof createSsoService>;
