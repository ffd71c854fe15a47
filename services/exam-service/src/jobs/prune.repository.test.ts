import { randomUUID } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creatorSessions, mailQueue, passwordResetTokens } from '../db/schema.ts';
import { buildTestApp, createCreator, type TestApp } from '../testing/app.ts';
import { createPruneRepository } from './prune.repository.ts';

// Rows dated in 2001 and a cut in 2002, so rows other suites write on the shared database are never touched.
const OLD = new Date('2001-06-01T00:00:00Z');
const FUTURE = new Date('2099-01-01T00:00:00Z');
const CUT = new Date('2002-01-01T00:00:00Z');

describe('pruning', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  it('deletes sent and failed mail, ended sessions and spent links older than the cut, and keeps what is still usable', async () => {
    const { db } = app.examDatabase;
    const creator = await createCreator(app);
    const userId = creator.user.id;
    const id = (label: string) => `${label}-${randomUUID()}`;
    const mail = (status: 'pending' | 'sent' | 'failed') => ({
      id: id(status),
      to: 'a@example.com',
      subject: 'Hello',
      text: 'Hello',
      kind: 'invitation' as const,
      status,
      nextAttemptAt: OLD,
      createdAt: OLD,
      sentAt: status === 'sent' ? OLD : null,
    });
    const mails = { sent: mail('sent'), failed: mail('failed'), pending: mail('pending') };
    await db.insert(mailQueue).values(Object.values(mails));
    const sessions = {
      expired: { id: id('expired'), userId, createdAt: OLD, expiresAt: OLD },
      revoked: { id: id('revoked'), userId, createdAt: OLD, expiresAt: FUTURE, revokedAt: OLD },
      open: { id: id('open'), userId, createdAt: OLD, expiresAt: FUTURE },
    };
    await db.insert(creatorSessions).values(Object.values(sessions));
    const links = {
      expired: { tokenHash: id('expired'), userId, createdAt: OLD, expiresAt: OLD },
      used: { tokenHash: id('used'), userId, createdAt: OLD, expiresAt: FUTURE, usedAt: OLD },
      live: { tokenHash: id('live'), userId, createdAt: OLD, expiresAt: FUTURE },
    };
    await db.insert(passwordResetTokens).values(Object.values(links));

    const pruned = await createPruneRepository(app.examDatabase).prune(CUT);
    expect(pruned).toEqual({ mails: 2, sessions: 2, resetLinks: 2 });

    const leftMails = await db
      .select({ id: mailQueue.id })
      .from(mailQueue)
      .where(
        inArray(
          mailQueue.id,
          Object.values(mails).map((m) => m.id),
        ),
      );
    expect(leftMails.map((m) => m.id)).toEqual([mails.pending.id]);
    const leftSessions = await db
      .select({ id: creatorSessions.id })
      .from(creatorSessions)
      .where(
        inArray(
          creatorSessions.id,
          Object.values(sessions).map((s) => s.id),
        ),
      );
    expect(leftSessions.map((s) => s.id)).toEqual([sessions.open.id]);
    const leftLinks = await db
      .select({ hash: passwordResetTokens.tokenHash })
      .from(passwordResetTokens)
      .where(
        inArray(
          passwordResetTokens.tokenHash,
          Object.values(links).map((l) => l.tokenHash),
        ),
      );
    expect(leftLinks.map((l) => l.hash)).toEqual([links.live.tokenHash]);
  });
});
