import type { AuthResponse, User } from '@exam/domain/auth';
import type { FastifyInstance } from 'fastify';
import type { AuthService } from './auth.service.ts';

/**
 * Opens a creator session for the user and signs its token (ARCHITECTURE.md "Creator sessions"): the password
 * sign-in and an LTI instructor launch of a linked account both end here.
 */
export function creatorSignIn(app: FastifyInstance, service: AuthService, opts: { tokenTtl: string }) {
  return async (user: User): Promise<AuthResponse> => {
    const token = await service.openSession(user.id, (sid) => {
      const signed = app.jwt.sign(
        { kind: 'creator', sub: user.id, email: user.email, sid },
        { expiresIn: opts.tokenTtl },
      );
      const { exp } = app.jwt.decode<{ exp: number }>(signed)!;
      return { token: signed, expiresAt: new Date(exp * 1000) };
    });
    return { token, user };
  };
}
export type CreatorSignIn = ReturnType<typeof creatorSignIn>;
