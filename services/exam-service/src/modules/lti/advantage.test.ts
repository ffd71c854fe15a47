import { randomUUID } from 'node:crypto';
import type { LtiScoreRequest } from '@exam/domain/lti-ags';
import { advantageClaims, advantageOf, AdvantageScopes } from '@exam/lti-simulator/advantage';
import { createLmsSimulator, type LmsSimulator } from '@exam/lti-simulator/simulator';
import { Roles } from '@exam/lti-simulator/state';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scoresUrl } from '../../adapters/lti-ags.ts';
import { nextLink } from '../../adapters/lti-nrps.ts';
import { createLtiEgress } from '../../adapters/lti-egress.ts';
import { createServiceTokens, LtiScopes } from '../../adapters/lti-service-token.ts';
import { ltiLinks } from '../../db/schema.ts';
import { buildTestApp, createCreator, createExam, type TestApp } from '../../testing/app.ts';

type Creator = Awaited<ReturnType<typeof createCreator>>;
const internal = { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN };

describe('LTI Advantage: scores (AGS) and course rosters (NRPS)', () => {
  let app: TestApp;
  let sim: LmsSimulator;
  let owner: Creator;
  let platformId: string;
  const jwks = async () => (await app.inject({ method: 'GET', url: '/lti/jwks' })).json() as JSONWebKeySet;

  beforeAll(async () => {
    // The simulator listens on 127.0.0.1 over http: allowed only with the flag (see the egress tests below).
    app = await buildTestApp({
      env: { LTI_TOOL_ORIGIN: 'https://creator.example.test', LTI_ALLOW_LOOPBACK_HTTP: 'true' },
    });
    sim = await createLmsSimulator({
      tool: {
        loginUrl: 'https://creator.example.test/lti/login',
        launchUrl: 'https://creator.example.test/lti/launch',
        jwksUrl: 'https://creator.example.test/lti/jwks',
        fetchJwks: async () => (await jwks()) as { keys: Array<Record<string, unknown>> },
      },
    });
    owner = await createCreator(app);
    const created = await app.inject({
      method: 'POST',
      url: '/api/lti/platforms',
      headers: owner.headers,
      payload: sim.registration(),
    });
    expect(created.statusCode).toBe(201);
    platformId = created.json<{ platform: { id: string } }>().platform.id;
  });
  afterAll(async () => {
    await sim.close();
    await app.close();
  });

  /** An exam of the owner placed in a simulated course, as a launch leaves it: the link with its service URLs. */
  async function placedExam(contextId = `course-${randomUUID().slice(0, 8)}`) {
    const exam = await createExam(app, owner.headers, { isDraft: false });
    const resourceLinkId = `rl-${randomUUID()}`;
    const claims = advantageClaims(sim.state, {
      user: { sub: 'instructor-1' },
      roles: [Roles.instructor],
      resourceLink: { id: resourceLinkId },
      context: { id: contextId },
    });
    const ags = claims['https://purl.imsglobal.org/spec/lti-ags/claim/endpoint'] as Record<string, string>;
    const nrps = claims['https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice'] as Record<string, string>;
    const now = new Date();
    await app.examDatabase.db.insert(ltiLinks).values({
      id: randomUUID(),
      platformId,
      deploymentId: sim.deploymentId,
      contextId,
      resourceLinkId,
      title: 'Midterm',
      examId: exam.id,
      lineItemUrl: ags.lineitem!,
      lineItemsUrl: ags.lineitems!,
      agsScopes: [AdvantageScopes.score],
      contextMembershipsUrl: nrps.context_memberships_url!,
      createdAt: now,
      updatedAt: now,
    });
    return { examId: exam.id, contextId, lineItemUrl: ags.lineitem! };
  }

  const score = (lineItemUrl: string, overrides: Partial<LtiScoreRequest> = {}): LtiScoreRequest => ({
    platformId,
    lineItemUrl,
    userId: `learner-${randomUUID()}`,
    scoreGiven: 7.5,
    scoreMaximum: 10,
    activityProgress: 'Completed',
    gradingProgress: 'FullyGraded',
    timestamp: new Date().toISOString(),
    ...overrides,
  });
  const publish = (payload: unknown, headers: Record<string, string> = internal) =>
    app.inject({ method: 'POST', url: '/internal/lti/scores', headers, payload: payload as object });

  describe('client credentials', () => {
    it('signs the client assertion as the Security Framework asks, with the key the tool publishes', async () => {
      const tokens = createServiceTokens({
        signingKey: (id) => app.ltiToolKeys.signingKey(id),
        clock: { now: () => new Date() },
      });
      const platform = { id: platformId, clientId: sim.clientId, authTokenUrl: sim.authTokenUrl };
      const assertion = await tokens.clientAssertion(platform);
      const header = decodeProtectedHeader(assertion);
      expect(header).toMatchObject({
        alg: 'RS256',
        typ: 'JWT',
        kid: (await app.ltiToolKeys.signingKey(platformId)).kid,
      });
      const { payload } = await jwtVerify(assertion, createLocalJWKSet(await jwks()), {
        issuer: sim.clientId,
        subject: sim.clientId,
        audience: sim.authTokenUrl,
      });
      expect(payload.jti).toEqual(expect.any(String));
      expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(300);
      // Every assertion is new: the platform refuses a jti it has seen.
      expect(decodeJwt(await tokens.clientAssertion(platform)).jti).not.toBe(payload.jti);
    });

    it('keeps a token until shortly before it expires, then asks for a new one', async () => {
      let now = Date.now();
      const tokens = createServiceTokens({
        signingKey: (id) => app.ltiToolKeys.signingKey(id),
        clock: { now: () => new Date(now) },
      });
      const platform = { id: platformId, clientId: sim.clientId, authTokenUrl: sim.authTokenUrl };
      const requests = advantageOf(sim.state).tokenRequests;
      const before = requests.length;
      const first = await tokens.token(platform, [LtiScopes.score]);
      expect(await tokens.token(platform, [LtiScopes.score])).toBe(first);
      expect(requests.slice(before)).toEqual([expect.objectContaining({ scopes: [LtiScopes.score], granted: true })]);
      // Another scope is another token.
      await tokens.token(platform, [LtiScopes.memberships]);
      expect(requests).toHaveLength(before + 2);
      // The simulator grants an hour; in its last minute the token is not used any more.
      now += 3600_000 - 30_000;
      expect(await tokens.token(platform, [LtiScopes.score])).not.toBe(first);
      expect(requests).toHaveLength(before + 3);
    });

    it('reports a refused token request as an error no retry fixes', async () => {
      const other = await app.inject({
        method: 'POST',
        url: '/api/lti/platforms',
        headers: owner.headers,
        payload: { ...sim.registration('Wrong client'), clientId: `not-${sim.clientId}` },
      });
      const { lineItemUrl } = await placedExam();
      const wrongPlatform = other.json<{ platform: { id: string } }>().platform.id;
      await app.examDatabase.db.insert(ltiLinks).values({
        id: randomUUID(),
        platformId: wrongPlatform,
        deploymentId: sim.deploymentId,
        resourceLinkId: `rl-${randomUUID()}`,
        examId: (await createExam(app, owner.headers)).id,
        lineItemUrl,
        createdAt: new Date(),
        updatedAt: new Date(),
      });
      const response = await publish(score(lineItemUrl, { platformId: wrongPlatform }));
      expect(response.json()).toMatchObject({ outcome: 'failed', code: 'LMS_TOKEN_REFUSED', retryable: false });
      expect(response.json().message).toMatch(/401/);
    });
  });

  describe('POST /internal/lti/scores', () => {
    it('posts the score to the line item, with /scores in the path before the query string', async () => {
      const { lineItemUrl } = await placedExam();
      expect(lineItemUrl).toContain('?');
      const sent = score(lineItemUrl, { comment: 'Well argued' });
      const response = await publish(sent);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ outcome: 'sent' });
      expect(advantageOf(sim.state).scores.at(-1)).toMatchObject({
        userId: sent.userId,
        scoreGiven: 7.5,
        scoreMaximum: 10,
        activityProgress: 'Completed',
        gradingProgress: 'FullyGraded',
        timestamp: sent.timestamp,
        comment: 'Well argued',
      });
    });

    it('sends a withdrawn score as pending without points', async () => {
      const { lineItemUrl } = await placedExam();
      const sent = score(lineItemUrl, { gradingProgress: 'Pending' });
      delete sent.scoreGiven;
      expect((await publish(sent)).json()).toEqual({ outcome: 'sent' });
      const received = advantageOf(sim.state).scores.at(-1)!;
      expect(received).toMatchObject({ userId: sent.userId, gradingProgress: 'Pending' });
      expect(received).not.toHaveProperty('scoreGiven');
    });

    it('gets a new token once when the LMS no longer accepts the cached one', async () => {
      const { lineItemUrl } = await placedExam();
      expect((await publish(score(lineItemUrl))).json()).toEqual({ outcome: 'sent' });
      advantageOf(sim.state).revokeTokens();
      const before = advantageOf(sim.state).tokenRequests.length;
      expect((await publish(score(lineItemUrl))).json()).toEqual({ outcome: 'sent' });
      expect(advantageOf(sim.state).tokenRequests).toHaveLength(before + 1);
    });

    it('maps a 401 that a new token does not cure to an error no retry fixes, and a 503 to one a retry may fix', async () => {
      const { lineItemUrl } = await placedExam();
      const scores = advantageOf(sim.state).scores.length;
      advantageOf(sim.state).scoreFaults.push(401, 401);
      expect((await publish(score(lineItemUrl))).json()).toMatchObject({
        outcome: 'failed',
        code: 'LMS_UNAUTHORIZED',
        retryable: false,
      });
      advantageOf(sim.state).scoreFaults.push(503);
      expect((await publish(score(lineItemUrl))).json()).toMatchObject({
        outcome: 'failed',
        code: 'LMS_UNAVAILABLE',
        retryable: true,
      });
      expect(advantageOf(sim.state).scores).toHaveLength(scores);
    });

    it('reports a token endpoint that is down as a failure a retry may fix', async () => {
      // A platform registered anew has no cached token: the score needs one from the token endpoint, which is down.
      // It is another LMS (one client ID is registered once per token endpoint), with a line item its launch named.
      const other = await createLmsSimulator({ tool: { ...sim.state.tool } });
      try {
        const fresh = await app.inject({
          method: 'POST',
          url: '/api/lti/platforms',
          headers: owner.headers,
          payload: other.registration('Another LMS'),
        });
        expect(fresh.statusCode).toBe(201);
        const freshId = fresh.json<{ platform: { id: string } }>().platform.id;
        const resourceLinkId = `rl-${randomUUID()}`;
        const ags = advantageClaims(other.state, {
          user: { sub: 'instructor-1' },
          roles: [Roles.instructor],
          resourceLink: { id: resourceLinkId },
        })['https://purl.imsglobal.org/spec/lti-ags/claim/endpoint'] as { lineitem: string };
        await app.examDatabase.db.insert(ltiLinks).values({
          id: randomUUID(),
          platformId: freshId,
          deploymentId: other.deploymentId,
          resourceLinkId,
          examId: (await createExam(app, owner.headers)).id,
          lineItemUrl: ags.lineitem,
          createdAt: new Date(),
          updatedAt: new Date(),
        });
        advantageOf(other.state).tokenFaults.push(503);
        expect((await publish(score(ags.lineitem, { platformId: freshId }))).json()).toMatchObject({
          outcome: 'failed',
          code: 'LMS_UNAVAILABLE',
          retryable: true,
        });
        expect((await publish(score(ags.lineitem, { platformId: freshId }))).json()).toEqual({ outcome: 'sent' });
      } finally {
        await other.close();
      }
    });

    it('sends nothing to a line item no launch named, and 404s an unknown platform', async () => {
      const elsewhere = `${sim.origin}/courses/x/lineitems/li-999`;
      expect((await publish(score(elsewhere))).json()).toMatchObject({
        outcome: 'failed',
        code: 'LTI_LINE_ITEM_UNKNOWN',
        retryable: false,
      });
      expect((await publish(score(elsewhere, { platformId: 'no-such-platform' }))).statusCode).toBe(404);
    });

    it('is internal only, and refuses a malformed score with 400', async () => {
      const { lineItemUrl } = await placedExam();
      expect((await publish(score(lineItemUrl), {})).statusCode).toBe(401);
      expect((await publish(score(lineItemUrl), owner.headers)).statusCode).toBe(401);
      const bad = await publish({ ...score(lineItemUrl), scoreMaximum: 0 });
      expect(bad.statusCode).toBe(400);
      expect(JSON.stringify(bad.json())).toContain('scoreMaximum');
    });
  });

  describe('roster import from the LMS course', () => {
    const members = (contextId: string) =>
      advantageOf(sim.state).members.set(contextId, [
        { user_id: 'u-ada', roles: [Roles.learner], name: 'Ada Lovelace', email: 'Ada@Example.edu', status: 'Active' },
        { user_id: 'u-prof', roles: [Roles.instructor], name: 'Prof Babbage', email: 'prof@example.edu' },
        { user_id: 'u-bob', roles: ['Learner'], given_name: 'Bob', family_name: 'Stone' },
        { user_id: 'u-gone', roles: [Roles.learner], name: 'Gone Learner', status: 'Inactive' },
        { user_id: 'u-cy', roles: [Roles.learner, Roles.administrator], name: 'Cy Young', email: 'not-an-address' },
      ]);
    const get = (url: string, headers = owner.headers) => app.inject({ method: 'GET', url, headers });

    it('previews the active learners across pages, then imports them with the LMS user id as candidate ID', async () => {
      const { examId, contextId } = await placedExam();
      members(contextId);
      expect((await get(`/api/exams/${examId}/roster/lms`)).json()).toMatchObject({
        linked: true,
        courses: [{ platformName: 'LMS simulator', contextId, title: 'Midterm' }],
      });
      const preview = await get(`/api/exams/${examId}/roster/lms/preview`);
      expect(preview.statusCode).toBe(200);
      expect(preview.json()).toEqual({
        members: [
          { candidateId: 'u-ada', name: 'Ada Lovelace', email: 'ada@example.edu', onRoster: false },
          { candidateId: 'u-bob', name: 'Bob Stone', email: null, onRoster: false },
          { candidateId: 'u-cy', name: 'Cy Young', email: null, onRoster: false },
        ],
        skipped: 2,
      });
      expect((await get(`/api/exams/${examId}/roster`)).json()).toEqual({
        entries: [],
        rosterAdmission: 'candidate-id',
      });

      const imported = await app.inject({
        method: 'POST',
        url: `/api/exams/${examId}/roster/lms/import`,
        headers: owner.headers,
      });
      expect(imported.statusCode).toBe(200);
      expect(imported.json()).toMatchObject({ imported: 3, skipped: 2 });
      const entries = imported.json<{ entries: Array<{ candidateId: string; name: string }> }>().entries;
      expect(entries.map((e) => e.candidateId).sort()).toEqual(['u-ada', 'u-bob', 'u-cy']);
      // Importing again adds nobody; the preview now knows who is on the roster.
      await app.inject({ method: 'POST', url: `/api/exams/${examId}/roster/lms/import`, headers: owner.headers });
      expect((await get(`/api/exams/${examId}/roster`)).json().entries).toHaveLength(3);
      expect(
        (await get(`/api/exams/${examId}/roster/lms/preview`))
          .json()
          .members.every((m: { onRoster: boolean }) => m.onRoster),
      ).toBe(true);
    });

    it('answers 404 to another creator, and 409 for an exam not placed in a course', async () => {
      const { examId, contextId } = await placedExam();
      members(contextId);
      const other = await createCreator(app);
      expect((await get(`/api/exams/${examId}/roster/lms/preview`, other.headers)).statusCode).toBe(404);
      expect((await get(`/api/exams/${examId}/roster/lms`, other.headers)).statusCode).toBe(404);
      const importedByOther = await app.inject({
        method: 'POST',
        url: `/api/exams/${examId}/roster/lms/import`,
        headers: other.headers,
      });
      expect(importedByOther.statusCode).toBe(404);
      expect((await get(`/api/exams/${examId}/roster`)).json().entries).toEqual([]);

      const unplaced = await createExam(app, owner.headers);
      expect((await get(`/api/exams/${unplaced.id}/roster/lms`)).json()).toEqual({ linked: false, courses: [] });
      expect((await get(`/api/exams/${unplaced.id}/roster/lms/preview`)).statusCode).toBe(409);
    });
  });

  describe('URL helpers', () => {
    it('puts /scores into the line item path, before a query string', () => {
      expect(scoresUrl('https://lms.test/api/lti/courses/1/line_items/2?type=x&a=b')).toBe(
        'https://lms.test/api/lti/courses/1/line_items/2/scores?type=x&a=b',
      );
      expect(scoresUrl('https://lms.test/li/2/')).toBe('https://lms.test/li/2/scores');
    });

    it('reads the next page from a Link header with several relations', () => {
      expect(nextLink('<https://lms.test/m?p=1>; rel="first", <https://lms.test/m?p=3>; rel="next"')).toBe(
        'https://lms.test/m?p=3',
      );
      expect(nextLink('<https://lms.test/m?p=1>; rel="prev"')).toBeUndefined();
      expect(nextLink(null)).toBeUndefined();
    });
  });

  describe('egress to LMS URLs', () => {
    const resolveTo =
      (...addresses: string[]) =>
      async () =>
        addresses;

    it('calls only https hosts whose every address is public unless LTI_ALLOW_LOOPBACK_HTTP is set', async () => {
      const strict = createLtiEgress({ allowLocal: false, resolve: resolveTo('93.184.215.14') });
      await expect(strict.check('https://lms.example.edu/token')).resolves.toBeUndefined();
      for (const [url, reason] of [
        ['http://lms.example.edu/token', /not https/],
        ['https://127.0.0.1:8443/token', /loopback, private or link-local/],
        ['https://[::1]/token', /loopback, private or link-local/],
        ['https://169.254.169.254/latest/meta-data', /loopback, private or link-local/],
      ] as const)
        await expect(strict.check(url)).rejects.toMatchObject({
          code: 'LMS_ADDRESS_REFUSED',
          retryable: false,
          message: expect.stringMatching(reason),
        });
      const rebound = createLtiEgress({ allowLocal: false, resolve: resolveTo('93.184.215.14', '10.0.0.5') });
      await expect(rebound.check('https://lms.example.edu/token')).rejects.toMatchObject({
        code: 'LMS_ADDRESS_REFUSED',
      });
      const unknown = createLtiEgress({
        allowLocal: false,
        resolve: async () => {
          throw new Error('ENOTFOUND');
        },
      });
      await expect(unknown.check('https://nowhere.example/token')).rejects.toThrow(/could not be resolved/);
      const local = createLtiEgress({ allowLocal: true, resolve: resolveTo('127.0.0.1') });
      await expect(local.check('http://localhost:4000/token')).resolves.toBeUndefined();
    });

    it('refuses to send a score or read a roster at a loopback LMS without the flag, saying why', async () => {
      const strictApp = await buildTestApp({ env: { LTI_TOOL_ORIGIN: 'https://creator.example.test' } });
      try {
        const { examId, lineItemUrl } = await placedExam();
        const requests = advantageOf(sim.state).tokenRequests.length;
        const refused = await strictApp.inject({
          method: 'POST',
          url: '/internal/lti/scores',
          headers: internal,
          payload: score(lineItemUrl),
        });
        expect(refused.json()).toMatchObject({ outcome: 'failed', code: 'LMS_ADDRESS_REFUSED', retryable: false });
        expect(refused.json().message).toMatch(/not https/);
        const preview = await strictApp.inject({
          method: 'GET',
          url: `/api/exams/${examId}/roster/lms/preview`,
          headers: owner.headers,
        });
        expect(preview.statusCode).toBe(502);
        expect(preview.json().error.message).toMatch(/not https/);
        // Nothing reached the LMS.
        expect(advantageOf(sim.state).tokenRequests).toHaveLength(requests);
      } finally {
        await strictApp.close();
      }
    });
  });
});
