import { candidateKey } from '@exam/domain/candidate-key';
import type { Deps } from '../../deps.ts';
import type { SubmissionsRepository } from '../submissions/submissions.repository.ts';

/**
 * After a release, exam-service queues a notice to each released candidate on the exam's roster (it
 * keeps who was notified, so releasing again mails nobody twice). Sent after the answer and never awaited
 * by it: exam-service being down does not fail or slow the release; it is logged.
 */
export function createReleaseNotices(
  repo: SubmissionsRepository,
  deps: Pick<Deps, 'examAccess'>,
  log: { warn(obj: object, msg: string): void },
) {
  const pending = new Set<Promise<void>>();
  return {
    afterRelease(examId: string): void {
      const task = repo
        .releasedStudentIds(examId)
        .then((ids) => deps.examAccess.notifyRelease(examId, [...new Set(ids.map(candidateKey))]))
        .then(() => undefined)
        .catch((err: unknown) => log.warn({ err, examId }, 'release notices could not be queued'))
        .finally(() => pending.delete(task));
      pending.add(task);
    },
    /** Waits for notices still being handed over (the app's close, tests). */
    async drain(): Promise<void> {
      await Promise.all(pending);
    },
  };
}
export type ReleaseNotices = ReturnType<typeof createReleaseNotices>;
