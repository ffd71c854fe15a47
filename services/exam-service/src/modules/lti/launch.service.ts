import type { LtiDeepLinkResponse, LtiLaunchNext, LtiLaunchSession } from '@exam/domain/lti';
import { respondDeepLink } from './deep-linking.ts';
import { linkAccount, openSession } from './instructor-tickets.ts';
import { createLaunchContext, type LaunchDeps, type LaunchOptions, type LaunchRepos } from './launch-context.ts';
import { startLogin, type LoginParams } from './oidc-login.ts';
import { verifyLaunch } from './verify-launch.ts';

/**
 * LTI 1.3 logins and launches (ARCHITECTURE.md "LTI"): the login stores its state and nonce (oidc-login.ts), the
 * launch spends them and validates the id_token (verify-launch.ts), then sends an instructor to the creator app with
 * a ticket and a learner to the taker app with a signed grant (resource-link-launch.ts); the instructor's ticket opens
 * a creator session (instructor-tickets.ts) or the deep-linking picker, whose choice goes back signed
 * (deep-linking.ts). Every step reads and writes the database only, so any replica can take any step.
 */
export function createLaunchService(repos: LaunchRepos, deps: LaunchDeps, opts: LaunchOptions) {
  const ctx = createLaunchContext(repos, deps, opts);
  return {
    /** OIDC third-party initiated login (LTI Core 1.3 §5.1.1.1): answers where to send the browser, and the state. */
    login: (params: LoginParams): Promise<{ redirect: string; state: string }> => startLogin(ctx, params),
    /** The authentication response (LTI Core 1.3 §5.1.1.3): answers where the browser goes, or throws LtiLaunchError. */
    launch: (form: { id_token?: string; state?: string }, cookieState: string | undefined): Promise<string> =>
      verifyLaunch(ctx, form, cookieState),
    /** An instructor's ticket: a creator session when the LMS user is linked, else what to link. */
    openSession: (ticket: string): Promise<LtiLaunchSession> => openSession(ctx, ticket),
    /** The signed-in creator links the ticket's LMS user to their account: only on a platform they registered. */
    linkAccount: (creatorId: string, ticket: string): Promise<{ next: LtiLaunchNext }> =>
      linkAccount(ctx, creatorId, ticket),
    /** Deep Linking 2.0 §4.5: the picked exam as one ltiResourceLink, signed with the registration's key. */
    respondDeepLink: (creatorId: string, choice: { ticket: string; examId: string }): Promise<LtiDeepLinkResponse> =>
      respondDeepLink(ctx, creatorId, choice),
  };
}
export type LaunchService = ReturnType<typeof createLaunchService>;
