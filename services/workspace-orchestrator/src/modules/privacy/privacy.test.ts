import { randomUUID } from 'node:crypto';
import type { Db } from '@exam/server-kit/db';
import { openTestDatabase, TEST_SECRETS } from '@exam/server-kit/testing';
import { countCandidateRows, seedCandidateRows, tablesMentioning } from '@exam/server-kit/testing/candidate-rows';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, MIGRATIONS_SCHEMA } from '../../db/database.ts';
import * as schema from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/app.ts';
import { fakeEngine } from '../../testing/fake-engine.ts';
import { WORKSPACE_CANDIDATE_TABLES } from './candidate-tables.ts';
import { WORKSPACE_TABLES } from './privacy.module.ts';

const internal = { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN };
const HOST = `privacy-host-${randomUUID()}`;
const engine = fakeEngine(HOST);
let app: TestApp;
let db: Db;

beforeAll(async () => {
  app = await buildTestApp({ deps: { engines: [engine.engine] } });
  const database = await openTestDatabase({
    schema,
    migrationsFolder: MIGRATIONS_FOLDER,
    migrationsSchema: MIGRATIONS_SCHEMA,
  });
  db = database.db as unknown as Db;
});
afterAll(() => app.close());

/** An attempt with a row in every table of the orchestrator that holds candidates' data, and its volume in the engine. */
async function seedAttempt(examId: string) {
  const tag = randomUUID();
  const ids = { examId, candidateKey: `cand-${tag}`, attemptIds: [`att-${tag}`], resultIds: [] };
  const volume = `exam-ws-${tag}`;
  engine.volumes.add(volume);
  await seedCandidateRows(db, WORKSPACE_TABLES, WORKSPACE_CANDIDATE_TABLES, ids, {
    workspaces: { exam_id: examId, backend: 'docker', host: HOST, status: 'ended', ended_at: new Date(), volume },
    volumes: { name: volume, backend: 'docker', host: HOST },
    file_versions: { path: 'src/main.py', version: 1, kind: 'full', body: `print("${tag}")` },
    code_runs: { exam_id: examId, purpose: 'check', state: 'done', job: {} },
    start_failures: { exam_id: examId },
  });
  return { ...ids, volume };
}

describe('workspace-orchestrator candidate data', () => {
  it('declares every table of the schema, so a table added without erasure fails here', () => {
    expect(Object.keys(WORKSPACE_CANDIDATE_TABLES).sort()).toEqual([...WORKSPACE_TABLES.keys()].sort());
  });

  it("removes the attempts' volumes from the engine and every row of theirs, and leaves another candidate's", async () => {
    const examId = `exam-${randomUUID()}`;
    const erased = await seedAttempt(examId);
    const kept = await seedAttempt(examId);
    const before = await countCandidateRows(db, WORKSPACE_TABLES, WORKSPACE_CANDIDATE_TABLES, erased);
    for (const name of Object.keys(WORKSPACE_CANDIDATE_TABLES)) expect(before[name], name).toBe(1);

    const response = await app.inject({
      method: 'POST',
      url: '/internal/privacy/erase',
      headers: internal,
      payload: { examId, candidateKey: erased.candidateKey, attemptIds: erased.attemptIds },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().deleted).toMatchObject({ 'engine:volumes': 1, volumes: 1, file_versions: 1 });
    expect(engine.volumes.has(erased.volume)).toBe(false);
    expect(engine.volumes.has(kept.volume)).toBe(true);
    const after = await countCandidateRows(db, WORKSPACE_TABLES, WORKSPACE_CANDIDATE_TABLES, erased);
    expect(
      Object.values(after).every((n) => n === 0),
      JSON.stringify(after),
    ).toBe(true);
    expect(await tablesMentioning(db, WORKSPACE_TABLES, erased.attemptIds)).toEqual([]);
    expect(await countCandidateRows(db, WORKSPACE_TABLES, WORKSPACE_CANDIDATE_TABLES, kept)).toEqual(before);
  });

  it('fails, keeping the rows for a retry, when a volume is on another host', async () => {
    const ids = await seedAttempt(`exam-${randomUUID()}`);
    await db.execute(sql`update workspace_orchestrator.volumes set host = 'elsewhere' where name = ${ids.volume}`);
    const response = await app.inject({
      method: 'POST',
      url: '/internal/privacy/erase',
      headers: internal,
      payload: { examId: ids.examId, candidateKey: null, attemptIds: ids.attemptIds },
    });
    expect(response.statusCode).toBe(503);
    expect((await countCandidateRows(db, WORKSPACE_TABLES, WORKSPACE_CANDIDATE_TABLES, ids)).volumes).toBe(1);
  });

  it("exports the attempts' workspace rows without the editor's secrets", async () => {
    const ids = await seedAttempt(`exam-${randomUUID()}`);
    const response = await app.inject({
      method: 'GET',
      url: `/internal/privacy/export?examId=${ids.examId}&candidateKey=${ids.candidateKey}&attemptIds=${ids.attemptIds[0]}`,
      headers: internal,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json() as { tables: Record<string, Record<string, unknown>[]> };
    expect(body.tables.file_versions![0]!.body).toContain('print(');
    expect(body.tables.workspaces![0]).not.toHaveProperty('editor_password');
  });
});
