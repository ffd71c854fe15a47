import { AppError, ErrorCode } from '@exam/domain/errors';
import { LtiMessages } from '@exam/domain/lti';
import type { JWTVerifyGetKey } from 'jose';
import { createHash, randomBytes } from 'node:crypto';
import type { Deps } from '../../deps.ts';
import type { AuthRepository } from '../auth/auth.repository.ts';
import type { CreatorSignIn } from '../auth/creator-sign-in.ts';
import type { ExamAccessCheck } from '../exams/exam-access.ts';
import type { LaunchRepository } from './launch.repository.ts';
import type { PlatformsRepository } from './platforms.repository.ts';
import type { ToolKeys } from './tool-keys.ts';

export type LaunchOptions = {
  toolOrigin: string;
  creatorOrigin: string;
  takerOrigin: string;
  jwtSecret: string;
  stateTtlSeconds: number;
  ticketTtlSeconds: number;
  grantTtlSeconds: number;
  clockToleranceSeconds: number;
  /** LTI_IAT_SKEW_SECONDS: how far ahead of this clock an id_token's iat may be. */
  iatSkewSeconds: number;
  /** LTI_ALLOW_LOOPBACK_HTTP: a registration's authorization endpoint may be plain http (one machine only). */
  allowLoopbackHttp: boolean;
};

export type LaunchRepos = {
  platforms: PlatformsRepository;
  launches: LaunchRepository;
  /** The exam a link or deep link names, when the platform's creator may edit it (exam-access.ts). */
  examAccess: ExamAccessCheck;
  auth: AuthRepository;
};

export type LaunchDeps = Pick<Deps, 'clock' | 'ids'> & {
  toolKeys: ToolKeys;
  signIn: CreatorSignIn;
  /** The key set of a platform's JWKS URL (jose's remote set, cached per URL). */
  platformKeys: (jwksUrl: string) => JWTVerifyGetKey;
};

/** What every step of a login and launch shares: the stores, the outside pieces, the settings. */
export type LaunchContext = {
  repos: LaunchRepos;
  deps: LaunchDeps;
  opts: LaunchOptions;
  /** Where the platform posts the id_token, and where a deep-linked resource link points. */
  launchUrl: string;
  /** The instant `seconds` from now on the service's clock. */
  later(seconds: number): Date;
};

export function createLaunchContext(repos: LaunchRepos, deps: LaunchDeps, opts: LaunchOptions): LaunchContext {
  return {
    repos,
    deps,
    opts,
    launchUrl: `${opts.toolOrigin}/lti/launch`,
    later: (seconds) => new Date(deps.clock.now().getTime() + seconds * 1000),
  };
}

/** What an instructor's ticket carries across the redirect into the creator app. */
export type TicketLaunch =
  | { kind: 'exam'; sub: string; examId: string }
  | { kind: 'deep-link'; sub: string; deploymentId: string; returnUrl: string; data?: string };

/** A registration that shares its client ID and token endpoint with an earlier one (see lti_platforms.token_origin). */
export const SUSPENDED =
  "This LMS registration shares its client ID and token endpoint with another creator's and is suspended: its owner must correct it";

export const randomToken = () => randomBytes(32).toString('base64url');
export const hashTicket = (ticket: string) => createHash('sha256').update(ticket).digest('hex');
export const invalidTicket = () =>
  new AppError(ErrorCode.VALIDATION, LtiMessages.ticketInvalid, [
    { path: 'ticket', message: LtiMessages.ticketInvalid },
  ]);
