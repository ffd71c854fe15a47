import { LtiClaim, LtiLaunchSessionSchema } from '@exam/domain/lti';
import { createLmsSimulator, type LmsSimulator } from '@exam/lti-simulator/simulator';
import { Roles, type LaunchSpec } from '@exam/lti-simulator/state';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { verifyLtiGrant } from '@exam/server-kit/lti-grant';
import { and, eq } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ltiLaunchTickets, ltiLinks, ltiLoginStates, ltiPlatforms, ltiUsedNonces } from '../../db/schema.ts';
import { createLaunchRepository } from './launch.repository.ts';
import { buildTestApp, createCreator, createExam, type TestApp } from '../../testing/app.ts';

type Creator = Awaited<ReturnType<typeof createCreator>>;

const TOOL = 'http://tool.test';
const CREATOR = 'http://creator.test';
const TAKER = 'http://taker.test';

describe('LTI login and launch against the LMS simulator', () => {
  let app: TestApp;
  let sim: LmsSimulator;
  let owner: Creator;
  let other: Creator;
  let platformId: string;
  let examId: string;
  let offsetMs = 0;
  const clock = { now: () => new Date(Date.now() + offsetMs) };

  beforeAll(async () => {
    app = await buildTestApp({
      env: {
        LTI_TOOL_ORIGIN: TOOL,
        CREATOR_ORIGIN: CREATOR,
        TAKER_ORIGIN: TAKER,
        LTI_STATE_TTL_SECONDS: '60',
        LTI_ALLOW_LOOPBACK_HTTP: 'true',
      },
      deps: { clock },
    });
    sim = await createLmsSimulator({
      tool: {
        loginUrl: `${TOOL}/lti/login`,
        launchUrl: `${TOOL}/lti/launch`,
        jwksUrl: `${TOOL}/lti/jwks`,
        fetchJwks: async () => (await app.inject({ method: 'GET', url: '/lti/jwks' })).json(),
      },
    });
    owner = await createCreator(app);
    other = await createCreator(app);
    const registered = await app.inject({
      method: 'POST',
      url: '/api/lti/platforms',
      headers: owner.headers,
      payload: sim.registration(),
    });
    platformId = registered.json().platform.id;
    examId = (await createExam(app, owner.headers, { title: 'LTI midterm' })).id;
  });
  afterAll(async () => {
    await sim?.close();
    await app?.close();
  });

  const learner = (overrides: Partial<LaunchSpec> = {}): LaunchSpec => ({
    user: { sub: `learner-${randomUUID()}`, givenName: 'Ada', familyName: 'Lovelace' },
    roles: [Roles.learner],
    resourceLink: { id: `rl-${randomUUID()}`, title: 'Midterm' },
    custom: { exam_id: examId },
    ...overrides,
  });
  const instructor = (overrides: Partial<LaunchSpec> = {}): LaunchSpec =>
    learner({
      user: { sub: `teacher-${randomUUID()}`, name: 'Grace Hopper' },
      roles: [Roles.instructor],
      ...overrides,
    });

  /** The login initiation, the simulator's answer, and the form it posts back: what a browser does. */
  async function login(spec: LaunchSpec) {
    const initiation = new URL(sim.loginInitiationUrl(spec));
    const started = await app.inject({ method: 'GET', url: `/lti/login${initiation.search}` });
    expect(started.statusCode).toBe(302);
    const cookie = String(started.headers['set-cookie']).split(';')[0]!;
    const form = await sim.authorize(String(started.headers.location));
    expect(form.action).toBe(`${TOOL}/lti/launch`);
    return { form: form.fields, cookie, authRequest: new URL(String(started.headers.location)) };
  }
  const post = (fields: Record<string, string>, cookie?: string) =>
    app.inject({
      method: 'POST',
      url: '/lti/launch',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
      payload: new URLSearchParams(fields).toString(),
    });
  async function launch(spec: LaunchSpec) {
    const { form, cookie } = await login(spec);
    return post(form, cookie);
  }
  const reasonOf = (body: string) => /data-testid="lti-error">([^<]*)</.exec(body)?.[1] ?? body;
  const ticketOf = (location: string) => {
    expect(location.startsWith(`${CREATOR}/lti-launch#ticket=`)).toBe(true);
    return decodeURIComponent(location.split('#ticket=')[1]!);
  };
  const session = (ticket: string) =>
    app.inject({ method: 'POST', url: '/api/lti/launches/session', payload: { ticket } });
  const linkWith = (creator: Creator, ticket: string) =>
    app.inject({ method: 'POST', url: '/api/lti/launches/link', headers: creator.headers, payload: { ticket } });
  const linksOf = (resourceLinkId: string) =>
    app.examDatabase.db
      .select()
      .from(ltiLinks)
      .where(and(eq(ltiLinks.platformId, platformId), eq(ltiLinks.resourceLinkId, resourceLinkId)));

  it('sends the platform an OIDC authentication request with a fresh state and nonce, and sets the state cookie', async () => {
    const spec = learner();
    const { authRequest, cookie } = await login(spec);
    const params = Object.fromEntries(authRequest.searchParams);
    expect(params).toMatchObject({
      scope: 'openid',
      response_type: 'id_token',
      response_mode: 'form_post',
      prompt: 'none',
      client_id: sim.clientId,
      redirect_uri: `${TOOL}/lti/launch`,
      login_hint: spec.user.sub,
    });
    expect(params.lti_message_hint).toBeTruthy();
    expect(params.state).toMatch(/^[\w-]{43}$/);
    expect(params.nonce).toMatch(/^[\w-]{43}$/);
    expect(cookie).toBe(`lti_state_${params.state}=1`);
    expect(sim.authErrors).toEqual([]);
  });

  it("sends a learner to the exam's briefing with a grant naming them by the launch and recording the link", async () => {
    const lineItem = `${sim.origin}/lineitems/1`;
    const memberships = `${sim.origin}/memberships`;
    const spec = learner({
      faults: {
        claims: {
          [LtiClaim.agsEndpoint]: {
            scope: ['https://purl.imsglobal.org/spec/lti-ags/scope/score'],
            lineitem: lineItem,
          },
          [LtiClaim.nrpsService]: { context_memberships_url: memberships, service_versions: ['2.0'] },
        },
      },
    });
    const response = await launch(spec);
    expect(response.statusCode).toBe(303);
    const location = String(response.headers.location);
    expect(location.startsWith(`${TAKER}/exam/${examId}#lti=`)).toBe(true);
    const grant = await verifyLtiGrant(decodeURIComponent(location.split('#lti=')[1]!), {
      jwtSecret: TEST_SECRETS.JWT_SECRET,
      now: new Date(),
    });
    expect(grant).toEqual({
      kind: 'lti-launch',
      examId,
      name: 'Ada Lovelace',
      studentId: spec.user.sub,
      lti: {
        platformId,
        deploymentId: sim.deploymentId,
        resourceLinkId: spec.resourceLink!.id,
        lineItemUrl: lineItem,
        sub: spec.user.sub,
      },
    });
    const [link] = await linksOf(spec.resourceLink!.id);
    expect(link).toMatchObject({
      examId,
      deploymentId: sim.deploymentId,
      contextId: 'course-101',
      lineItemUrl: lineItem,
      agsScopes: ['https://purl.imsglobal.org/spec/lti-ags/scope/score'],
      contextMembershipsUrl: memberships,
    });
  });

  it('accepts several audiences when azp names this tool (LTI Core 1.3 §5.1.3)', async () => {
    const response = await launch(
      learner({ faults: { claims: { aud: [sim.clientId, 'another-tool'], azp: sim.clientId } } }),
    );
    expect(response.statusCode).toBe(303);
    const wrongAzp = await launch(
      learner({ faults: { claims: { aud: [sim.clientId, 'another-tool'], azp: 'another-tool' } } }),
    );
    expect(wrongAzp.statusCode).toBe(400);
    expect(reasonOf(wrongAzp.body)).toMatch(/azp/);
  });

  it('opens a link that was launched before without the custom exam_id, from the stored link', async () => {
    const spec = learner();
    expect((await launch(spec)).statusCode).toBe(303);
    const again = await launch(learner({ resourceLink: spec.resourceLink!, custom: {} }));
    expect(again.statusCode).toBe(303);
    expect(String(again.headers.location)).toContain(`/exam/${examId}#lti=`);
  });

  it.each<[string, Partial<LaunchSpec>, RegExp]>([
    [
      'a signature by a key the platform does not publish',
      { faults: { signWithUnpublishedKey: true } },
      /signature|No key/,
    ],
    ['another audience', { faults: { claims: { aud: 'someone-else' } } }, /aud/],
    ['several audiences without azp', { faults: { claims: { aud: ['someone-else', 'x'] } } }, /aud/],
    ['an expired id_token', { faults: { expired: true } }, /expired/],
    [
      'an unregistered deployment',
      { faults: { claims: { [LtiClaim.deploymentId]: 'other-deployment' } } },
      /Deployment other-deployment/,
    ],
    ['another LTI version', { faults: { claims: { [LtiClaim.version]: '1.1' } } }, /version/],
    [
      'an unsupported message type',
      { faults: { claims: { [LtiClaim.messageType]: 'LtiSubmissionReviewRequest' } } },
      /message_type/,
    ],
    ['a nonce other than the login’s', { faults: { nonce: 'not-the-nonce' } }, /nonce/],
    [
      'another target link URI',
      { faults: { claims: { [LtiClaim.targetLinkUri]: `${TOOL}/lti/other` } } },
      /target_link_uri/,
    ],
  ])('refuses %s with a page giving the reason, storing nothing', async (_label, fault, reason) => {
    const spec = learner(fault);
    const { form, cookie } = await login(spec);
    const response = await post(form, cookie);
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('text/html');
    expect(reasonOf(response.body)).toMatch(reason);
    expect(await linksOf(spec.resourceLink!.id)).toEqual([]);
    const nonces = await app.examDatabase.db
      .select()
      .from(ltiUsedNonces)
      .where(eq(ltiUsedNonces.platformId, platformId));
    const sentNonce = JSON.parse(Buffer.from(form.id_token!.split('.')[1]!, 'base64url').toString()).nonce;
    expect(nonces.map((n) => n.nonce)).not.toContain(sentNonce);
  });

  it('takes a login initiation posted as a form too (LTI Core 1.3 §5.1.1.1 allows GET or POST)', async () => {
    const initiation = new URL(sim.loginInitiationUrl(learner()));
    const started = await app.inject({
      method: 'POST',
      url: '/lti/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: initiation.searchParams.toString(),
    });
    expect(started.statusCode).toBe(302);
    const form = await sim.authorize(String(started.headers.location));
    const cookie = String(started.headers['set-cookie']).split(';')[0]!;
    expect((await post(form.fields, cookie)).statusCode).toBe(303);
  });

  it('refuses an unknown deployment already at the login', async () => {
    const initiation = new URL(sim.loginInitiationUrl(learner({ deploymentId: 'not-registered' })));
    const response = await app.inject({ method: 'GET', url: `/lti/login${initiation.search}` });
    expect(response.statusCode).toBe(400);
    expect(reasonOf(response.body)).toMatch(/Deployment not-registered is not registered/);
  });

  it('refuses a login from an issuer nobody registered', async () => {
    const response = await app.inject({
      method: 'GET',
      url: `/lti/login?iss=${encodeURIComponent('https://unknown.example')}&login_hint=u&target_link_uri=${encodeURIComponent(`${TOOL}/lti/launch`)}`,
    });
    expect(response.statusCode).toBe(400);
    expect(reasonOf(response.body)).toMatch(/No platform is registered with issuer https:\/\/unknown.example/);
  });

  it('redirects a login only to the registered authorization endpoint, whatever URL the request names', async () => {
    const initiation = new URL(sim.loginInitiationUrl(learner()));
    for (const name of ['redirect_uri', 'auth_login_url', 'authLoginUrl', 'return_url'])
      initiation.searchParams.set(name, 'https://evil.example/phish');
    const started = await app.inject({ method: 'GET', url: `/lti/login${initiation.search}` });
    expect(started.statusCode).toBe(302);
    const location = new URL(String(started.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe(sim.authLoginUrl);
    expect(location.searchParams.get('redirect_uri')).toBe(`${TOOL}/lti/launch`);
    expect(String(started.headers.location)).not.toContain('evil.example');
  });

  it('refuses a login whose registered authorization endpoint is plain http outside loopback mode', async () => {
    // A registration stored while http was allowed (or before the check), served by an app without the flag.
    const strict = await buildTestApp({ env: { LTI_TOOL_ORIGIN: TOOL, CREATOR_ORIGIN: CREATOR, TAKER_ORIGIN: TAKER } });
    try {
      const issuer = `https://lms-${randomUUID().slice(0, 8)}.example.test`;
      const now = new Date();
      await strict.examDatabase.db.insert(ltiPlatforms).values({
        id: randomUUID(),
        creatorId: owner.user.id,
        name: 'Old http registration',
        issuer,
        clientId: 'c1',
        authLoginUrl: 'http://evil.example/authorize',
        authTokenUrl: `${issuer}/token`,
        jwksUrl: `${issuer}/jwks`,
        deploymentIds: ['d1'],
        tokenOrigin: issuer,
        createdAt: now,
        updatedAt: now,
      });
      const query = new URLSearchParams({
        iss: issuer,
        client_id: 'c1',
        login_hint: 'u1',
        target_link_uri: `${TOOL}/lti/launch`,
      });
      const response = await strict.inject({ method: 'GET', url: `/lti/login?${query}` });
      expect(response.statusCode).toBe(400);
      expect(response.headers.location).toBeUndefined();
      expect(reasonOf(response.body)).toMatch(/authorization endpoint is not an https:\/\/ URL/);
    } finally {
      await strict.close();
    }
  });

  it('refuses an id_token issued an hour in the future, and takes one a few seconds ahead (clock skew)', async () => {
    const ahead = await launch(learner({ faults: { issuedInSeconds: 3600 } }));
    expect(ahead.statusCode).toBe(400);
    expect(reasonOf(ahead.body)).toMatch(/iat claim is in the future/);
    const skewed = await launch(learner({ faults: { issuedInSeconds: 20 } }));
    expect(skewed.statusCode).toBe(303);
  });

  it('accepts a state once: the same form posted again is refused', async () => {
    const { form, cookie } = await login(learner());
    expect((await post(form, cookie)).statusCode).toBe(303);
    const replay = await post(form, cookie);
    expect(replay.statusCode).toBe(400);
    expect(reasonOf(replay.body)).toMatch(/unknown or was already used/);
  });

  it('never accepts a nonce twice, even under a new state', async () => {
    const { form, cookie } = await login(learner());
    expect((await post(form, cookie)).statusCode).toBe(303);
    const nonce = JSON.parse(Buffer.from(form.id_token!.split('.')[1]!, 'base64url').toString()).nonce as string;
    const state = `replay-${randomUUID()}`;
    await app.examDatabase.db.insert(ltiLoginStates).values({
      state,
      nonce,
      platformId,
      targetLinkUri: `${TOOL}/lti/launch`,
      expiresAt: new Date(Date.now() + 60_000),
    });
    const replay = await post({ id_token: form.id_token!, state });
    expect(replay.statusCode).toBe(400);
    expect(reasonOf(replay.body)).toMatch(/already used/);
  });

  it('refuses a state older than LTI_STATE_TTL_SECONDS', async () => {
    const { form, cookie } = await login(learner());
    offsetMs = 61_000;
    try {
      const response = await post(form, cookie);
      expect(response.statusCode).toBe(400);
      expect(reasonOf(response.body)).toMatch(/took too long/);
    } finally {
      offsetMs = 0;
    }
  });

  it("refuses a launch in a browser that kept LTI cookies but not this login's (another browser's form)", async () => {
    const { form } = await login(learner());
    const response = await post(form, 'lti_state_someone-elses-login=1');
    expect(response.statusCode).toBe(400);
    expect(reasonOf(response.body)).toMatch(/browser that started the login/);
  });

  it('accepts a launch without any LTI cookie (a browser blocking cookies in the LMS frame)', async () => {
    const { form } = await login(learner());
    expect((await post(form)).statusCode).toBe(303);
  });

  it("refuses a learner's launch of a link with no exam, and of another creator's exam", async () => {
    const none = await launch(learner({ custom: {} }));
    expect(none.statusCode).toBe(404);
    expect(reasonOf(none.body)).toMatch(/no exam yet/);
    const foreignExam = await createExam(app, other.headers, { title: 'Not yours' });
    const foreign = await launch(learner({ custom: { exam_id: foreignExam.id } }));
    expect(foreign.statusCode).toBe(404);
    expect(reasonOf(foreign.body)).toMatch(/not available/);
  });

  it('refuses a deep-linking request from a learner', async () => {
    const response = await launch(learner({ messageType: 'LtiDeepLinkingRequest' }));
    expect(response.statusCode).toBe(403);
    expect(reasonOf(response.body)).toMatch(/Only an instructor/);
  });

  it("sends an unlinked instructor to link their account; only the platform's owner can, and the ticket then works once", async () => {
    const spec = instructor();
    const response = await launch(spec);
    expect(response.statusCode).toBe(303);
    const ticket = ticketOf(String(response.headers.location));

    const unlinked = LtiLaunchSessionSchema.parse((await session(ticket)).json());
    expect(unlinked).toEqual({ status: 'link-required', platformName: 'LMS simulator' });

    const stranger = await linkWith(other, ticket);
    expect(stranger.statusCode).toBe(403);
    const linked = await linkWith(owner, ticket);
    expect(linked.statusCode).toBe(200);
    expect(linked.json()).toEqual({ next: { kind: 'exam', examId } });
    expect((await linkWith(owner, ticket)).statusCode).toBe(400);
    expect((await session(ticket)).statusCode).toBe(400);

    // The next launch of the same LMS user signs the creator in straight away.
    const next = await launch(instructor({ user: spec.user }));
    const signedIn = LtiLaunchSessionSchema.parse((await session(ticketOf(String(next.headers.location)))).json());
    expect(signedIn).toMatchObject({
      status: 'signed-in',
      user: { id: owner.user.id },
      next: { kind: 'exam', examId },
    });
    const token = signedIn.status === 'signed-in' ? signedIn.token : '';
    const platforms = await app.inject({
      method: 'GET',
      url: '/api/lti/platforms',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(platforms.statusCode).toBe(200);
  });

  it('deep-links a picked exam: a signed response the LMS accepts, echoing data, and a learner launch of the new link', async () => {
    const spec = instructor({ messageType: 'LtiDeepLinkingRequest', deepLinking: { data: 'opaque-42' } });
    const response = await launch(spec);
    expect(response.statusCode).toBe(303);
    const ticket = ticketOf(String(response.headers.location));
    expect((await linkWith(owner, ticket)).json()).toEqual({ next: { kind: 'deep-link' } });

    const foreign = await createExam(app, other.headers, { title: 'Not yours' });
    const refused = await app.inject({
      method: 'POST',
      url: '/api/lti/deep-links',
      headers: owner.headers,
      payload: { ticket, examId: foreign.id },
    });
    expect(refused.statusCode).toBe(404);
    const byOther = await app.inject({
      method: 'POST',
      url: '/api/lti/deep-links',
      headers: other.headers,
      payload: { ticket, examId },
    });
    expect(byOther.statusCode).toBe(400);

    const answered = await app.inject({
      method: 'POST',
      url: '/api/lti/deep-links',
      headers: owner.headers,
      payload: { ticket, examId },
    });
    expect(answered.statusCode).toBe(200);
    const { returnUrl, jwt } = answered.json() as { returnUrl: string; jwt: string };
    // Signed with this registration's own key.
    const header = JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString()) as { kid: string };
    expect(header.kid).toBe((await app.ltiToolKeys.signingKey(platformId)).kid);
    expect(returnUrl).toBe(sim.deepLinkReturnUrl);
    const returned = await fetch(returnUrl, { method: 'POST', body: new URLSearchParams({ JWT: jwt }) });
    expect(returned.status).toBe(200);
    const recorded = sim.deepLinkResponses.at(-1)!;
    if (!recorded.ok) throw new Error(recorded.error);
    expect(recorded.claims['https://purl.imsglobal.org/spec/lti-dl/claim/data']).toBe('opaque-42');
    expect(recorded.contentItems).toEqual([
      {
        type: 'ltiResourceLink',
        title: 'LTI midterm',
        url: `${TOOL}/lti/launch`,
        custom: { exam_id: examId },
        lineItem: { scoreMaximum: 3, label: 'LTI midterm', resourceId: examId },
      },
    ]);
    const again = await app.inject({
      method: 'POST',
      url: '/api/lti/deep-links',
      headers: owner.headers,
      payload: { ticket, examId },
    });
    expect(again.statusCode).toBe(400);

    const placement = recorded.placement!;
    const learnerLaunch = await launch(
      learner({ resourceLink: { id: placement.resourceLinkId, title: placement.title }, custom: placement.custom }),
    );
    expect(String(learnerLaunch.headers.location)).toContain(`/exam/${examId}#lti=`);
  });

  it('prunes expired login states, tickets and spent nonces, and keeps live ones', async () => {
    const past = new Date(Date.now() - 60_000);
    const future = new Date(Date.now() + 60_000);
    const tag = randomUUID();
    const { db } = app.examDatabase;
    await db.insert(ltiLoginStates).values([
      { state: `old-${tag}`, nonce: 'n', platformId, targetLinkUri: 'x', expiresAt: past },
      { state: `live-${tag}`, nonce: 'n', platformId, targetLinkUri: 'x', expiresAt: future },
    ]);
    await db.insert(ltiLaunchTickets).values([
      { ticketHash: `old-${tag}`, platformId, launch: {}, expiresAt: past },
      { ticketHash: `live-${tag}`, platformId, launch: {}, expiresAt: future },
    ]);
    await db.insert(ltiUsedNonces).values([
      { platformId, nonce: `old-${tag}`, expiresAt: past },
      { platformId, nonce: `live-${tag}`, expiresAt: future },
    ]);
    expect(await createLaunchRepository(app.examDatabase).pruneExpired(new Date())).toBeGreaterThanOrEqual(3);
    const states = await db.select().from(ltiLoginStates);
    const tickets = await db.select().from(ltiLaunchTickets);
    const nonces = await db.select().from(ltiUsedNonces);
    expect(states.map((s) => s.state)).toContain(`live-${tag}`);
    expect(states.map((s) => s.state)).not.toContain(`old-${tag}`);
    expect(tickets.map((t) => t.ticketHash)).toContain(`live-${tag}`);
    expect(tickets.map((t) => t.ticketHash)).not.toContain(`old-${tag}`);
    expect(nonces.map((n) => n.nonce)).toContain(`live-${tag}`);
    expect(nonces.map((n) => n.nonce)).not.toContain(`old-${tag}`);
  });
});
