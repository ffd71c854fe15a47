import { inArray } from 'drizzle-orm';
import type { Mailer, MailMessage } from '@exam/server-kit/mail';
import { testDatabaseKind } from '@exam/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailQueue } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/app.ts';

/** A mailer that records what it sends, or fails while `failing` is set. */
function recordingMailer() {
  const sent: MailMessage[] = [];
  const mailer: Mailer & { sent: MailMessage[]; failing: boolean } = {
    sent,
    failing: false,
    async send(message) {
      if (mailer.failing) throw new Error('451 try again later');
      sent.push(message);
      return { via: 'smtp', messageId: `<${sent.length}@test>` };
    },
    close: () => undefined,
  };
  return mailer;
}

let seq = 0;
const address = (label: string) => `${label}-${Date.now()}-${++seq}@example.test`;

describe('mail queue', () => {
  let nowMs = Date.now();
  const mailer = recordingMailer();
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({
      env: { MAIL_MAX_ATTEMPTS: '3', MAIL_RETRY_BASE_SECONDS: '60', MAIL_RETRY_MAX_SECONDS: '600' },
      deps: { mailer, clock: { now: () => new Date(nowMs) } },
    });
  });
  afterAll(() => app.close());

  it('sends a queued mail once and marks it sent', async () => {
    const to = address('sent');
    await app.mailQueue.enqueue([{ kind: 'invitation', to, subject: 'Hello', text: 'Body' }]);
    await app.mailQueue.sendDue();
    await app.mailQueue.sendDue();
    expect(mailer.sent.filter((m) => m.to === to)).toEqual([{ to, subject: 'Hello', text: 'Body' }]);
    const [row] = await app.mailQueue.repository.listTo(to);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
    expect(row?.sentAt).toBeInstanceOf(Date);
  });

  it('retries a failed send with doubling waits and gives up after MAIL_MAX_ATTEMPTS', async () => {
    const to = address('failing');
    mailer.failing = true;
    await app.mailQueue.enqueue([{ kind: 'reminder', to, subject: 'Soon', text: 'Closes soon' }]);
    await app.mailQueue.sendDue();
    let [row] = await app.mailQueue.repository.listTo(to);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastError: '451 try again later' });
    expect(row!.nextAttemptAt.getTime() - nowMs).toBe(60_000);

    // Not due yet: nothing is tried.
    await app.mailQueue.sendDue();
    [row] = await app.mailQueue.repository.listTo(to);
    expect(row?.attempts).toBe(1);

    nowMs += 60_000;
    await app.mailQueue.sendDue();
    [row] = await app.mailQueue.repository.listTo(to);
    expect(row).toMatchObject({ status: 'pending', attempts: 2 });
    expect(row!.nextAttemptAt.getTime() - nowMs).toBe(120_000);

    nowMs += 120_000;
    await app.mailQueue.sendDue();
    [row] = await app.mailQueue.repository.listTo(to);
    expect(row).toMatchObject({ status: 'failed', attempts: 3, lastError: '451 try again later' });

    mailer.failing = false;
    nowMs += 3_600_000;
    await app.mailQueue.sendDue();
    expect(mailer.sent.filter((m) => m.to === to)).toEqual([]);
  });

  it('a mail whose sender died mid-send is due again once its claim lease is over', async () => {
    const to = address('lease');
    await app.mailQueue.enqueue([{ kind: 'invitation', to, subject: 'Hi', text: 'x' }]);
    const claimed = await app.mailQueue.repository.claimDue(new Date(nowMs), new Date(nowMs + 60_000), 1000);
    expect(claimed.map((m) => m.to)).toContain(to);
    expect(
      (await app.mailQueue.repository.claimDue(new Date(nowMs), new Date(nowMs), 1000)).map((m) => m.to),
    ).not.toContain(to);
    nowMs += 60_000;
    await app.mailQueue.sendDue();
    expect(mailer.sent.filter((m) => m.to === to)).toHaveLength(1);
    expect((await app.mailQueue.repository.listTo(to))[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('two senders claiming at once take disjoint mails', async () => {
    const tos = Array.from({ length: 12 }, () => address('disjoint'));
    await app.mailQueue.enqueue(tos.map((to) => ({ kind: 'invitation' as const, to, subject: 's', text: 't' })));
    const now = new Date(nowMs);
    const lease = new Date(nowMs + 60_000);
    const [a, b] = await Promise.all([
      app.mailQueue.repository.claimDue(now, lease, 1000),
      app.mailQueue.repository.claimDue(now, lease, 1000),
    ]);
    const mine = (rows: { to: string }[]) => rows.map((r) => r.to).filter((to) => tos.includes(to));
    expect([...mine(a), ...mine(b)].sort()).toEqual([...tos].sort());
  });

  // Needs a second connection to hold a row lock while claiming; PGlite has one connection.
  it.runIf(testDatabaseKind() === 'postgres')(
    'skips a row another sender holds locked instead of waiting for it (SKIP LOCKED)',
    async () => {
      const tos = [address('locked'), address('free')];
      await app.mailQueue.enqueue(tos.map((to) => ({ kind: 'invitation' as const, to, subject: 's', text: 't' })));
      const [lockedRow] = await app.mailQueue.repository.listTo(tos[0]!);
      let claimedMeanwhile: string[] = [];
      await app.examDatabase.db.transaction(async (tx) => {
        await tx
          .select()
          .from(mailQueue)
          .where(inArray(mailQueue.id, [lockedRow!.id]))
          .for('update');
        const claim = app.mailQueue.repository.claimDue(new Date(nowMs), new Date(nowMs + 60_000), 1000);
        // Without SKIP LOCKED this claim would wait for the transaction, which waits for the claim.
        const rows = await Promise.race([
          claim,
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error('claim blocked on a lock')), 5000)),
        ]);
        claimedMeanwhile = rows.map((r) => r.to);
      });
      expect(claimedMeanwhile).toContain(tos[1]);
      expect(claimedMeanwhile).not.toContain(tos[0]);
    },
  );
});
