import { LtiLaunchGrantClaimsSchema, type LtiLaunchGrantClaims } from '@exam/domain/lti';
import { jwtVerify, SignJWT } from 'jose';
import { hkdfSync } from 'node:crypto';

/**
 * The learner's launch grant (ARCHITECTURE.md "LTI"): exam-service signs the identity an LMS launch fixed, the
 * taker app carries it, results-service checks it when the attempt starts. HS256 under a key derived from the
 * shared JWT secret (HKDF, RFC 5869) with its own label, so no service ever takes a grant for a creator or attempt
 * token, nor one of those for a grant.
 */
const AUDIENCE = 'exam:lti-launch-grant';

const grantKey = (jwtSecret: string) =>
  new Uint8Array(hkdfSync('sha256', jwtSecret, 'exam-lti', 'lti-launch-grant v1', 32));

export async function signLtiGrant(
  claims: Omit<LtiLaunchGrantClaims, 'kind'>,
  opts: { jwtSecret: string; ttlSeconds: number; now: Date },
): Promise<string> {
  const iat = Math.floor(opts.now.getTime() / 1000);
  return new SignJWT({ ...claims, kind: 'lti-launch' })
    .setProtectedHeader({ alg: 'HS256', typ: 'lti-grant+jwt' })
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + opts.ttlSeconds)
    .sign(grantKey(opts.jwtSecret));
}

/** The grant's claims, or undefined when it is not one this platform signed, or it expired. */
export async function verifyLtiGrant(
  token: string,
  opts: { jwtSecret: string; now: Date },
): Promise<LtiLaunchGrantClaims | undefined> {
  try {
    const { payload } = await jwtVerify(token, grantKey(opts.jwtSecret), {
      audience: AUDIENCE,
      algorithms: ['HS256'],
      typ: 'lti-grant+jwt',
      currentDate: opts.now,
    });
    const parsed = LtiLaunchGrantClaimsSchema.safeParse(payload);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
