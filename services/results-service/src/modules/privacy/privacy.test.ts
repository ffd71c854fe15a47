import { randomUUID } from 'node:crypto';
import type { Db } from '@exam/server-kit/db';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { countCandidateRows, seedCandidateRows, tablesMentioning } from '@exam/server-kit/testing/candidate-rows';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradeHistory } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/app.ts';
import { RESULTS_CANDIDATE_TABLES } from './candidate-tables.ts';
import { RESULTS_TABLES } from './privacy.repository.ts';

const internal = { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN };
let app: TestApp;
let db: Db;

beforeAll(async () => {
  app = await buildTestApp();
  db = app.db as unknown as Db;
});
afterAll(() => app.close());

/** A candidate with one attempt and its result, and a row of theirs in every table that holds candidates' data. */
async function seedCandidate(examId: string, times: { startedAt?: Date; submittedAt?: Date | null } = {}) {
  const tag = randomUUID().slice(0, 8);
  const ids = {
    examId,
    candidateKey: `cand-${tag}`,
    attemptIds: [`att-${tag}`],
    resultIds: [`res-${tag}`],
  };
  const startedAt = times.startedAt ?? new Date();
  await seedCandidateRows(db, RESULTS_TABLES, RESULTS_CANDIDATE_TABLES, ids, {
    attempts: {
      exam_id: examId,
      student_id: `Cand ${tag}`,
      candidate_key: ids.candidateKey,
      started_at: startedAt,
      submitted_at: times.submittedAt === undefined ? startedAt : times.submittedAt,
    },
    results: {
      id: ids.resultIds[0],
      exam_id: examId,
      status: 'pending',
      grades: [],
      workspace_files: { 'src/main.py': { content: 'print("hello")', lastModified: '', size: 14, type: 'text' } },
    },
    answers: { answer: `the answer of ${tag}` },
    answer_files: { file_name: 'essay.txt' },
    answer_operations: { start: 0, end: 1, ops: [] },
    grade_history: { kind: 'grade' },
    test_gradings: { state: 'done' },
    suggestion_batches: { exam_id: examId, status: 'completed' },
    collaboration_judgements: { dimension: 'framing', status: 'suggested', suggested_level: 1 },
    follow_ups: { status: 'done', rubric: [] },
    lti_score_syncs: { state: 'sent' },
    grading_suggestions: { rubric: [], sample_points: [] },
  });
  return ids;
}

const erase = (body: { examId: string; candidateKey: string | null; attemptIds: string[] }) =>
  app.inject({ method: 'POST', url: '/internal/privacy/erase', headers: internal, payload: body });

describe('results-service candidate data', () => {
  it('declares every table of the schema, so a table added without erasure fails here', () => {
    expect(Object.keys(RESULTS_CANDIDATE_TABLES).sort()).toEqual([...RESULTS_TABLES.keys()].sort());
  });

  it("erases every row of one candidate and leaves another candidate's rows", async () => {
    const examId = `exam-${randomUUID()}`;
    const erased = await seedCandidate(examId);
    const kept = await seedCandidate(examId);
    const before = await countCandidateRows(db, RESULTS_TABLES, RESULTS_CANDIDATE_TABLES, erased);
    const linked = Object.entries(RESULTS_CANDIDATE_TABLES).filter(([, link]) => link.by !== 'none');
    // The seed reached every table that can hold a candidate's data.
    for (const [name] of linked) expect(before[name], name).toBeGreaterThan(0);

    const response = await erase({ examId, candidateKey: erased.candidateKey, attemptIds: erased.attemptIds });
    expect(response.statusCode).toBe(200);
    expect(response.json().deleted).toMatchObject({ attempts: 1, results: 1, grade_history: 1, answers: 1 });

    const after = await countCandidateRows(db, RESULTS_TABLES, RESULTS_CANDIDATE_TABLES, erased);
    expect(
      Object.values(after).every((n) => n === 0),
      JSON.stringify(after),
    ).toBe(true);
    const needles = [erased.candidateKey, ...erased.attemptIds, ...erased.resultIds];
    expect(await tablesMentioning(db, RESULTS_TABLES, needles)).toEqual([]);

    const others = await countCandidateRows(db, RESULTS_TABLES, RESULTS_CANDIDATE_TABLES, kept);
    for (const [name, link] of linked) {
      // The exam's cached insights are dropped for everyone: they are recomputed from what remains.
      if (link.by === 'exam-cache') expect(others[name], name).toBe(0);
      else expect(others[name], name).toBeGreaterThan(0);
    }
  });

  it('keeps grade history append-only outside an erasure', async () => {
    const ids = await seedCandidate(`exam-${randomUUID()}`);
    await expect(db.delete(gradeHistory).where(eq(gradeHistory.resultId, ids.resultIds[0]!))).rejects.toThrow();
  });

  it("lists only attempts past the retention period, and a retention erasure keeps the candidate's accommodations", async () => {
    const examId = `exam-${randomUUID()}`;
    const day = 24 * 3600_000;
    const old = await seedCandidate(examId, { startedAt: new Date(Date.now() - 40 * day) });
    const unsubmitted = await seedCandidate(examId, { startedAt: new Date(Date.now() - 40 * day), submittedAt: null });
    // Started long ago, submitted recently: the period runs from the submission.
    const recent = await seedCandidate(examId, {
      startedAt: new Date(Date.now() - 40 * day),
      submittedAt: new Date(Date.now() - day),
    });
    const before = new Date(Date.now() - 30 * day).toISOString();
    const listed = await app.inject({
      method: 'GET',
      url: `/internal/privacy/attempts?examId=${examId}&before=${encodeURIComponent(before)}`,
      headers: internal,
    });
    expect(listed.statusCode).toBe(200);
    const expired = (listed.json().attempts as { attemptId: string }[]).map((a) => a.attemptId).sort();
    expect(expired).toEqual([...old.attemptIds, ...unsubmitted.attemptIds].sort());

    expect((await erase({ examId, candidateKey: null, attemptIds: expired })).statusCode).toBe(200);
    const left = await countCandidateRows(db, RESULTS_TABLES, RESULTS_CANDIDATE_TABLES, { ...old, candidateKey: null });
    expect(
      Object.values(left).every((n) => n === 0),
      JSON.stringify(left),
    ).toBe(true);
    const accommodations = await countCandidateRows(
      db,
      RESULTS_TABLES,
      { overrides: RESULTS_CANDIDATE_TABLES.overrides! },
      old,
    );
    expect(accommodations.overrides).toBe(1);
    const recentRows = await countCandidateRows(db, RESULTS_TABLES, RESULTS_CANDIDATE_TABLES, recent);
    expect(recentRows.attempts).toBe(1);
    expect(recentRows.answers).toBe(1);
  });

  it("exports the candidate's rows with uploaded and collected files, without the exam's keys or secrets", async () => {
    const examId = `exam-${randomUUID()}`;
    const ids = await seedCandidate(examId);
    await seedCandidate(examId);
    const response = await app.inject({
      method: 'GET',
      url: `/internal/privacy/export?examId=${examId}&candidateKey=${ids.candidateKey}`,
      headers: internal,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json() as {
      tables: Record<string, Record<string, unknown>[]>;
      files: { path: string; base64: string }[];
    };
    expect(body.tables.attempts).toHaveLength(1);
    expect(body.tables.attempts![0]).not.toHaveProperty('exam_snapshot');
    expect(body.tables.attempts![0]).not.toHaveProperty('resume_code_hash');
    expect(body.tables.answers![0]!.answer).toContain('the answer of');
    const paths = body.files.map((f) => f.path);
    expect(paths).toContain('files/results-service/answer_files/1-essay.txt');
    const collected = body.files.find((f) => f.path.endsWith('/src/main.py'))!;
    expect(Buffer.from(collected.base64, 'base64').toString()).toBe('print("hello")');
    expect(body.tables.answer_files![0]!.content).toEqual({ file: 'files/results-service/answer_files/1-essay.txt' });
  });

  it('refuses a call without the internal token', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/internal/privacy/erase',
      payload: { examId: 'e', candidateKey: 'k', attemptIds: [] },
    });
    expect(response.statusCode).toBe(401);
  });
});
