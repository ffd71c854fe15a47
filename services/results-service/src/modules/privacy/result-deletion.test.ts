import { randomUUID } from 'node:crypto';
import type { AuditEvent } from '@exam/domain/roles';
import type { Db } from '@exam/server-kit/db';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { countCandidateRows, seedCandidateRows } from '@exam/server-kit/testing/candidate-rows';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, creatorHeaders, type TestApp } from '../../testing/app.ts';
import { RESULTS_CANDIDATE_TABLES } from './candidate-tables.ts';
import { RESULTS_TABLES } from './privacy.repository.ts';
import { RESULT_DELETION_TABLES } from './result-deletion.ts';

let app: TestApp;
let db: Db;

beforeAll(async () => {
  app = await buildTestApp();
  db = app.db as unknown as Db;
});
afterAll(() => app.close());

/** One attempt of a candidate with its result, and a row of it in every table that holds candidates' data. */
async function seedAttempt(examId: string, ownerId: string, candidateKey: string, attemptNo: number) {
  const tag = randomUUID().slice(0, 8);
  const ids = { examId, candidateKey, attemptIds: [`att-${tag}`], resultIds: [`res-${tag}`] };
  await seedCandidateRows(db, RESULTS_TABLES, RESULTS_CANDIDATE_TABLES, ids, {
    attempts: { exam_id: examId, owner_id: ownerId, candidate_key: candidateKey, attempt_no: attemptNo },
    results: { id: ids.resultIds[0], exam_id: examId, owner_id: ownerId, status: 'pending', grades: [] },
    grade_history: { kind: 'grade' },
    suggestion_batches: { exam_id: examId, status: 'completed' },
    collaboration_judgements: { dimension: 'framing', status: 'suggested', suggested_level: 1 },
    follow_ups: { status: 'done', rubric: [] },
    lti_score_syncs: { state: 'sent' },
    grading_suggestions: { rubric: [], sample_points: [] },
    test_gradings: { state: 'done' },
    answer_operations: { start: 0, end: 1, ops: [] },
    audit_events: { action: 'result.graded', actor_email: 'grader@example.test' },
  });
  return ids;
}

describe('deleting one result', () => {
  it("removes its attempt and every row hanging off it, drops the exam's insights, keeps the audit log and another attempt", async () => {
    const examId = `exam-${randomUUID()}`;
    const ownerId = `owner-${randomUUID().slice(0, 8)}`;
    const first = await seedAttempt(examId, ownerId, 'cand-1', 1);
    const second = await seedAttempt(examId, ownerId, 'cand-other', 1);
    const linked = Object.entries(RESULTS_CANDIDATE_TABLES).filter(([, link]) => link.by !== 'none');
    const before = await countCandidateRows(db, RESULTS_TABLES, RESULTS_CANDIDATE_TABLES, first);
    for (const [name] of linked) expect(before[name], name).toBeGreaterThan(0);

    const response = await app.inject({
      method: 'DELETE',
      url: `/api/results/${first.resultIds[0]}`,
      headers: creatorHeaders(app, ownerId),
    });
    expect(response.statusCode).toBe(200);

    const after = await countCandidateRows(db, RESULTS_TABLES, RESULTS_CANDIDATE_TABLES, first);
    for (const [name, link] of linked) {
      if (name in RESULT_DELETION_TABLES) expect(after[name], name).toBe(0);
      // The audit log stays on record, and accommodations are the candidate's, not the attempt's.
      else
        expect([name, link.by, after[name]]).toEqual([
          name,
          link.by,
          before[name]! + (name === 'audit_events' ? 1 : 0),
        ]);
    }
    const others = await countCandidateRows(db, RESULTS_TABLES, RESULT_DELETION_TABLES, second);
    for (const [name, link] of Object.entries(RESULT_DELETION_TABLES)) {
      if (link.by === 'none') continue;
      if (link.by === 'exam-cache') expect(others[name], name).toBe(0);
      else expect(others[name], name).toBeGreaterThan(0);
    }

    const audit = await app.inject({
      method: 'GET',
      url: `/internal/exams/${examId}/audit-events`,
      headers: { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN },
    });
    expect(audit.json<{ events: AuditEvent[] }>().events.find((e) => e.action === 'result.deleted')).toMatchObject({
      subject: first.resultIds[0],
      actorId: ownerId,
      detail: { attemptId: first.attemptIds[0], attemptNo: 1 },
    });
  });

  it('answers 404 for a result that does not exist or was deleted', async () => {
    const examId = `exam-${randomUUID()}`;
    const ownerId = `owner-${randomUUID().slice(0, 8)}`;
    const ids = await seedAttempt(examId, ownerId, 'cand-2', 1);
    const remove = (id: string) =>
      app.inject({ method: 'DELETE', url: `/api/results/${id}`, headers: creatorHeaders(app, ownerId) });
    expect((await remove('no-such-result')).statusCode).toBe(404);
    const r = await remove(ids.resultIds[0]!);
    expect(r.statusCode).toBe(200);
    expect((await remove(ids.resultIds[0]!)).statusCode).toBe(404);
    const anonymous = await app.inject({ method: 'DELETE', url: `/api/results/${ids.resultIds[0]}` });
    expect(anonymous.statusCode).toBe(401);
  });
});
