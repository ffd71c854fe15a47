import { randomUUID } from 'node:crypto';
import type { LtiScoreRequest } from '@exam/domain/lti-ags';
import { advantageClaims, advantageOf } from '@exam/lti-simulator/advantage';
import { createLmsSimulator, type LmsSimulator } from '@exam/lti-simulator/simulator';
import { Roles, type LaunchSpec } from '@exam/lti-simulator/state';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ltiLinks, ltiPlatforms } from '../../db/schema.ts';
import { buildTestApp, createCreator, createExam, type TestApp } from '../../testing/app.ts';

type Creator = Awaited<ReturnType<typeof createCreator>>;

const TOOL = 'http://tool.test';
const internal = { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN };
const AGS_CLAIM = 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint';
const NRPS_CLAIM = 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice';

/**
 * One LMS tenant's trust cannot be borrowed by another creator (ARCHITECTURE.md "LTI"): the attack of a creator who
 * registers their own issuer and JWKS with the victim LMS's client ID and token URL, then launches with claims that
 * name the victim course's roster and gradebook.
 */
describe("LTI: one creator cannot borrow another creator's LMS", () => {
  let app: TestApp;
  let victimLms: LmsSimulator;
  let attackerLms: LmsSimulator;
  let victim: Creator;
  let attacker: Creator;
  const VICTIM_COURSE = 'victim-course';

  const simulator = () =>
    createLmsSimulator({
      tool: {
        loginUrl: `${TOOL}/lti/login`,
        launchUrl: `${TOOL}/lti/launch`,
        jwksUrl: `${TOOL}/lti/jwks`,
        fetchJwks: async () => (await app.inject({ method: 'GET', url: '/lti/jwks' })).json(),
      },
    });
  const register = (creator: Creator, payload: object) =>
    app.inject({ method: 'POST', url: '/api/lti/platforms', headers: creator.headers, payload });

  beforeAll(async () => {
    app = await buildTestApp({
      env: { LTI_TOOL_ORIGIN: TOOL, CREATOR_ORIGIN: 'http://creator.test', LTI_ALLOW_LOOPBACK_HTTP: 'true' },
    });
    [victimLms, attackerLms] = [await simulator(), await simulator()];
    [victim, attacker] = [await createCreator(app), await createCreator(app)];
    expect((await register(victim, victimLms.registration('Victim LMS'))).statusCode).toBe(201);
    advantageOf(victimLms.state).members.set(VICTIM_COURSE, [
      { user_id: 'v-1', roles: [Roles.learner], name: 'Victim Student', email: 'victim.student@example.test' },
    ]);
  });
  afterAll(async () => {
    await victimLms?.close();
    await attackerLms?.close();
    await app?.close();
  });

  /** The victim course's AGS and NRPS claims, as the victim LMS would put them in its own launch. */
  const victimServiceClaims = (resourceLinkId: string) =>
    advantageClaims(victimLms.state, {
      user: { sub: 'v-teacher' },
      roles: [Roles.instructor],
      resourceLink: { id: resourceLinkId },
      context: { id: VICTIM_COURSE },
    });

  /** A learner launch through the attacker's LMS, its id_token carrying `claims`. */
  async function attackerLaunch(examId: string, claims: Record<string, unknown>) {
    const spec: LaunchSpec = {
      user: { sub: `learner-${randomUUID()}`, name: 'Mallory' },
      roles: [Roles.learner],
      resourceLink: { id: `rl-${randomUUID()}`, title: 'Quiz' },
      context: { id: VICTIM_COURSE },
      custom: { exam_id: examId },
      faults: { claims },
    };
    const initiation = new URL(attackerLms.loginInitiationUrl(spec));
    const started = await app.inject({ method: 'GET', url: `/lti/login${initiation.search}` });
    expect(started.statusCode).toBe(302);
    const form = await attackerLms.authorize(String(started.headers.location));
    const launched = await app.inject({
      method: 'POST',
      url: '/lti/launch',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form.fields).toString(),
    });
    return { launched, resourceLinkId: spec.resourceLink!.id };
  }
  /** The attacker's own, honest registration of their own LMS (made once, by whichever test needs it first). */
  let attackerPlatform: Promise<string> | undefined;
  const attackerPlatformId = () =>
    (attackerPlatform ??= register(attacker, attackerLms.registration('Attacker LMS')).then((response) => {
      expect(response.statusCode).toBe(201);
      return response.json<{ platform: { id: string } }>().platform.id;
    }));
  const score = (platformId: string, lineItemUrl: string): LtiScoreRequest => ({
    platformId,
    lineItemUrl,
    userId: 'v-1',
    scoreGiven: 0,
    scoreMaximum: 10,
    activityProgress: 'Completed',
    gradingProgress: 'FullyGraded',
    timestamp: new Date().toISOString(),
  });

  it('refuses a second registration of a client ID at the same token endpoint origin, whoever asks, saying why', async () => {
    const borrowed = {
      ...attackerLms.registration('Borrowed'),
      clientId: victimLms.clientId,
      authTokenUrl: victimLms.authTokenUrl,
    };
    const response = await register(attacker, borrowed);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toMatch(/client ID is already registered for this LMS's token endpoint/);
    expect(response.json().error.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'clientId' }),
        expect.objectContaining({ path: 'authTokenUrl' }),
      ]),
    );
    // Another path on the same origin is the same token endpoint's tenant; so is the victim registering it again.
    const otherPath = await register(attacker, { ...borrowed, authTokenUrl: `${victimLms.origin}/oauth/token?x=1` });
    expect(otherPath.statusCode).toBe(409);
    const again = await register(victim, { ...borrowed, name: 'Twice' });
    expect(again.statusCode).toBe(409);
    const attackerPlatforms = await app.inject({ method: 'GET', url: '/api/lti/platforms', headers: attacker.headers });
    expect(attackerPlatforms.json().platforms).toEqual([]);
  });

  it("refuses to change a registration into another's client ID and token endpoint", async () => {
    const values = { ...attackerLms.registration('Own'), clientId: `${attackerLms.clientId}-own` };
    const own = await register(attacker, values);
    expect(own.statusCode).toBe(201);
    const id = own.json().platform.id as string;
    const changed = await app.inject({
      method: 'PUT',
      url: `/api/lti/platforms/${id}`,
      headers: attacker.headers,
      payload: { ...values, clientId: victimLms.clientId, authTokenUrl: victimLms.authTokenUrl },
    });
    expect(changed.statusCode).toBe(409);
    const [row] = await app.examDatabase.db.select().from(ltiPlatforms).where(eq(ltiPlatforms.id, id));
    expect(row).toMatchObject({ clientId: values.clientId, authTokenUrl: attackerLms.authTokenUrl });
  });

  it("never reads the victim's roster nor writes the victim's gradebook from a launch whose claims name them", async () => {
    const before = { ...advantageOf(victimLms.state) };
    const victimRequests = before.serviceRequests.length;
    const victimScores = before.scores.length;
    const victimTokens = before.tokenRequests.length;

    // The attack as it was run: B's issuer and JWKS with the victim's client ID and token URL…
    const borrowed = await register(attacker, {
      ...attackerLms.registration('Borrowed'),
      clientId: victimLms.clientId,
      authTokenUrl: victimLms.authTokenUrl,
    });
    expect(borrowed.statusCode).toBe(409);
    // …and, refused that, B's own registration launching with the victim course's roster and line item URLs.
    const platformId = await attackerPlatformId();
    const exam = await createExam(app, attacker.headers, { isDraft: false });
    const claims = victimServiceClaims(`victim-rl-${randomUUID()}`);
    const { launched, resourceLinkId } = await attackerLaunch(exam.id, claims);
    expect(launched.statusCode).toBe(303);

    // The launch works, but the link keeps no service URL off the attacker's registered origins.
    const [link] = await app.examDatabase.db.select().from(ltiLinks).where(eq(ltiLinks.resourceLinkId, resourceLinkId));
    expect(link).toMatchObject({ platformId, lineItemUrl: null, lineItemsUrl: null, contextMembershipsUrl: null });

    const source = await app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/roster/lms`,
      headers: attacker.headers,
    });
    expect(source.json()).toMatchObject({ linked: false });
    const preview = await app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/roster/lms/preview`,
      headers: attacker.headers,
    });
    expect(preview.statusCode).toBe(409);
    expect(preview.body).not.toContain('victim.student@example.test');

    const victimLineItem = (claims[AGS_CLAIM] as { lineitem: string }).lineitem;
    const published = await app.inject({
      method: 'POST',
      url: '/internal/lti/scores',
      headers: internal,
      payload: score(platformId, victimLineItem),
    });
    expect(published.json()).toMatchObject({ outcome: 'failed', retryable: false });

    const after = advantageOf(victimLms.state);
    expect(after.serviceRequests.slice(victimRequests)).toEqual([]);
    expect(after.scores.length).toBe(victimScores);
    expect(after.tokenRequests.length).toBe(victimTokens);
  });

  it("never calls a roster or line item URL off the registration's origins, even one a link stored before", async () => {
    const platformId = await attackerPlatformId();
    const exam = await createExam(app, attacker.headers, { isDraft: false });
    const resourceLinkId = `rl-${randomUUID()}`;
    const claims = victimServiceClaims(resourceLinkId);
    const ags = claims[AGS_CLAIM] as { lineitem: string; lineitems: string };
    const nrps = claims[NRPS_CLAIM] as { context_memberships_url: string };
    const now = new Date();
    // A link as a launch stored it before the origins were checked.
    await app.examDatabase.db.insert(ltiLinks).values({
      id: randomUUID(),
      platformId,
      deploymentId: attackerLms.deploymentId,
      contextId: VICTIM_COURSE,
      resourceLinkId,
      examId: exam.id,
      lineItemUrl: ags.lineitem,
      lineItemsUrl: ags.lineitems,
      contextMembershipsUrl: nrps.context_memberships_url,
      createdAt: now,
      updatedAt: now,
    });
    const victimRequests = advantageOf(victimLms.state).serviceRequests.length;

    const preview = await app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/roster/lms/preview`,
      headers: attacker.headers,
    });
    expect(preview.statusCode).toBe(409);
    const published = await app.inject({
      method: 'POST',
      url: '/internal/lti/scores',
      headers: internal,
      payload: score(platformId, ags.lineitem),
    });
    expect(published.json()).toMatchObject({ outcome: 'failed', code: 'LTI_ORIGIN_NOT_REGISTERED', retryable: false });
    expect(advantageOf(victimLms.state).serviceRequests.slice(victimRequests)).toEqual([]);
  });

  it("signs each registration's client assertions with that registration's own key, and publishes both keys", async () => {
    const attackerPlatform = await attackerPlatformId();
    const [victimRow] = await app.examDatabase.db
      .select()
      .from(ltiPlatforms)
      .where(eq(ltiPlatforms.clientId, victimLms.clientId));
    const attackerKid = (await app.ltiToolKeys.signingKey(attackerPlatform)).kid;
    const victimKid = (await app.ltiToolKeys.signingKey(victimRow!.id)).kid;
    expect(attackerKid).not.toBe(victimKid);
    const published = (await app.inject({ method: 'GET', url: '/lti/jwks' })).json() as {
      keys: Array<{ kid: string }>;
    };
    expect(published.keys.map((k) => k.kid)).toEqual(expect.arrayContaining([attackerKid, victimKid]));

    // A score to each LMS, through a line item its own launch named: each token endpoint sees its registration's kid.
    for (const [lms, platformId, kid] of [
      [victimLms, victimRow!.id, victimKid],
      [attackerLms, attackerPlatform, attackerKid],
    ] as const) {
      const resourceLinkId = `rl-${randomUUID()}`;
      const ags = advantageClaims(lms.state, {
        user: { sub: 't' },
        roles: [Roles.instructor],
        resourceLink: { id: resourceLinkId },
        context: { id: 'course-k' },
      })[AGS_CLAIM] as { lineitem: string };
      await app.examDatabase.db.insert(ltiLinks).values({
        id: randomUUID(),
        platformId,
        deploymentId: lms.deploymentId,
        resourceLinkId,
        examId: (await createExam(app, attacker.headers)).id,
        lineItemUrl: ags.lineitem,
        createdAt: new Date(),
        updatedAt: new Date(),
      });
      const sent = await app.inject({
        method: 'POST',
        url: '/internal/lti/scores',
        headers: internal,
        payload: score(platformId, ags.lineitem),
      });
      expect(sent.json()).toEqual({ outcome: 'sent' });
      expect(advantageOf(lms.state).tokenRequests.at(-1)).toMatchObject({ granted: true, kid });
    }
  });
});
