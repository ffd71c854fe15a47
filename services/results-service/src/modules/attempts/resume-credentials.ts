import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { normaliseResumeCode, RESUME_CODE_ALPHABET, RESUME_CODE_LENGTH } from '@exam/domain/attempt-binding';

/** 256 random bits: nobody guesses it, so storing its plain SHA-256 is enough. */
export function newResumeSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** 8 characters of Crockford base32: 40 bits, which only the per-attempt try limit keeps out of reach. */
export function newResumeCode(): string {
  let code = '';
  for (let i = 0; i < RESUME_CODE_LENGTH; i++) code += RESUME_CODE_ALPHABET[randomInt(RESUME_CODE_ALPHABET.length)];
  return code;
}

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/**
 * 40 bits are few enough to try them all against a stolen plain hash, so the code's hash is an HMAC keyed
 * with a server secret and bound to the attempt id: the database alone does not give the code away.
 */
/** A key of its own for code hashes, derived from the service secret, so it never doubles as the JWT signing key. */
export function resumeCodeKey(serviceSecret: string): string {
  return createHmac('sha256', serviceSecret).update('results-service/resume-code/v1').digest('hex');
}

export function hashCode(key: string, attemptId: string, code: string): string {
  return createHmac('sha256', key)
    .update(`${attemptId}:${normaliseResumeCode(code)}`)
    .digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
