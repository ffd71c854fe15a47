import { AttemptMessages } from '@exam/domain/attempt';
import { candidateKey } from '@exam/domain/candidate-key';
import { questionsPerCandidate, windowState, type Briefing, type BriefingRequest } from '@exam/domain/cohort';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { Deps } from '../../deps.ts';
import { admitCandidate } from './admission.ts';
import type { LtiGrants } from './lti-grant.ts';
import type { StartLimiter } from './start-limits.service.ts';
import { candidateRules, toOverride } from '../accommodations/cohort-rules.ts';
import type { CohortRepository } from '../accommodations/cohort.repository.ts';

/**
 * What the briefing page shows one candidate before Start (docs/product.md#windows-attempts-and-accommodations):
 * their own time, window and attempts. It creates nothing, and tells no more of an existing attempt than a
 * start would (that the ID has attempts, never by whom): no name, no attempt id.
 */
export function createBriefingService(
  repo: CohortRepository,
  deps: Pick<Deps, 'clock' | 'examSource' | 'examAccess'>,
  limiter: StartLimiter,
  ltiGrants: LtiGrants,
) {
  return {
    async briefing(request: BriefingRequest, client: { ip: string }): Promise<Briefing> {
      await limiter.takeBriefing(client.ip);
      const input = await ltiGrants.resolve(request);
      const exam = await deps.examSource.findExam(input.examId);
      if (!exam || exam.isDraft) throw new AppError(ErrorCode.NOT_FOUND, AttemptMessages.notFound);
      if (!exam.isLive) throw new AppError(ErrorCode.EXAM_OFFLINE, AttemptMessages.offline);
      const key = candidateKey(input.studentId);
      const now = deps.clock.now();
      const [override, usage] = await Promise.all([repo.findOverride(exam.id, key), repo.attemptsOf(exam.id, key)]);
      // The same admission as a new attempt's (access code, roster), so a wrong code is said before Start and a
      // stranger to a code or roster exam learns nothing of a candidate's accommodations. A resume needs none.
      if (!usage.inProgress) await admitCandidate(deps, exam, input, limiter, client.ip);
      const rules = candidateRules(exam, override ? toOverride(override) : null);
      return {
        examId: exam.id,
        title: exam.title,
        description: exam.description,
        rules: exam.rules,
        durationMinutes: rules.durationMinutes,
        baseDurationMinutes: exam.timerEnabled ? exam.timerMinutes : null,
        opensAt: rules.window.opensAt && new Date(rules.window.opensAt).toISOString(),
        closesAt: rules.window.closesAt && new Date(rules.window.closesAt).toISOString(),
        windowState: windowState(rules.window, now),
        fullScreenEnabled: exam.fullScreenEnabled,
        workspaceEnabled: exam.codingWorkspace.enabled,
        assistantEnabled: exam.aiSettings.enabled,
        questionCount: questionsPerCandidate(exam.questions, exam.pools),
        attemptsAllowed: rules.attemptsAllowed,
        practice: exam.practice,
        attemptsUsed: usage.used,
        inProgress: usage.inProgress,
        serverNow: now.toISOString(),
      };
    },
  };
}
export type BriefingService = ReturnType<typeof createBriefingService>;
