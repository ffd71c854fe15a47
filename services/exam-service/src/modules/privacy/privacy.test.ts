import { randomUUID } from 'node:crypto';
import { candidateKey } from '@exam/domain/candidate-key';
import type { PrivacyEraseRequest, PrivacyExport } from '@exam/domain/privacy';
import { candidateKeyHash } from '@exam/server-kit/candidate-data';
import type { Db } from '@exam/server-kit/db';
import { countCandidateRows, seedCandidateRows, tablesMentioning } from '@exam/server-kit/testing/candidate-rows';
import { and, eq } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrivacyServices, RemotePrivacyService } from '../../adapters/privacy-services.ts';
import { auditEvents, dataErasures, examMembers, mailQueue } from '../../db/schema.ts';
import { buildTestApp, createCreator, examBody, type TestApp } from '../../testing/app.ts';
import { invitationMail } from '../roster/roster-mails.ts';
import { EXAM_CANDIDATE_TABLES } from './candidate-tables.ts';
import { EXAM_TABLES } from './privacy.repository.ts';

/** The other services as exam-service sees them: attempts per candidate, erasures recorded, failures on demand. */
function fakeServices() {
  const attempts = new Map<string, Array<{ attemptId: string; candidateKey: string }>>();
  const expired = new Map<string, Array<{ attemptId: string; candidateKey: string }>>();
  const erased: Array<{ service: RemotePrivacyService } & PrivacyEraseRequest> = [];
  const failing = new Set<RemotePrivacyService>();
  const exports = new Map<RemotePrivacyService, PrivacyExport>();
  const services: PrivacyServices = {
    async attempts(query) {
      if (query.before) return expired.get(query.examId) ?? [];
      return attempts.get(`${query.examId}:${query.candidateKey}`) ?? [];
    },
    async erase(service, request) {
      if (failing.has(service)) throw new Error(`${service} is down`);
      erased.push({ service, ...request });
      return { rows: request.attemptIds.length };
    },
    async export(service) {
      return exports.get(service) ?? { service, tables: {}, files: [] };
    },
  };
  return { services, attempts, expired, erased, failing, exports };
}

const fake = fakeServices();
let app: TestApp;
let db: Db;

beforeAll(async () => {
  app = await buildTestApp({ deps: { privacyServices: fake.services } });
  db = app.examDatabase.db as unknown as Db;
});
afterAll(() => app.close());

async function examOf(creator: Awaited<ReturnType<typeof createCreator>>) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/exams',
    headers: creator.headers,
    payload: examBody(),
  });
  return (response.json() as { exam: { id: string } }).exam.id;
}

/** A candidate of the exam with a roster entry, a queued mail and an audit entry about their attempt. */
async function seedCandidate(examId: string) {
  const candidateId = `S-${randomUUID().slice(0, 8)}`;
  const ids = {
    examId,
    candidateKey: candidateKey(candidateId),
    attemptIds: [`att-${randomUUID()}`],
    resultIds: [] as string[],
  };
  await seedCandidateRows(db, EXAM_TABLES, EXAM_CANDIDATE_TABLES, ids, {
    mail_queue: { kind: 'invitation', status: 'sent', subject: `Invitation for ${candidateId}` },
    roster_entries: { candidate_id: candidateId, name: `Name of ${candidateId}` },
    audit_events: { action: 'attempt.unlocked' },
  });
  fake.attempts.set(
    `${examId}:${ids.candidateKey}`,
    ids.attemptIds.map((attemptId) => ({ attemptId, candidateKey: ids.candidateKey })),
  );
  return { ...ids, candidateId };
}

const erase = (headers: Record<string, string>, examId: string, candidateId: string) =>
  app.inject({ method: 'POST', url: `/api/exams/${examId}/candidates/erase`, headers, payload: { candidateId } });

describe('exam-service candidate data', () => {
  it('declares every table of the schema, so a table added without erasure fails here', () => {
    expect(Object.keys(EXAM_CANDIDATE_TABLES).sort()).toEqual([...EXAM_TABLES.keys()].sort());
  });

  it('fills the exam and candidate key of mail about a candidate', () => {
    const mail = invitationMail({
      exam: {
        id: 'exam-1',
        title: 'T',
        timerEnabled: false,
        timerMinutes: 60,
        fullScreenEnabled: false,
        opensAt: null,
        closesAt: null,
        attemptsAllowed: 1,
        practice: false,
        access: 'link',
        rosterAdmission: null,
        codingWorkspace: {
          enabled: false,
          saveFilesInResults: true,
          workspaceType: 'vscode',
          allowPackageRegistries: false,
        },
        aiSettings: { enabled: false } as never,
        sections: [],
      },
      entry: { name: 'Ana', candidateId: 'Ｓ-101' },
      link: 'https://taker.example/exam/x',
      to: 'ana@example.test',
      admission: 'invitation-link',
    });
    expect(mail).toMatchObject({ examId: 'exam-1', candidateKey: candidateKey('Ｓ-101') });
  });

  it("erases the candidate everywhere, records it without their ID, and leaves another candidate's data", async () => {
    const owner = await createCreator(app);
    const examId = await examOf(owner);
    const gone = await seedCandidate(examId);
    const kept = await seedCandidate(examId);
    const before = await countCandidateRows(db, EXAM_TABLES, EXAM_CANDIDATE_TABLES, gone);
    expect(before).toEqual({ mail_queue: 1, roster_entries: 1, audit_events: 1 });

    const response = await erase(owner.headers, examId, ` ${gone.candidateId.toLowerCase()} `);
    expect(response.statusCode).toBe(200);
    const { erasure } = response.json();
    expect(erasure).toMatchObject({
      reason: 'request',
      status: 'complete',
      attemptCount: 1,
      candidateKeyHash: candidateKeyHash(gone.candidateKey),
    });
    expect(Object.values(erasure.services).map((s) => (s as { status: string }).status)).toEqual([
      'done',
      'done',
      'done',
      'done',
    ]);
    expect(erasure.services['exam-service'].deleted).toEqual({ mail_queue: 1, roster_entries: 1, audit_events: 1 });
    const calls = fake.erased.filter((c) => c.examId === examId);
    expect(calls.map((c) => c.service)).toEqual(['llm-gateway', 'workspace-orchestrator', 'results-service']);
    expect(calls[0]).toMatchObject({ candidateKey: gone.candidateKey, attemptIds: gone.attemptIds });

    expect(await countCandidateRows(db, EXAM_TABLES, EXAM_CANDIDATE_TABLES, gone)).toEqual({
      mail_queue: 0,
      roster_entries: 0,
      audit_events: 0,
    });
    expect(await tablesMentioning(db, EXAM_TABLES, [gone.candidateKey, gone.candidateId, ...gone.attemptIds])).toEqual(
      [],
    );
    expect(await countCandidateRows(db, EXAM_TABLES, EXAM_CANDIDATE_TABLES, kept)).toEqual(before);
    const [audit] = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.examId, examId), eq(auditEvents.action, 'candidate.erased')));
    expect(audit?.actorId).toBe(owner.user.id);
    expect(JSON.stringify(audit)).not.toContain(gone.candidateId);

    const list = await app.inject({ method: 'GET', url: `/api/exams/${examId}/erasures`, headers: owner.headers });
    expect(list.json().erasures).toHaveLength(1);
  });

  it('answers 404 to another creator and 403 to a member who is not the owner', async () => {
    const owner = await createCreator(app);
    const stranger = await createCreator(app);
    const editor = await createCreator(app);
    const examId = await examOf(owner);
    await db
      .insert(examMembers)
      .values({ examId, userId: editor.user.id, role: 'editor', addedBy: owner.user.id, createdAt: new Date() });
    expect((await erase(stranger.headers, examId, 'S-1')).statusCode).toBe(404);
    const refused = await erase(editor.headers, examId, 'S-1');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toMatch(/Only the owner/);
    const exported = await app.inject({
      method: 'GET',
      url: `/api/exams/${examId}/candidates/export?candidateId=S-1`,
      headers: stranger.headers,
    });
    expect(exported.statusCode).toBe(404);
  });

  it('keeps an erasure pending while a service fails, and the job completes it later', async () => {
    const owner = await createCreator(app);
    const examId = await examOf(owner);
    const gone = await seedCandidate(examId);
    fake.failing.add('workspace-orchestrator');
    try {
      const response = await erase(owner.headers, examId, gone.candidateId);
      const { erasure } = response.json();
      expect(erasure.status).toBe('pending');
      expect(erasure.services['llm-gateway'].status).toBe('done');
      expect(erasure.services['workspace-orchestrator']).toMatchObject({
        status: 'failed',
        error: 'workspace-orchestrator is down',
      });
      // results-service waits: a retry must still find the attempts there.
      expect(erasure.services['results-service'].status).toBe('pending');
      expect(fake.erased.filter((c) => c.examId === examId).map((c) => c.service)).toEqual(['llm-gateway']);
    } finally {
      fake.failing.delete('workspace-orchestrator');
    }
    await app.runPrivacyJob();
    const [row] = await db.select().from(dataErasures).where(eq(dataErasures.examId, examId));
    expect(row?.completedAt).not.toBeNull();
    expect(row?.services).not.toHaveProperty('_resume');
    expect(fake.erased.filter((c) => c.examId === examId).map((c) => c.service)).toEqual([
      'llm-gateway',
      'workspace-orchestrator',
      'results-service',
    ]);
  });

  it('sets a retention period between 1 and 3650 days, null by default', async () => {
    const owner = await createCreator(app);
    const examId = await examOf(owner);
    const exam = await app.inject({ method: 'GET', url: `/api/exams/${examId}`, headers: owner.headers });
    expect(exam.json().retentionDays).toBeNull();
    for (const bad of [0, 3651, 1.5])
      expect(
        (
          await app.inject({
            method: 'PUT',
            url: `/api/exams/${examId}`,
            headers: owner.headers,
            payload: { retentionDays: bad },
          })
        ).statusCode,
      ).toBe(400);
    const set = await app.inject({
      method: 'PUT',
      url: `/api/exams/${examId}`,
      headers: owner.headers,
      payload: { retentionDays: 30 },
    });
    expect(set.json().retentionDays).toBe(30);
  });

  it('purges expired attempts once in every service, with the mail about them from before the cut-off', async () => {
    const owner = await createCreator(app);
    const examId = await examOf(owner);
    await app.inject({
      method: 'PUT',
      url: `/api/exams/${examId}`,
      headers: owner.headers,
      payload: { retentionDays: 30 },
    });
    const old = await seedCandidate(examId);
    await db
      .update(mailQueue)
      .set({ createdAt: new Date(Date.now() - 60 * 24 * 3600_000) })
      .where(eq(mailQueue.candidateKey, old.candidateKey));
    const recentMail = await seedCandidate(examId);
    fake.expired.set(examId, [
      { attemptId: old.attemptIds[0]!, candidateKey: old.candidateKey },
      { attemptId: recentMail.attemptIds[0]!, candidateKey: recentMail.candidateKey },
    ]);
    await app.runPrivacyJob();
    await app.runPrivacyJob();
    const rows = await db.select().from(dataErasures).where(eq(dataErasures.examId, examId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ reason: 'retention', candidateKeyHash: null });
    expect(rows[0]!.completedAt).not.toBeNull();
    const calls = fake.erased.filter((c) => c.examId === examId);
    expect(calls.map((c) => c.service)).toEqual(['llm-gateway', 'workspace-orchestrator', 'results-service']);
    expect(calls[0]).toMatchObject({ candidateKey: null });
    expect(calls[0]!.attemptIds.sort()).toEqual([...old.attemptIds, ...recentMail.attemptIds].sort());
    const mails = async (key: string) =>
      (await db.select().from(mailQueue).where(eq(mailQueue.candidateKey, key))).length;
    expect(await mails(old.candidateKey)).toBe(0);
    // Queued within the period: kept. The roster is the creator's list, kept too.
    expect(await mails(recentMail.candidateKey)).toBe(1);
    const roster = await countCandidateRows(
      db,
      EXAM_TABLES,
      { roster_entries: EXAM_CANDIDATE_TABLES.roster_entries! },
      old,
    );
    expect(roster.roster_entries).toBe(1);
    fake.expired.delete(examId);
  });

  it('exports one JSON file per service, the files and a README as a ZIP', async () => {
    const owner = await createCreator(app);
    const examId = await examOf(owner);
    const candidate = await seedCandidate(examId);
    fake.exports.set('results-service', {
      service: 'results-service',
      tables: { answers: [{ attempt_id: candidate.attemptIds[0], answer: 'Mitochondria make ATP' }] },
      files: [
        { path: 'files/results-service/answer_files/1-essay.txt', base64: Buffer.from('my essay').toString('base64') },
        { path: '../../etc/passwd', base64: Buffer.from('x').toString('base64') },
      ],
    });
    const response = await app.inject({
      method: 'GET',
      url: `/api/exams/${examId}/candidates/export?candidateId=${encodeURIComponent(candidate.candidateId)}`,
      headers: owner.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    const zip = unzipSync(new Uint8Array(response.rawPayload));
    expect(Object.keys(zip).sort()).toEqual(
      [
        'README.txt',
        'etc/passwd',
        'exam-service.json',
        'files/results-service/answer_files/1-essay.txt',
        'llm-gateway.json',
        'results-service.json',
        'workspace-orchestrator.json',
      ].sort(),
    );
    const text = (name: string) => Buffer.from(zip[name]!).toString('utf8');
    expect(text('results-service.json')).toContain('Mitochondria make ATP');
    expect(JSON.parse(text('exam-service.json')).tables.roster_entries[0].candidate_id).toBe(candidate.candidateId);
    expect(JSON.parse(text('exam-service.json')).tables.roster_entries[0]).not.toHaveProperty('invite_token_hash');
    expect(text('files/results-service/answer_files/1-essay.txt')).toBe('my essay');
    expect(text('README.txt')).toContain('llm-gateway.json');
    const [audit] = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.examId, examId), eq(auditEvents.action, 'candidate.exported')));
    expect(audit?.actorId).toBe(owner.user.id);
    fake.exports.clear();
  });
});
