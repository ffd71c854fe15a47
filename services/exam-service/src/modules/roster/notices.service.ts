import type { Deps, SubmittedCandidates } from '../../deps.ts';
import type { ExamsRepository } from '../exams/exams.repository.ts';
import type { MailQueue } from '../../adapters/mail/mail-queue.service.ts';
import { linkAdmitsWithoutInvitation, releaseMail, reminderMail } from './roster-mails.ts';
import { rosterAdmissionOf } from './roster.service.ts';
import type { RosterRepository } from './roster.repository.ts';

/**
 * The roster's automatic mails (docs/product.md#rosters-and-invitations): one reminder per candidate who
 * has not submitted, `reminderHours` before the exam closes, and one notice per candidate when their
 * result is released. Each entry is claimed (reminded_at, release_notified_at) in the transaction that
 * queues its mail, so replicas running the same job never mail a candidate twice.
 */
export function createNoticesService(
  repo: RosterRepository,
  exams: ExamsRepository,
  deps: Pick<Deps, 'clock'> & { mail: Pick<MailQueue, 'enqueue' | 'notify'>; submissions: SubmittedCandidates },
  opts: { takerOrigin: string; reminderHours: number },
) {
  const origin = opts.takerOrigin.replace(/\/$/, '');

  return {
    /** The roster's e-mails by candidate key (results-service's gradebook export); none for an unknown exam. */
    async rosterEmails(examId: string) {
      return { emails: await repo.emails(examId) };
    },

    /** Queues release notices to these candidates' roster entries; answers how many were queued. */
    async releaseNotices(examId: string, candidateKeys: string[]): Promise<number> {
      const exam = await exams.findById(examId);
      if (!exam) return 0;
      const now = deps.clock.now();
      const queued = await repo.transaction(async (tx) => {
        const entries = await repo.claimReleaseNotices(examId, candidateKeys, now, tx);
        await deps.mail.enqueue(
          entries.map((entry) =>
            releaseMail({ exam, entry, to: entry.email ?? '', resultsLink: `${origin}/taker/results` }),
          ),
          tx,
        );
        return entries.length;
      });
      if (queued) deps.mail.notify();
      return queued;
    },

    /**
     * One pass of the reminder job: for each live exam closing within the reminder time, the roster
     * candidates with an e-mail who have neither submitted nor been reminded get one reminder.
     */
    async sendReminders(): Promise<number> {
      const now = deps.clock.now();
      const until = new Date(now.getTime() + opts.reminderHours * 3_600_000);
      let queued = 0;
      for (const exam of await repo.listExamsClosingBetween(now, until)) {
        const pending = await repo.listUnreminded(exam.id);
        if (pending.length === 0) continue;
        const submitted = new Set(await deps.submissions.submittedCandidateKeys(exam.id));
        const admission = rosterAdmissionOf(exam);
        // A reminder must not send anyone where they would be asked for what no mail gave them: without an
        // invitation, only an exam whose own link admits by name and candidate ID is reminded.
        const reachable = (e: (typeof pending)[number]) =>
          e.invitedAt !== null || linkAdmitsWithoutInvitation(exam, admission);
        const due = pending.filter((e) => !submitted.has(e.candidateKey) && reachable(e));
        queued += await repo.transaction(async (tx) => {
          const claimed = await repo.claimReminders(
            due.map((e) => e.id),
            now,
            tx,
          );
          await deps.mail.enqueue(
            claimed.map((entry) =>
              reminderMail({
                exam,
                entry,
                to: entry.email ?? '',
                examLink: `${origin}/exam/${encodeURIComponent(exam.id)}`,
                admission,
              }),
            ),
            tx,
          );
          return claimed.length;
        });
      }
      if (queued) deps.mail.notify();
      return queued;
    },
  };
}
export type NoticesService = ReturnType<typeof createNoticesService>;
