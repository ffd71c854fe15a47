import { createLocalJWKSet, jwtVerify, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLmsSimulator, type LmsSimulator } from './simulator.ts';
import { makeSigningPair, Roles, type SigningPair } from './state.ts';

const TOOL = {
  loginUrl: 'http://tool.test/lti/login',
  launchUrl: 'http://tool.test/lti/launch',
  jwksUrl: 'http://tool.test/lti/jwks',
};

describe('the LMS simulator', () => {
  let sim: LmsSimulator;
  let toolKey: SigningPair;
  beforeAll(async () => {
    toolKey = await makeSigningPair();
    sim = await createLmsSimulator({ tool: { ...TOOL, fetchJwks: async () => ({ keys: [toolKey.publicJwk] }) } });
  });
  afterAll(() => sim.close());

  /** The tool's authentication request for a launch, as a conforming tool sends it. */
  function authRequest(overrides: Record<string, string | undefined> = {}) {
    const login = new URL(sim.loginInitiationUrl({ user: { sub: 'u-1', name: 'Ada' }, roles: [Roles.learner] }));
    const url = new URL(sim.authLoginUrl);
    const params: Record<string, string | undefined> = {
      scope: 'openid',
      response_type: 'id_token',
      response_mode: 'form_post',
      prompt: 'none',
      client_id: sim.clientId,
      redirect_uri: TOOL.launchUrl,
      login_hint: login.searchParams.get('login_hint')!,
      lti_message_hint: login.searchParams.get('lti_message_hint')!,
      state: 'state-1',
      nonce: 'nonce-1',
      ...overrides,
    };
    for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
    return { url: url.toString(), login };
  }

  it('starts a third-party login at the tool with the issuer, hints, target and deployment', () => {
    const { login } = authRequest();
    expect(login.origin + login.pathname).toBe(TOOL.loginUrl);
    expect(Object.fromEntries(login.searchParams)).toMatchObject({
      iss: sim.issuer,
      login_hint: 'u-1',
      target_link_uri: TOOL.launchUrl,
      client_id: sim.clientId,
      lti_deployment_id: sim.deploymentId,
    });
  });

  it('answers a good authentication request with a form posting an id_token signed by its published key', async () => {
    const form = await sim.authorize(authRequest().url);
    expect(form.action).toBe(TOOL.launchUrl);
    expect(form.fields.state).toBe('state-1');
    const jwks = (await (await fetch(sim.jwksUrl)).json()) as { keys: [] };
    const { payload } = await jwtVerify(form.fields.id_token!, createLocalJWKSet(jwks), {
      issuer: sim.issuer,
      audience: sim.clientId,
    });
    expect(payload).toMatchObject({
      sub: 'u-1',
      nonce: 'nonce-1',
      name: 'Ada',
      'https://purl.imsglobal.org/spec/lti/claim/version': '1.3.0',
      'https://purl.imsglobal.org/spec/lti/claim/message_type': 'LtiResourceLinkRequest',
      'https://purl.imsglobal.org/spec/lti/claim/deployment_id': sim.deploymentId,
    });
  });

  it.each([
    ['another client id', { client_id: 'someone-else' }, /client_id/],
    ['an unregistered redirect URI', { redirect_uri: 'http://evil.test/launch' }, /redirect_uri/],
    ['no nonce', { nonce: undefined }, /nonce/],
    ['no state', { state: undefined }, /state/],
    ['another response mode', { response_mode: 'fragment' }, /response_mode/],
    ['another user than the launch’s', { login_hint: 'u-2' }, /login_hint/],
  ])('refuses an authentication request with %s, and records why', async (_label, overrides, reason) => {
    const response = await fetch(authRequest(overrides).url);
    expect(response.status).toBe(400);
    expect(sim.authErrors.at(-1)).toMatch(reason);
  });

  async function deepLinkResponse(key: SigningPair, claims: Record<string, unknown> = {}) {
    return new SignJWT({
      'https://purl.imsglobal.org/spec/lti/claim/message_type': 'LtiDeepLinkingResponse',
      'https://purl.imsglobal.org/spec/lti/claim/version': '1.3.0',
      'https://purl.imsglobal.org/spec/lti/claim/deployment_id': sim.deploymentId,
      'https://purl.imsglobal.org/spec/lti-dl/claim/content_items': [
        { type: 'ltiResourceLink', title: 'Quiz', url: TOOL.launchUrl, custom: { exam_id: 'e1' } },
      ],
      ...claims,
    })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid })
      .setIssuer(sim.clientId)
      .setAudience(sim.issuer)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key.privateKey);
  }
  const returnDeepLink = (jwt: string) =>
    fetch(sim.deepLinkReturnUrl, { method: 'POST', body: new URLSearchParams({ JWT: jwt }) });

  it("places a deep-linking response signed by the tool's key in the course", async () => {
    const response = await returnDeepLink(await deepLinkResponse(toolKey));
    expect(response.status).toBe(200);
    const recorded = sim.deepLinkResponses.at(-1)!;
    expect(recorded.ok).toBe(true);
    const placement = recorded.ok ? recorded.placement! : undefined;
    expect(placement).toMatchObject({ title: 'Quiz', url: TOOL.launchUrl, custom: { exam_id: 'e1' } });
    expect(sim.placements.get(placement!.resourceLinkId)).toEqual(placement);
  });

  it('refuses a deep-linking response signed by another key, or of another message type', async () => {
    expect((await returnDeepLink(await deepLinkResponse(await makeSigningPair()))).status).toBe(400);
    expect(sim.deepLinkResponses.at(-1)).toMatchObject({ ok: false });
    const wrongType = await deepLinkResponse(toolKey, {
      'https://purl.imsglobal.org/spec/lti/claim/message_type': 'LtiResourceLinkRequest',
    });
    expect((await returnDeepLink(wrongType)).status).toBe(400);
    expect(sim.deepLinkResponses.at(-1)).toEqual({ ok: false, error: 'message_type is LtiResourceLinkRequest' });
  });
});
