import type { Mailer } from '@exam/server-kit/mail';
import type { ExamDatabase } from '../../db/database.ts';
import type { Deps } from '../../deps.ts';
import { createMailQueueRepository, type MailQueueRepository, type NewMail } from './mail-queue.repository.ts';
import { afterFailure, type RetryPolicy } from './retry-policy.ts';

/** A mail as its sender hands it over; the queue gives it its id. */
export type OutgoingMail = Omit<NewMail, 'id'>;

/** How long a claimed mail is reserved for its sender; past it another replica may try it again. */
const CLAIM_LEASE_MS = 5 * 60_000;
const BATCH = 20;

/**
 * The mail queue (docs/product.md#e-mail): features enqueue, the sender job delivers. Enqueueing is one
 * insert, optionally in the caller's transaction; a send failure is recorded on the row and retried with
 * back-off, never reported to the person whose action queued the mail.
 */
export function createMailQueue(
  database: ExamDatabase,
  deps: Pick<Deps, 'clock' | 'ids'> & { mailer: Mailer },
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void },
  policy: RetryPolicy,
) {
  const repo = createMailQueueRepository(database);
  const listeners = new Set<() => void>();
  const rows = (mails: OutgoingMail[]) => mails.map((m) => ({ ...m, id: deps.ids.next() }));

  async function deliver(
    repository: MailQueueRepository,
    mail: Awaited<ReturnType<MailQueueRepository['claimDue']>>[number],
  ) {
    try {
      await deps.mailer.send({
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
      });
      await repository.markSent(mail.id, deps.clock.now());
      return true;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const next = afterFailure(mail.attempts, deps.clock.now(), policy);
      await repository.markFailed(mail.id, message, next.retry ? next.at : undefined);
      if (next.retry)
        log.warn({ mailId: mail.id, attempts: mail.attempts, err: message }, 'mail send failed; will retry');
      else log.error({ mailId: mail.id, attempts: mail.attempts, err: message }, 'mail send failed; giving up');
      return false;
    }
  }

  return {
    /** Queues mails; with `tx`, they are queued only if the caller's transaction commits. */
    async enqueue(mails: OutgoingMail[], tx?: ExamDatabase['db']): Promise<void> {
      const target = tx ? createMailQueueRepository({ db: tx }) : repo;
      await target.insert(rows(mails), deps.clock.now());
      if (!tx) listeners.forEach((wake) => wake());
    },

    /** Call after committing a transaction that queued mail, so the sender starts at once. */
    notify(): void {
      listeners.forEach((wake) => wake());
    },

    /** The sender job subscribes here to send right after a mail is queued rather than at its next tick. */
    onEnqueued(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** One pass: claims due mails batch by batch and sends them; answers how many were sent. */
    async sendDue(): Promise<number> {
      let sent = 0;
      for (;;) {
        const now = deps.clock.now();
        const claimed = await repo.claimDue(now, new Date(now.getTime() + CLAIM_LEASE_MS), BATCH);
        for (const mail of claimed) if (await deliver(repo, mail)) sent++;
        if (claimed.length < BATCH) return sent;
      }
    },

    repository: repo,
  };
}
export type MailQueue = ReturnType<typeof createMailQueue>;
