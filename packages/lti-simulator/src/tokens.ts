import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, SignJWT, type JSONWebKeySet } from 'jose';
import { randomUUID } from 'node:crypto';
import type { DeepLinkResponse, LaunchSpec, Placement, SimulatorState } from './state.ts';

const LTI = 'https://purl.imsglobal.org/spec/lti/claim';
const DL = 'https://purl.imsglobal.org/spec/lti-dl/claim';

/** The id_token of a launch (LTI Core 1.3 §5.3 and §5.4; Deep Linking 2.0 §4.4), signed with the simulator's key. */
export async function signIdToken(
  state: SimulatorState,
  launch: LaunchSpec,
  opts: { nonce: string; target: string; returnUrl: string; extraClaims: Record<string, unknown> },
): Promise<string> {
  const messageType = launch.messageType ?? 'LtiResourceLinkRequest';
  const { user } = launch;
  const context = launch.context ?? { id: 'course-101', title: 'Biology 101', label: 'BIO101' };
  const claims: Record<string, unknown> = {
    nonce: opts.nonce,
    [`${LTI}/message_type`]: messageType,
    [`${LTI}/version`]: '1.3.0',
    [`${LTI}/deployment_id`]: launch.deploymentId ?? state.deploymentId,
    [`${LTI}/target_link_uri`]: opts.target,
    [`${LTI}/roles`]: launch.roles,
    [`${LTI}/context`]: { ...context, type: ['http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering'] },
    ...(user.name !== undefined ? { name: user.name } : {}),
    ...(user.givenName !== undefined ? { given_name: user.givenName } : {}),
    ...(user.familyName !== undefined ? { family_name: user.familyName } : {}),
    ...(user.email !== undefined ? { email: user.email } : {}),
    ...(user.personSourcedId !== undefined ? { [`${LTI}/lis`]: { person_sourcedid: user.personSourcedId } } : {}),
    ...(launch.custom ? { [`${LTI}/custom`]: launch.custom } : {}),
  };
  if (messageType === 'LtiResourceLinkRequest')
    claims[`${LTI}/resource_link`] = launch.resourceLink ?? { id: `link-${randomUUID()}`, title: 'Exam' };
  else
    claims[`${DL}/deep_linking_settings`] = {
      deep_link_return_url: opts.returnUrl,
      accept_types: launch.deepLinking?.acceptTypes ?? ['ltiResourceLink'],
      accept_presentation_document_targets: ['iframe', 'window'],
      accept_multiple: false,
      auto_create: true,
      ...(launch.deepLinking?.data !== undefined ? { data: launch.deepLinking.data } : {}),
    };
  Object.assign(claims, opts.extraClaims);
  for (const [name, value] of Object.entries(launch.faults?.claims ?? {})) {
    if (value === undefined) delete claims[name];
    else claims[name] = value;
  }

  const key = launch.faults?.signWithUnpublishedKey ? state.strayKey : state.key;
  const now = Math.floor(Date.now() / 1000);
  const issuedAt = launch.faults?.expired ? now - 3600 : now + (launch.faults?.issuedInSeconds ?? 0);
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + 300)
    .setSubject(user.sub);
  // Overridable through faults.claims (a wrong audience, another issuer).
  if (!('iss' in (launch.faults?.claims ?? {}))) jwt.setIssuer(state.issuer);
  if (!('aud' in (launch.faults?.claims ?? {}))) jwt.setAudience(state.clientId);
  return jwt.sign(key.privateKey);
}

/** Deep Linking 2.0 §4.5: the response JWT is the tool's (iss = client id), for this platform (aud = issuer). */
export async function verifyDeepLinkResponse(
  state: SimulatorState,
  jwt: string | undefined,
  fetchJwks: (() => Promise<{ keys: Array<Record<string, unknown>> }>) | undefined,
): Promise<DeepLinkResponse> {
  if (!jwt) return { ok: false, error: 'JWT is missing' };
  try {
    const keys = fetchJwks
      ? createLocalJWKSet((await fetchJwks()) as JSONWebKeySet)
      : createRemoteJWKSet(new URL(state.tool.jwksUrl));
    const { payload } = await jwtVerify(jwt, keys, {
      issuer: state.clientId,
      audience: state.issuer,
      algorithms: ['RS256'],
      maxTokenAge: '5m',
    });
    if (payload[`${LTI}/message_type`] !== 'LtiDeepLinkingResponse')
      return { ok: false, error: `message_type is ${String(payload[`${LTI}/message_type`])}` };
    if (payload[`${LTI}/version`] !== '1.3.0') return { ok: false, error: 'version is not 1.3.0' };
    if (payload[`${LTI}/deployment_id`] !== state.deploymentId) return { ok: false, error: 'deployment_id differs' };
    const items = payload[`${DL}/content_items`];
    if (!Array.isArray(items)) return { ok: false, error: 'content_items is not an array' };
    const contentItems = items as Array<Record<string, unknown>>;
    const link = contentItems.find((item) => item.type === 'ltiResourceLink');
    const placement = link ? place(state, link) : undefined;
    return { ok: true, claims: payload, contentItems, ...(placement ? { placement } : {}) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** What an LMS does with an ltiResourceLink item: a new resource link in the course. */
function place(state: SimulatorState, item: Record<string, unknown>): Placement {
  const lineItem = item.lineItem as Placement['lineItem'] | undefined;
  const placement: Placement = {
    resourceLinkId: `rl-${randomUUID()}`,
    title: typeof item.title === 'string' ? item.title : 'Untitled',
    url: typeof item.url === 'string' ? item.url : state.tool.launchUrl,
    custom: (item.custom as Record<string, string> | undefined) ?? {},
    ...(lineItem ? { lineItem } : {}),
  };
  state.placements.set(placement.resourceLinkId, placement);
  return placement;
}
