import { createHash, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { OrganizationMessages, SsoFailure } from '@exam/domain/organizations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOidcClient } from '../../adapters/oidc-client.ts';
import {
  oidcLoginStates,
  organizationMembers,
  organizationSso,
  passwordResetTokens,
  userIdentities,
  users,
} from '../../db/schema.ts';
import { buildTestApp, createCreator, TEST_PASSWORD, type TestApp } from '../../testing/app.ts';
import { signInAt, startTestProvider, type TestProvider } from '../../testing/oidc-provider.ts';
import { SSO_STATE_COOKIE } from './sso.routes.ts';

const CREATOR = 'http://creator.test';
const REDIRECT_URI = `${CREATOR}/api/auth/sso/callback`;
const PUBLIC_CLIENT = 'exam-platform';
const CONFIDENTIAL_CLIENT = 'exam-platform-confidential';
const SECRET = 'a-confidential-client-secret';

describe('single sign-on through a real OpenID Connect provider', () => {
  let app: TestApp;
  let provider: TestProvider;
  /** Moves the service's clock (the provider keeps real time). */
  let clockOffsetMs = 0;
  /** The ID tokens the token endpoint answered, newest last. */
  const idTokens: string[] = [];
  /** Swaps the token endpoint's ID token for another (a token made for another client). */
  let replaceIdToken: string | undefined;

  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const url = input instanceof Request ? input.url : input.toString();
    if (!url.endsWith('/token') || !response.ok) return response;
    const body = (await response.json()) as { id_token: string };
    idTokens.push(body.id_token);
    if (replaceIdToken) body.id_token = replaceIdToken;
    return Response.json(body);
  };

  beforeAll(async () => {
    provider = await startTestProvider({
      clients: [
        { clientId: PUBLIC_CLIENT, redirectUris: [REDIRECT_URI] },
        { clientId: CONFIDENTIAL_CLIENT, clientSecret: SECRET, redirectUris: [REDIRECT_URI] },
      ],
    });
    app = await buildTestApp({
      env: { CREATOR_ORIGIN: CREATOR, SSO_ALLOW_LOOPBACK_HTTP: 'true' },
      deps: { fetch: recordingFetch, clock: { now: () => new Date(Date.now() + clockOffsetMs) } },
    });
  });
  afterAll(async () => {
    await app.close();
    await provider.close();
  });

  /** An organization (its admin a fresh password account) whose provider signs in a domain of its own. */
  async function organizationWithSso(
    client: { clientId: string; clientSecret?: string } = { clientId: PUBLIC_CLIENT },
  ) {
    const admin = await createCreator(app);
    const domain = `uni-${randomUUID().slice(0, 8)}.test`;
    const response = await app.inject({
      method: 'PUT',
      url: '/api/organization/sso',
      headers: admin.headers,
      payload: { issuer: provider.issuer, ...client, emailDomains: [domain], enabled: true },
    });
    expect(response.statusCode, response.body).toBe(200);
    const [membership] = await app.examDatabase.db
      .select()
      .from(organizationMembers)
      .where(eq(organizationMembers.userId, admin.user.id));
    return { admin, domain, organizationId: membership!.organizationId };
  }

  /** Starts a sign-in for the e-mail and answers the authorization URL and this browser's state cookie. */
  async function start(email: string) {
    const response = await app.inject({ method: 'POST', url: '/api/auth/sso/start', payload: { email } });
    expect(response.statusCode, response.body).toBe(200);
    const cookie = String(response.headers['set-cookie']).split(';')[0]!;
    return { authorizationUrl: (response.json() as { authorizationUrl: string }).authorizationUrl, cookie };
  }

  /** The provider's redirect back, as the browser makes it; answers the fragment the creator app receives. */
  async function callback(url: URL, cookie: string | undefined) {
    const response = await app.inject({
      method: 'GET',
      url: `${url.pathname}${url.search}`,
      headers: cookie ? { cookie } : {},
    });
    expect(response.statusCode).toBe(303);
    const location = new URL(String(response.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe(`${CREATOR}/sso-callback`);
    expect(location.search).toBe('');
    return new URLSearchParams(location.hash.slice(1));
  }

  /** The whole sign-in as the provider's account `login`; answers the session, or the failure the app was sent. */
  async function signIn(email: string, login: string, tamper?: () => Promise<void>) {
    const { authorizationUrl, cookie } = await start(email);
    const back = await signInAt(authorizationUrl, login, REDIRECT_URI);
    await tamper?.();
    const fragment = await callback(back, cookie);
    const ticket = fragment.get('ticket');
    if (!ticket) return { error: fragment.get('error') };
    const session = await app.inject({ method: 'POST', url: '/api/auth/sso/session', payload: { ticket } });
    expect(session.statusCode, session.body).toBe(200);
    const body = session.json() as { token: string; user: { id: string; email: string } };
    return { ...body, ticket, headers: { authorization: `Bearer ${body.token}` } };
  }

  const person = (domain: string, verified = true) => {
    const login = `person-${randomUUID().slice(0, 8)}`;
    const email = `${login}@${domain}`;
    provider.accounts.set(login, { email, email_verified: verified });
    return { login, email };
  };

  it('sends the browser to the provider with PKCE (S256), state and nonce, and keeps only a hash of the state', async () => {
    const { domain } = await organizationWithSso();
    const { authorizationUrl, cookie } = await start(`someone@${domain}`);
    const url = new URL(authorizationUrl);
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('client_id')).toBe(PUBLIC_CLIENT);
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    const state = url.searchParams.get('state')!;
    expect(cookie).toBe(`${SSO_STATE_COOKIE}=${state}`);
    const rows = await app.examDatabase.db.select().from(oidcLoginStates);
    expect(rows.some((row) => row.stateHash === state)).toBe(false);
    const row = rows.find((r) => r.nonce === url.searchParams.get('nonce'))!;
    expect(row.expiresAt.getTime() - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(row.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(10 * 60_000 + 1000);
  });

  it('refuses a domain another organization already signs in (409), and answers the issuer test from discovery', async () => {
    const { domain } = await organizationWithSso();
    const other = await createCreator(app);
    const taken = await app.inject({
      method: 'PUT',
      url: '/api/organization/sso',
      headers: other.headers,
      payload: { issuer: provider.issuer, clientId: PUBLIC_CLIENT, emailDomains: [domain], enabled: true },
    });
    expect(taken.statusCode).toBe(409);
    const test = await app.inject({
      method: 'POST',
      url: '/api/organization/sso/discovery',
      headers: other.headers,
      payload: { issuer: provider.issuer },
    });
    expect(test.json()).toMatchObject({
      issuer: provider.issuer,
      tokenEndpoint: `${provider.issuer}/token`,
      supportsPkceS256: true,
    });
  });

  it('answers 404 for an e-mail whose domain no organization signs in', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/sso/start',
      payload: { email: 'someone@nowhere-configured.test' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toBe(OrganizationMessages.noSsoForEmail);
  });

  it('creates the account in the organization on the first sign-in, without a password, and opens a session', async () => {
    const { admin, domain, organizationId } = await organizationWithSso();
    const { login, email } = person(domain);
    const first = await signIn(email, login);
    if (!('token' in first)) throw new Error(`refused: ${first.error}`);
    expect(first.user.email).toBe(email);
    const [row] = await app.examDatabase.db.select().from(users).where(eq(users.id, first.user.id));
    expect(row!.passwordHash).toBeNull();
    const [membership] = await app.examDatabase.db
      .select()
      .from(organizationMembers)
      .where(eq(organizationMembers.userId, first.user.id));
    expect(membership).toMatchObject({ organizationId, role: 'member' });
    // The session is a creator session like a password sign-in's.
    const exams = await app.inject({ method: 'GET', url: '/api/exams/auth_exams', headers: first.headers });
    expect(exams.statusCode).toBe(200);
    const organization = await app.inject({ method: 'GET', url: '/api/organization', headers: admin.headers });
    expect(organization.json().members.map((m: { email: string }) => m.email)).toContain(email);
    // The ticket works once.
    const again = await app.inject({ method: 'POST', url: '/api/auth/sso/session', payload: { ticket: first.ticket } });
    expect(again.statusCode).toBe(400);
  });

  it('signs in to the same account by subject the second time, even after the e-mail changed at the provider', async () => {
    const { domain } = await organizationWithSso();
    const { login, email } = person(domain);
    const first = await signIn(email, login);
    provider.accounts.set(login, { email: `renamed-${login}@${domain}`, email_verified: true });
    const second = await signIn(email, login);
    if (!('user' in first) || !('user' in second)) throw new Error('refused');
    expect(second.user.id).toBe(first.user.id);
    const identities = await app.examDatabase.db
      .select()
      .from(userIdentities)
      .where(eq(userIdentities.userId, first.user.id));
    expect(identities).toEqual([expect.objectContaining({ issuer: provider.issuer, subject: login })]);
  });

  it('authenticates a confidential client with client_secret_basic and never answers the secret', async () => {
    const { admin, domain, organizationId } = await organizationWithSso({
      clientId: CONFIDENTIAL_CLIENT,
      clientSecret: SECRET,
    });
    const [stored] = await app.examDatabase.db
      .select()
      .from(organizationSso)
      .where(eq(organizationSso.organizationId, organizationId));
    expect(stored!.encryptedClientSecret).not.toContain(SECRET);
    const organization = await app.inject({ method: 'GET', url: '/api/organization', headers: admin.headers });
    expect(organization.body).not.toContain(SECRET);
    expect(organization.json().sso).toMatchObject({ clientId: CONFIDENTIAL_CLIENT, hasClientSecret: true });
    const { login, email } = person(domain);
    const result = await signIn(email, login);
    expect('token' in result).toBe(true);
  });

  it('refuses an ID token whose nonce is not the one this sign-in sent', async () => {
    const { domain } = await organizationWithSso();
    const { login, email } = person(domain);
    const result = await signIn(email, login, async () => {
      await app.examDatabase.db.update(oidcLoginStates).set({ nonce: 'another-sign-ins-nonce' });
    });
    expect(result).toEqual({ error: SsoFailure.invalid });
  });

  it('refuses an ID token issued to another client (audience)', async () => {
    // A genuine token of the same provider, made for the confidential client, replayed into the public client's sign-in.
    const other = await organizationWithSso({ clientId: CONFIDENTIAL_CLIENT, clientSecret: SECRET });
    const victim = person(other.domain);
    await signIn(victim.email, victim.login);
    const foreignToken = idTokens.at(-1)!;
    const { domain } = await organizationWithSso();
    const { login, email } = person(domain);
    replaceIdToken = foreignToken;
    try {
      expect(await signIn(email, login)).toEqual({ error: SsoFailure.invalid });
    } finally {
      replaceIdToken = undefined;
    }
  });

  it('checks signature, issuer, audience, expiry and nonce of a real ID token one by one', async () => {
    const { domain } = await organizationWithSso();
    const { login, email } = person(domain);
    const { authorizationUrl, cookie } = await start(email);
    const nonce = new URL(authorizationUrl).searchParams.get('nonce')!;
    const before = idTokens.length;
    expect((await callback(await signInAt(authorizationUrl, login, REDIRECT_URI), cookie)).get('ticket')).toBeTruthy();
    expect(idTokens).toHaveLength(before + 1);
    const token = idTokens.at(-1)!;
    const client = createOidcClient({ allowLocal: true });
    const discovery = await client.discover(provider.issuer);
    const expected = { discovery, clientId: PUBLIC_CLIENT, nonce };
    // The token is genuine: it verifies as it is (once the nonce matches).
    await expect(client.verifyIdToken(token, expected)).resolves.toMatchObject({ sub: login });
    await expect(client.verifyIdToken(token, { ...expected, clientId: 'someone-else' })).rejects.toThrow(/aud/);
    await expect(client.verifyIdToken(token, { ...expected, nonce: 'other' })).rejects.toThrow(/nonce/);
    await expect(
      client.verifyIdToken(token, { ...expected, discovery: { ...discovery, issuer: 'http://elsewhere.test' } }),
    ).rejects.toThrow(/iss/);
    const [header, payload, signature] = token.split('.');
    const flipped = `${signature!.slice(0, -4)}${signature!.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    await expect(client.verifyIdToken(`${header}.${payload}.${flipped}`, expected)).rejects.toThrow(/signature/);
    const later = createOidcClient({ allowLocal: true, now: () => new Date(Date.now() + 3 * 3600_000) });
    await expect(later.verifyIdToken(token, { ...expected, discovery })).rejects.toThrow(/exp/);
  });

  it('refuses a state that expired, one already spent, and one carried to another browser', async () => {
    const { domain } = await organizationWithSso();
    const { login, email } = person(domain);

    const late = await start(email);
    const lateBack = await signInAt(late.authorizationUrl, login, REDIRECT_URI);
    clockOffsetMs = 11 * 60_000;
    try {
      expect((await callback(lateBack, late.cookie)).get('error')).toBe(SsoFailure.expired);
    } finally {
      clockOffsetMs = 0;
    }

    const once = await start(email);
    const onceBack = await signInAt(once.authorizationUrl, login, REDIRECT_URI);
    expect((await callback(onceBack, once.cookie)).get('ticket')).toBeTruthy();
    expect((await callback(onceBack, once.cookie)).get('error')).toBe(SsoFailure.expired);

    const elsewhere = await start(email);
    const elsewhereBack = await signInAt(elsewhere.authorizationUrl, login, REDIRECT_URI);
    expect((await callback(elsewhereBack, undefined)).get('error')).toBe(SsoFailure.expired);
  });

  it('links an existing account of the organization only when the provider verified the e-mail', async () => {
    const { admin, domain } = await organizationWithSso();
    const email = `colleague-${randomUUID().slice(0, 8)}@${domain}`;
    const invite = await app.inject({
      method: 'POST',
      url: '/api/organization/invites',
      headers: admin.headers,
      payload: { email, role: 'member' },
    });
    expect(invite.statusCode).toBe(201);
    const registered = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email, password: TEST_PASSWORD },
    });
    const existingId = (registered.json() as { user: { id: string } }).user.id;

    provider.accounts.set('unverified-sub', { email, email_verified: false });
    expect(await signIn(email, 'unverified-sub')).toEqual({ error: SsoFailure.notLinked });
    const verifiedSub = `verified-${randomUUID().slice(0, 8)}`;
    provider.accounts.set(verifiedSub, { email, email_verified: true });
    const linked = await signIn(email, verifiedSub);
    expect('user' in linked && linked.user.id).toBe(existingId);
  });

  it('never links a verified e-mail to an account of another organization', async () => {
    const { domain } = await organizationWithSso();
    // An account that signed up on its own (its own organization) with an address of this domain.
    const email = `outsider-${randomUUID().slice(0, 8)}@${domain}`;
    await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email, password: TEST_PASSWORD } });
    const sub = `outsider-${randomUUID().slice(0, 8)}`;
    provider.accounts.set(sub, { email, email_verified: true });
    expect(await signIn(email, sub)).toEqual({ error: SsoFailure.notLinked });
  });

  it('refuses passwords once the organization turns password sign-in off, and the reset flow likewise', async () => {
    const { admin, domain } = await organizationWithSso();
    const turnOff = () =>
      app.inject({
        method: 'PATCH',
        url: '/api/organization',
        headers: admin.headers,
        payload: { passwordSignIn: false },
      });
    // The admin has never signed in through the provider: turning passwords off would lock them out.
    const lockedOut = await turnOff();
    expect(lockedOut.statusCode).toBe(400);
    expect(lockedOut.json().error.message).toBe(OrganizationMessages.passwordOffLocksYouOut);

    const adminSub = `admin-${randomUUID().slice(0, 8)}`;
    provider.accounts.set(adminSub, { email: admin.email, email_verified: true });
    const linked = await signIn(`anyone@${domain}`, adminSub);
    expect('user' in linked && linked.user.id).toBe(admin.user.id);
    expect((await turnOff()).statusCode).toBe(200);

    const password = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: admin.email, password: TEST_PASSWORD },
    });
    expect(password.statusCode).toBe(403);
    expect(password.json().error.message).toBe(OrganizationMessages.passwordSignInOff);
    // A wrong password still gets the usual answer: the refusal tells nothing to someone without the password.
    const wrong = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: admin.email, password: 'not-the-password-at-all' },
    });
    expect(wrong.statusCode).toBe(401);

    // A reset link sent before the switch no longer sets a password.
    const token = `reset-${randomUUID()}`;
    await app.examDatabase.db.insert(passwordResetTokens).values({
      tokenHash: createHash('sha256').update(token).digest('hex'),
      userId: admin.user.id,
      createdAt: new Date(),
      expiresAt: new Date(Date.now() + 600_000),
    });
    const reset = await app.inject({
      method: 'POST',
      url: '/api/auth/password-reset/confirm',
      payload: { token, password: 'a-brand-new-passphrase-93' },
    });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().error.message).toBe(OrganizationMessages.passwordSignInOff);

    // Sign-up into an organization that has turned passwords off is refused too.
    const invited = `invited-${randomUUID().slice(0, 8)}@${domain}`;
    await app.inject({
      method: 'POST',
      url: '/api/organization/invites',
      headers: admin.headers,
      payload: { email: invited, role: 'member' },
    });
    const signUp = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: invited, password: TEST_PASSWORD },
    });
    expect(signUp.statusCode).toBe(400);
    expect(signUp.json().error.message).toBe(OrganizationMessages.passwordSignInOff);

    // Still signs in through the provider.
    expect('token' in (await signIn(`anyone@${domain}`, adminSub))).toBe(true);
    // And single sign-on cannot now be disabled (nobody could sign in).
    const disable = await app.inject({
      method: 'PUT',
      url: '/api/organization/sso',
      headers: admin.headers,
      payload: { issuer: provider.issuer, clientId: PUBLIC_CLIENT, emailDomains: [domain], enabled: false },
    });
    expect(disable.statusCode).toBe(400);
  });
});
