import { createHmac } from 'node:crypto';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { PreviewMessages } from '@exam/domain/public-exam';
import { createSigner, createVerifier } from 'fast-jwt';
import { z } from 'zod';

/** The audience and type every preview token carries; a creator or attempt token carries neither. */
export const PREVIEW_AUDIENCE = 'exam-preview';

const PreviewClaimsSchema = z.object({
  typ: z.literal(PREVIEW_AUDIENCE),
  /** The one exam the token may read. */
  sub: z.string(),
  /** The creator who asked for it; the exam must still belong to them when it is read. */
  ownerId: z.string(),
  /** The creator's sign-in session it was bought with: signing out (or out everywhere) ends the preview too. */
  sid: z.string(),
});
export type PreviewClaims = z.infer<typeof PreviewClaimsSchema>;

/**
 * Preview tokens are signed with a key of their own, derived from JWT_SECRET with HMAC-SHA256 under a
 * fixed label (key separation: one secret, independent keys per purpose). Every service verifies creator
 * and attempt tokens with JWT_SECRET itself, so a preview token fails there on its signature, and a
 * creator token fails here: neither can stand in for the other, whatever claims it carries.
 */
export function previewKeyOf(jwtSecret: string): string {
  return createHmac('sha256', jwtSecret).update('exam-preview-token/v1').digest('base64url');
}

export function createPreviewTokens(opts: { jwtSecret: string; ttlSeconds: number; clock: { now(): Date } }) {
  const key = previewKeyOf(opts.jwtSecret);
  const sign = createSigner({ key, algorithm: 'HS256', aud: PREVIEW_AUDIENCE, expiresIn: opts.ttlSeconds * 1000 });
  return {
    issue(examId: string, ownerId: string, sessionId: string): { token: string; expiresAt: string } {
      const nowSeconds = Math.floor(opts.clock.now().getTime() / 1000);
      const claims: PreviewClaims = { typ: PREVIEW_AUDIENCE, sub: examId, ownerId, sid: sessionId };
      return {
        token: sign({ ...claims, iat: nowSeconds }),
        expiresAt: new Date((nowSeconds + opts.ttlSeconds) * 1000).toISOString(),
      };
    },

    /** The claims of a valid, unexpired preview token; 401 for anything else. */
    verify(token: string): PreviewClaims {
      const verifier = createVerifier({
        key,
        algorithms: ['HS256'],
        allowedAud: PREVIEW_AUDIENCE,
        requiredClaims: ['exp', 'aud', 'typ', 'sub', 'ownerId', 'sid'],
        clockTimestamp: opts.clock.now().getTime(),
      });
      try {
        return PreviewClaimsSchema.parse(verifier(token));
      } catch {
        throw new AppError(ErrorCode.UNAUTHENTICATED, PreviewMessages.invalid);
      }
    },
  };
}
export type PreviewTokens = ReturnType<typeof createPreviewTokens>;
