import { randomUUID } from 'node:crypto';
import type { Db } from '@exam/server-kit/db';
import { openTestDatabase, TEST_SECRETS } from '@exam/server-kit/testing';
import { countCandidateRows, seedCandidateRows, tablesMentioning } from '@exam/server-kit/testing/candidate-rows';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, MIGRATIONS_SCHEMA } from '../../db/database.ts';
import * as schema from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/app.ts';
import { GATEWAY_CANDIDATE_TABLES } from './candidate-tables.ts';
import { GATEWAY_TABLES } from './privacy.module.ts';

const internal = { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN };
let app: TestApp;
let db: Db;

beforeAll(async () => {
  app = await buildTestApp();
  const database = await openTestDatabase({
    schema,
    migrationsFolder: MIGRATIONS_FOLDER,
    migrationsSchema: MIGRATIONS_SCHEMA,
  });
  db = database.db as unknown as Db;
});
afterAll(() => app.close());

/** An attempt with a row in every table of llm-gateway that holds candidates' data. */
async function seedAttempt(examId: string) {
  const tag = randomUUID();
  const ids = { examId, candidateKey: `cand-${tag}`, attemptIds: [`att-${tag}`], resultIds: [] };
  await seedCandidateRows(db, GATEWAY_TABLES, GATEWAY_CANDIDATE_TABLES, ids, {
    messages: { id: `msg-${tag}`, role: 'user', content: `help me with ${tag}` },
    agent_calls: { exam_id: examId, input: 'write the tests' },
    conversations: { exam_id: examId },
  });
  return ids;
}

describe('llm-gateway candidate data', () => {
  it('declares every table of the schema, so a table added without erasure fails here', () => {
    expect(Object.keys(GATEWAY_CANDIDATE_TABLES).sort()).toEqual([...GATEWAY_TABLES.keys()].sort());
  });

  it("erases the attempts' conversations, messages and agent calls and leaves another candidate's", async () => {
    const examId = `exam-${randomUUID()}`;
    const erased = await seedAttempt(examId);
    const kept = await seedAttempt(examId);
    const before = await countCandidateRows(db, GATEWAY_TABLES, GATEWAY_CANDIDATE_TABLES, erased);
    expect(before).toEqual({ messages: 1, agent_calls: 1, conversations: 1 });

    const response = await app.inject({
      method: 'POST',
      url: '/internal/privacy/erase',
      headers: internal,
      payload: { examId, candidateKey: erased.candidateKey, attemptIds: erased.attemptIds },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().deleted).toEqual({ messages: 1, agent_calls: 1, conversations: 1 });
    expect(await countCandidateRows(db, GATEWAY_TABLES, GATEWAY_CANDIDATE_TABLES, erased)).toEqual({
      messages: 0,
      agent_calls: 0,
      conversations: 0,
    });
    expect(await tablesMentioning(db, GATEWAY_TABLES, erased.attemptIds)).toEqual([]);
    expect(await countCandidateRows(db, GATEWAY_TABLES, GATEWAY_CANDIDATE_TABLES, kept)).toEqual(before);
  });

  it("exports the attempts' transcript rows", async () => {
    const ids = await seedAttempt(`exam-${randomUUID()}`);
    const response = await app.inject({
      method: 'GET',
      url: `/internal/privacy/export?examId=${ids.examId}&candidateKey=${ids.candidateKey}&attemptIds=${ids.attemptIds[0]}`,
      headers: internal,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json() as { service: string; tables: Record<string, Record<string, unknown>[]> };
    expect(body.service).toBe('llm-gateway');
    expect(body.tables.messages![0]!.content).toContain('help me with');
    expect(body.tables.agent_calls).toHaveLength(1);
  });

  it('refuses a call without the internal token', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/internal/privacy/erase',
      payload: { examId: 'e', candidateKey: null, attemptIds: [] },
    });
    expect(response.statusCode).toBe(401);
  });
});
