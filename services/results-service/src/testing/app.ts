import { randomUUID } from 'node:crypto';
import type { StartAttemptResponse } from '@exam/domain/attempt';
import type { ResultStatus } from '@exam/domain/grading';
import { connectRedis } from '@exam/server-kit/redis';
import { openTestDatabase, TEST_CREATOR_SESSION, TEST_SECRETS, testCreatorSessions } from '@exam/server-kit/testing';
import { buildApp } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import { MIGRATIONS_FOLDER, MIGRATIONS_SCHEMA } from '../db/database.ts';
import * as schema from '../db/schema.ts';
import { systemClock, uuidIds, type Deps } from '../deps.ts';
import {
  fakeCodeRunner,
  fakeExamAccess,
  fakeExamSource,
  fakeLtiScores,
  fakeTranscripts,
  fakeWorkspaceFiles,
} from './fakes.ts';
import { fakeFollowUpQuestions } from './follow-up-fakes.ts';
import { fakeGradingUsage } from './question-grading.ts';
import { fakeAttemptTranscripts, fakeWorkspaceHistory } from './timeline-fakes.ts';

export function testConfig(overrides: Record<string, string> = {}): Config {
  // Suites start many attempts from one inject() address; the start limits have suites of their own.
  const unlimited = { START_LIMIT_PER_CLIENT: '1000000', START_LIMIT_PER_EXAM: '1000000' };
  return loadConfig({ ...TEST_SECRETS, LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent', ...unlimited, ...overrides });
}

export type TestApp = Awaited<ReturnType<typeof buildTestApp>>;

/**
 * `pnpm test:redis` (vitest.redis.config.ts sets TEST_SHARED_STATE=redis) runs the suites of the shared
 * state again with Redis at TEST_REDIS_URL. One key prefix per test process, so the apps a test builds
 * as replicas share their counters, and runs never meet each other's.
 */
const SHARED_PREFIX = `test:results-service:${process.pid}:${Date.now()}:`;
function testRedis() {
  if (process.env.TEST_SHARED_STATE !== 'redis') return undefined;
  const url = process.env.TEST_REDIS_URL;
  if (!url) throw new Error('TEST_SHARED_STATE=redis needs TEST_REDIS_URL (a Redis server to test against)');
  return connectRedis(url, { keyPrefix: SHARED_PREFIX });
}

/** An app on the shared test database (PGlite, or PostgreSQL under test:pg) with fakes for the other services. */
export async function buildTestApp(opts: { env?: Record<string, string>; deps?: Partial<Deps> } = {}) {
  const database = await openTestDatabase({
    schema,
    migrationsFolder: MIGRATIONS_FOLDER,
    migrationsSchema: MIGRATIONS_SCHEMA,
  });
  const examSource = fakeExamSource();
  const examAccess = fakeExamAccess();
  const codeRunner = fakeCodeRunner();
  const ltiScores = fakeLtiScores();
  const attemptTranscripts = fakeAttemptTranscripts();
  const workspaceHistory = fakeWorkspaceHistory();
  const gradingUsage = fakeGradingUsage();
  const followUpQuestions = fakeFollowUpQuestions();
  const redis = opts.deps && 'redis' in opts.deps ? undefined : testRedis();
  if (redis && !(await redis.connected())) throw new Error('Redis at TEST_REDIS_URL did not answer');
  const deps: Deps = {
    redis,
    examAccess,
    ltiScores,
    database,
    clock: systemClock,
    ids: uuidIds,
    examSource,
    examGrants: examSource,
    workspaceFiles: fakeWorkspaceFiles(),
    codeRunner,
    transcripts: fakeTranscripts(),
    attemptTranscripts,
    workspaceHistory,
    gradingSuggester: gradingUsage,
    followUpQuestions,
    creatorSessions: testCreatorSessions(),
    ...opts.deps,
  };
  const app = await buildApp(testConfig(opts.env), deps);
  if (redis) app.addHook('onClose', () => redis.close());
  await app.ready();
  return Object.assign(app, {
    exams: examSource,
    access: examAccess,
    runner: codeRunner,
    lti: ltiScores,
    /** llm-gateway's and workspace-orchestrator's per-attempt reads for the timeline (unless a test passed its own). */
    attemptTranscripts,
    workspaceHistory,
    /** llm-gateway's grading routes: no provider unless a test puts an exam's availability (or passed its own). */
    gradingUsage,
    /** llm-gateway's follow-up questions: one per answer by default (unless a test passed its own). */
    followUpQuestions,
    db: database.db,
    database,
  });
}

/** A creator's bearer header, signed as exam-service would sign it. */
export function creatorHeaders(app: TestApp, userId: string) {
  const token = app.jwt.sign({
    kind: 'creator',
    sub: userId,
    email: `${userId}@example.test`,
    sid: TEST_CREATOR_SESSION,
  });
  return { authorization: `Bearer ${token}` };
}

let studentCounter = 0;
/** Starts (or, with its secret or code, resumes) an attempt and returns the response and its bearer header. */
export async function startAttempt(
  app: TestApp,
  examId: string,
  candidate: { name?: string; studentId?: string; resumeSecret?: string; resumeCode?: string } = {},
) {
  const payload = {
    examId,
    name: candidate.name ?? 'Ada Lovelace',
    studentId: candidate.studentId ?? `S-${Date.now()}-${++studentCounter}`,
    ...(candidate.resumeSecret ? { resumeSecret: candidate.resumeSecret } : {}),
    ...(candidate.resumeCode ? { resumeCode: candidate.resumeCode } : {}),
  };
  const response = await app.inject({ method: 'POST', url: '/api/attempts', payload });
  if (response.statusCode !== 201) throw new Error(`start failed: ${response.statusCode} ${response.body}`);
  const body = response.json() as StartAttemptResponse;
  return { ...body, studentId: payload.studentId, headers: { authorization: `Bearer ${body.token}` } };
}

export type ResultFixture = {
  ownerId: string;
  examId?: string;
  examTitle?: string;
  userName?: string;
  studentId?: string;
  completedAt: Date;
  /** 'pending' unless given. */
  status?: ResultStatus;
  score?: number;
  maxScore?: number;
};

/**
 * Stores submitted results directly, for tests of listing and paging that need exact submission times
 * (ties included) or more results than sitting each exam would make quick. Returns the new ids.
 */
export async function insertResults(app: TestApp, fixtures: ResultFixture[]): Promise<string[]> {
  const rows = fixtures.map((f) => {
    const id = randomUUID();
    const status = f.status ?? 'pending';
    return {
      id,
      attemptId: `attempt-${id}`,
      examId: f.examId ?? 'exam-fixture',
      ownerId: f.ownerId,
      examTitle: f.examTitle ?? 'Fixture exam',
      userName: f.userName ?? 'Candidate',
      studentId: f.studentId ?? `S-${id.slice(0, 8)}`,
      totalQuestions: 2,
      answeredCount: 2,
      score: f.score ?? 1,
      maxScore: f.maxScore ?? 2,
      status,
      pendingCount: status === 'pending' ? 1 : 0,
      gradedAt: status === 'pending' ? null : f.completedAt,
      releasedAt: status === 'released' ? f.completedAt : null,
      timeSpent: 60,
      startedAt: new Date(f.completedAt.getTime() - 60_000),
      completedAt: f.completedAt,
      grades: [],
      workspaceFiles: {},
    };
  });
  if (rows.length) await app.db.insert(schema.results).values(rows);
  return rows.map((r) => r.id);
}
