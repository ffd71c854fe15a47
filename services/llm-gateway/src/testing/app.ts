import { randomUUID } from 'node:crypto';
import type { PublicQuestion } from '@exam/domain/question';
import type { InternalAttempt, InternalExam } from '@exam/domain/internal';
import { openTestDatabase, TEST_CREATOR_SESSION, TEST_SECRETS, testCreatorSessions } from '@exam/server-kit/testing';
import { providersFromConfig } from '../adapters/providers/providers.ts';
import { httpWorkspaceSnapshots } from '../adapters/workspace-snapshots.ts';
import { buildApp } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import { MIGRATIONS_FOLDER, MIGRATIONS_SCHEMA } from '../db/database.ts';
import * as schema from '../db/schema.ts';
import { fakeCodeRunner } from './code-runner.ts';
import { systemClock, uuidIds, type AttemptSource, type Deps, type ExamSource } from '../deps.ts';

export const TEST_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64url');

/** Where the tests' msw handlers pretend each provider lives. */
export const TEST_ENDPOINTS = {
  openai: 'https://openai.test/v1',
  anthropic: 'https://anthropic.test',
  groq: 'https://groq.test/openai/v1',
  google: 'https://gemini.test',
  compatible: 'http://self-hosted.test:8000/v1',
} as const;

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    ...TEST_SECRETS,
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    LOG_LEVEL: 'silent',
    DATA_DIR: '/nonexistent',
    OPENAI_BASE_URL: TEST_ENDPOINTS.openai,
    ANTHROPIC_BASE_URL: TEST_ENDPOINTS.anthropic,
    GROQ_BASE_URL: TEST_ENDPOINTS.groq,
    GOOGLE_GEMINI_BASE_URL: TEST_ENDPOINTS.google,
    // The tests' self-hosted server is a made-up name that does not resolve: listed, it needs no DNS.
    OPENAI_COMPATIBLE_ALLOWED_HOSTS: new URL(TEST_ENDPOINTS.compatible).host,
    // Suites share one database on PostgreSQL: an app's resume pass would claim other suites' audits. The audit
    // suite turns it on where it tests it.
    AUDIT_RESUME_INTERVAL_MS: '0',
    ...overrides,
  });
}

/** exam-service and results-service as in-memory maps (one suite uses the real HTTP clients instead). */
export function fakePlatform() {
  const exams = new Map<string, InternalExam>();
  const attempts = new Map<string, InternalAttempt>();
  const examSource: ExamSource = { findExam: async (id) => exams.get(id) };
  const attemptSource: AttemptSource = { findAttempt: async (id) => attempts.get(id) };
  return { exams, attempts, examSource, attemptSource };
}
export type FakePlatform = ReturnType<typeof fakePlatform>;

/** An app on the shared test database (PGlite, or PostgreSQL under test:pg), with the real provider adapters. */
export async function buildTestApp(
  opts: { env?: Record<string, string>; deps?: Partial<Deps>; platform?: FakePlatform } = {},
) {
  const config = testConfig(opts.env);
  const database = await openTestDatabase({
    schema,
    migrationsFolder: MIGRATIONS_FOLDER,
    migrationsSchema: MIGRATIONS_SCHEMA,
  });
  const platform = opts.platform ?? fakePlatform();
  const { llm, baseUrlGuard, relay } = providersFromConfig(config);
  const codeRunner = fakeCodeRunner();
  // The real client: a suite that lets agents call answers the orchestrator's snapshot route with msw.
  const workspaceSnapshots = httpWorkspaceSnapshots(config.WORKSPACE_ORCHESTRATOR_URL, config.internalToken, {
    timeoutMs: 1000,
  });
  const app = await buildApp(config, {
    database,
    clock: systemClock,
    ids: uuidIds,
    exams: platform.examSource,
    attempts: platform.attemptSource,
    llm,
    relay,
    workspaceSnapshots,
    codeRunner,
    baseUrlGuard,
    creatorSessions: testCreatorSessions(),
    ...opts.deps,
  });
  app.addHook('onClose', () => workspaceSnapshots.close());
  await app.ready();
  return Object.assign(app, { platform, runner: codeRunner });
}
export type TestApp = Awaited<ReturnType<typeof buildTestApp>>;

/** Registers the exam and an open attempt on it; returns the attempt token's header. */
export function startAttempt(
  app: TestApp,
  exam: InternalExam,
  opts: {
    isOpen?: boolean;
    questions?: PublicQuestion[];
    calculatedKeys?: NonNullable<InternalAttempt['calculatedKeys']>;
  } = {},
) {
  app.platform.exams.set(exam.id, exam);
  const attemptId = randomUUID();
  app.platform.attempts.set(attemptId, {
    attemptId,
    examId: exam.id,
    ownerId: exam.ownerId,
    startedAt: new Date().toISOString(),
    deadline: null,
    submittedAt: opts.isOpen === false ? new Date().toISOString() : null,
    isOpen: opts.isOpen ?? true,
    ...(opts.questions ? { questions: opts.questions } : {}),
    ...(opts.calculatedKeys ? { calculatedKeys: opts.calculatedKeys } : {}),
  });
  const token = app.jwt.sign({
    kind: 'attempt',
    sub: attemptId,
    examId: exam.id,
    ownerId: exam.ownerId,
    name: 'Ada',
    studentId: 'S-1',
  });
  return { attemptId, headers: { authorization: `Bearer ${token}` } };
}

export function creatorHeaders(app: TestApp, creatorId: string) {
  return {
    authorization: `Bearer ${app.jwt.sign({ kind: 'creator', sub: creatorId, email: `${creatorId}@example.test`, sid: TEST_CREATOR_SESSION })}`,
  };
}
