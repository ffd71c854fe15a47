import { AppError, ErrorCode } from '@exam/domain/errors';
import { LtiMessages } from '@exam/domain/lti';
import type { AttemptLtiLink } from '@exam/domain/lti-ags';
import { verifyLtiGrant } from '@exam/server-kit/lti-grant';

type Identified = { examId: string; name: string; studentId: string; ltiGrant?: string | undefined };

/** Checks an LMS launch's grant (ARCHITECTURE.md "LTI"). */
export type LtiGrants = {
  /**
   * The request as the grant says it: its name and candidate ID replace what the browser sent, and `lti` is the
   * attempt's LMS link. Without a grant the request is as sent; a grant that is forged, expired or for another
   * exam is refused (400 on the ltiGrant field).
   */
  resolve<T extends Identified>(input: T): Promise<T & { lti?: AttemptLtiLink }>;
};

export function createLtiGrants(opts: { jwtSecret: string; clock: { now(): Date } }): LtiGrants {
  return {
    async resolve(input) {
      if (input.ltiGrant === undefined) return input;
      const grant = await verifyLtiGrant(input.ltiGrant, { jwtSecret: opts.jwtSecret, now: opts.clock.now() });
      if (!grant || grant.examId !== input.examId)
        throw new AppError(ErrorCode.VALIDATION, LtiMessages.grantInvalid, [
          { path: 'ltiGrant', message: LtiMessages.grantInvalid },
        ]);
      return { ...input, name: grant.name, studentId: grant.studentId, lti: grant.lti };
    },
  };
}
