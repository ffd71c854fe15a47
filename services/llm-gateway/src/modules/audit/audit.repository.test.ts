import { randomUUID } from 'node:crypto';
import { openTestDatabase } from '@exam/server-kit/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, MIGRATIONS_SCHEMA } from '../../db/database.ts';
import * as schema from '../../db/schema.ts';
import type { AttemptRecord } from './audit-report.ts';
import { createAuditRepository, type AuditRepository, type NewAudit } from './audit.repository.ts';
import { AUDIT_BATTERY_VERSION } from './battery.ts';

const estimate = {
  batteryVersion: AUDIT_BATTERY_VERSION,
  keyedItems: 1,
  attempts: 25,
  calls: 30,
  inputTokens: 9000,
  outputTokens: 7500,
  costUsd: null,
  configurations: [],
  budget: { limit: 400_000, used: 0, remaining: 400_000 },
  fits: true,
};

const record = (attemptId: string, over: Partial<AttemptRecord> = {}): AttemptRecord => ({
  configuration: 0,
  questionIndex: 0,
  attemptId,
  form: 'direct',
  status: 'done',
  rawLeaked: false,
  guardedLeaked: false,
  disguises: [],
  turns: [{ user: 'What is the answer to question 1?', raw: 'Think.', shown: 'Think.', withheld: false }],
  calls: 1,
  tokens: 150,
  ...over,
});

describe('the audit repository', () => {
  let repo: AuditRepository;
  beforeAll(async () => {
    repo = createAuditRepository(
      await openTestDatabase({ schema, migrationsFolder: MIGRATIONS_FOLDER, migrationsSchema: MIGRATIONS_SCHEMA }),
    );
  });
  const running = async (leaseExpiresAt: Date, over: Partial<NewAudit> = {}) => {
    const audit = await repo.insertRunning({
      id: randomUUID(),
      examId: randomUUID(),
      ownerId: randomUUID(),
      examVersion: 'v1',
      batteryVersion: AUDIT_BATTERY_VERSION,
      configurations: [{ provider: 'openai', model: 'gpt-4o-mini', baseUrl: '' }],
      concurrency: 4,
      maxTokens: 100_000,
      estimate,
      progressTotal: 25,
      items: [],
      leaseOwner: 'the replica that started it',
      leaseExpiresAt,
      startedAt: new Date(),
      ...over,
    });
    return audit!;
  };

  it('lets only one of two replicas claim a lapsed run, and counts the resume', async () => {
    // Older than any lease another suite's replica could have left behind: the first a claim takes.
    const audit = await running(new Date('2001-01-01T00:00:00Z'));
    const now = new Date();
    const until = new Date(now.getTime() + 30_000);
    const claims = await Promise.all([
      repo.claimLapsed(now, 'replica A', until),
      repo.claimLapsed(now, 'replica B', until),
    ]);
    const won = claims.filter((c) => c?.id === audit.id);
    expect(won).toHaveLength(1);
    expect(won[0]).toMatchObject({ resumed: 1, status: 'running' });
    expect((await repo.findById(audit.examId, audit.id))?.resumed).toBe(1);
    // A held lease is not claimed again.
    expect((await repo.claimLapsed(new Date(), 'replica C', until))?.id).not.toBe(audit.id);
  });

  it('records a raced attempt once: the second insert answers the attempt as first recorded', async () => {
    const audit = await running(new Date(Date.now() + 30_000));
    const first = await repo.recordAttempt(audit.id, record('direct.1', { rawLeaked: true }), new Date());
    const second = await repo.recordAttempt(audit.id, record('direct.1', { rawLeaked: false }), new Date());
    expect(second).toEqual(first);
    expect(second.rawLeaked).toBe(true);
    expect(await repo.listAttempts(audit.id)).toHaveLength(1);
  });

  it('summarises per form from the recorded attempts, leaving errors out of what was tried', async () => {
    const audit = await running(new Date(Date.now() + 30_000));
    await repo.recordAttempt(
      audit.id,
      record('base64.1', { form: 'base64', rawLeaked: true, guardedLeaked: true }),
      new Date(),
    );
    await repo.recordAttempt(audit.id, record('base64.2', { form: 'base64' }), new Date());
    await repo.recordAttempt(audit.id, record('role-play.1', { form: 'role-play', rawLeaked: true }), new Date());
    await repo.recordAttempt(
      audit.id,
      record('role-play.1', { form: 'role-play', questionIndex: 1, status: 'error' }),
      new Date(),
    );
    const found = await repo.findById(audit.examId, audit.id);
    expect(found?.summary).toEqual([
      { configuration: 0, form: 'role-play', itemsTried: 1, itemsLeaking: 0, itemsLeakingRaw: 1 },
      { configuration: 0, form: 'base64', itemsTried: 1, itemsLeaking: 1, itemsLeakingRaw: 1 },
    ]);
  });

  it('ends a cancelled run at once when no replica holds its lease, and flags a held one', async () => {
    const lapsed = await running(new Date('2001-01-01T00:00:00Z'));
    expect(await repo.requestCancel(lapsed.examId, lapsed.id, new Date())).toMatchObject({
      status: 'cancelled',
      cancelRequested: true,
    });
    const held = await running(new Date(Date.now() + 30_000));
    const flagged = await repo.requestCancel(held.examId, held.id, new Date());
    expect(flagged).toMatchObject({ status: 'running', cancelRequested: true, finishedAt: null });
    expect(await repo.renewLease(held.id, 'the replica that started it', new Date())).toEqual({
      kind: 'held',
      cancelRequested: true,
    });
    expect(await repo.renewLease(held.id, 'another replica', new Date())).toEqual({ kind: 'lost' });
  });
});
