import { LTI_VERSION, LtiClaim, LtiMessageType } from '@exam/domain/lti';
import { errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';
import type { LtiPlatformRow } from './platforms.repository.ts';

/** A launch the tool refuses; the reason is shown to the user (nothing about the launch is stored). */
export class LtiLaunchError extends Error {
  readonly status: number;
  constructor(reason: string, status = 400) {
    super(reason);
    this.name = 'LtiLaunchError';
    this.status = status;
  }
}

const text = z.string().min(1).max(2000);

/** The claims the tool reads (LTI Core 1.3 §5.3–5.4, Deep Linking 2.0 §4.4, AGS 2.0 §3.1, NRPS 2.0 §3.6.1). */
const LaunchClaimsSchema = z.looseObject({
  sub: text,
  name: z.string().optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
  [LtiClaim.messageType]: z.enum([LtiMessageType.resourceLink, LtiMessageType.deepLinkingRequest]),
  [LtiClaim.version]: z.literal(LTI_VERSION),
  [LtiClaim.deploymentId]: text,
  [LtiClaim.targetLinkUri]: text,
  [LtiClaim.roles]: z.array(z.string()),
  [LtiClaim.resourceLink]: z.looseObject({ id: text, title: z.string().nullish() }).optional(),
  [LtiClaim.context]: z.looseObject({ id: text, title: z.string().nullish() }).optional(),
  [LtiClaim.custom]: z.record(z.string(), z.unknown()).optional(),
  [LtiClaim.deepLinkingSettings]: z
    .looseObject({
      deep_link_return_url: text,
      accept_types: z.array(z.string()).optional(),
      data: z.string().optional(),
    })
    .optional(),
  [LtiClaim.agsEndpoint]: z
    .looseObject({
      scope: z.array(z.string()).optional(),
      lineitem: z.string().optional(),
      lineitems: z.string().optional(),
    })
    .optional(),
  [LtiClaim.nrpsService]: z.looseObject({ context_memberships_url: z.string() }).optional(),
});
export type LaunchClaims = z.infer<typeof LaunchClaimsSchema> & JWTPayload;

/** A claim by the name the specifications use (`message_type`, not its full URI). */
const claimName = (claim: string) => claim.split('/').pop() ?? claim;

/** The jose failure said in terms a person registering an LMS can act on. */
function reasonOf(err: unknown): string {
  if (err instanceof errors.JWTExpired) return 'The id_token has expired';
  if (err instanceof errors.JWTClaimValidationFailed)
    return `The id_token's ${err.claim} claim is not valid: ${err.reason}`;
  if (err instanceof errors.JWSSignatureVerificationFailed)
    return "The id_token's signature does not verify against the platform's keys";
  if (err instanceof errors.JWKSNoMatchingKey) return "No key in the platform's JWKS matches the id_token";
  if (err instanceof errors.JOSEAlgNotAllowed) return 'The id_token must be signed with RS256';
  if (err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid)
    return "The platform's JWKS could not be read";
  if (err instanceof errors.JOSEError) return `The id_token is not valid (${err.code})`;
  if (err instanceof TypeError) return "The platform's JWKS could not be read";
  return 'The id_token is not valid';
}

/**
 * Validates an id_token as LTI Core 1.3 §5.1.3 asks: RS256 signature by a key of the platform's JWKS, iss and aud
 * (azp when there are several audiences), exp with a small clock tolerance, an iat no further ahead of this clock than
 * `iatSkewSeconds` (jose checks a future iat only under maxTokenAge), the nonce the login sent,
 * then the LTI claims: version 1.3.0, a message type the tool supports, a deployment the registration lists, and
 * the target link URI of the login.
 */
export async function verifyIdToken(
  idToken: string,
  platform: LtiPlatformRow,
  expected: { nonce: string; targetLinkUri: string },
  opts: { keys: JWTVerifyGetKey; clockToleranceSeconds: number; iatSkewSeconds: number; now: Date },
): Promise<LaunchClaims> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, opts.keys, {
      algorithms: ['RS256'],
      issuer: platform.issuer,
      audience: platform.clientId,
      clockTolerance: opts.clockToleranceSeconds,
      currentDate: opts.now,
      requiredClaims: ['iat', 'exp', 'sub', 'nonce'],
    }));
  } catch (err) {
    throw new LtiLaunchError(reasonOf(err));
  }
  // A token issued in the future would stay usable until its far-off exp: only a clock a little ahead is allowed.
  if (payload.iat! > Math.floor(opts.now.getTime() / 1000) + opts.iatSkewSeconds)
    throw new LtiLaunchError("The id_token's iat claim is in the future: check the LMS's clock");
  // §5.1.3 step 4: with several audiences the authorized party must be present; when present it must be us.
  if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp === undefined)
    throw new LtiLaunchError('The id_token names several audiences but no azp');
  if (payload.azp !== undefined && payload.azp !== platform.clientId)
    throw new LtiLaunchError("The id_token's azp is not this tool's client ID");
  if (payload.nonce !== expected.nonce) throw new LtiLaunchError("The id_token's nonce is not the login's");

  const parsed = LaunchClaimsSchema.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const claim = String(issue.path[0] ?? '');
    throw new LtiLaunchError(`The id_token's ${claimName(claim)} claim is missing or not valid`);
  }
  const claims = parsed.data as LaunchClaims;
  if (!platform.deploymentIds.includes(claims[LtiClaim.deploymentId]))
    throw new LtiLaunchError(`Deployment ${claims[LtiClaim.deploymentId]} is not registered for this platform`);
  if (claims[LtiClaim.targetLinkUri] !== expected.targetLinkUri)
    throw new LtiLaunchError("The id_token's target_link_uri is not the one the login named");
  const messageType = claims[LtiClaim.messageType];
  if (messageType === LtiMessageType.resourceLink && !claims[LtiClaim.resourceLink])
    throw new LtiLaunchError('A resource link launch must name its resource_link');
  if (messageType === LtiMessageType.deepLinkingRequest && !claims[LtiClaim.deepLinkingSettings])
    throw new LtiLaunchError('A deep linking request must carry its deep_linking_settings');
  return claims;
}
