import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { openTestDatabase, TEST_SECRETS } from '@exam/server-kit/testing';
import { buildApp } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import { MIGRATIONS_FOLDER, MIGRATIONS_SCHEMA } from '../db/database.ts';
import * as schema from '../db/schema.ts';
import { systemClock, uuidIds, type Deps } from '../deps.ts';

export const TEST_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64url');

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    ...TEST_SECRETS,
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    LOG_LEVEL: 'silent',
    SCRYPT_COST: '1024',
    DATA_DIR: '/nonexistent',
    ...overrides,
  });
}

/** An app on the shared test database (PGlite, or PostgreSQL under test:pg). */
export async function buildTestApp(opts: { env?: Record<string, string>; deps?: Partial<Deps> } = {}) {
  const database = await openTestDatabase({
    schema,
    migrationsFolder: MIGRATIONS_FOLDER,
    migrationsSchema: MIGRATIONS_SCHEMA,
  });
  const app = await buildApp(testConfig(opts.env), { database, clock: systemClock, ids: uuidIds, ...opts.deps });
  await app.ready();
  return Object.assign(app, { examDatabase: database });
}

/** A password the policy accepts (long enough, on no list of common passwords). */
export const TEST_PASSWORD = 'quiet-otter-harbour-41';

/** The session id a creator token names. */
export function sessionIdOf(token: string): string {
  const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sid: string };
  return claims.sid;
}

let counter = 0;
/** A fresh creator account and its bearer header. */
export async function createCreator(app: Awaited<ReturnType<typeof buildTestApp>>) {
  const email = `creator-${Date.now()}-${++counter}-${Math.floor(performance.now())}@example.test`;
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { email, password: TEST_PASSWORD },
  });
  const body = response.json() as { token: string; user: { id: string; email: string } };
  return { ...body, email, sid: sessionIdOf(body.token), headers: { authorization: `Bearer ${body.token}` } };
}

export type TestApp = Awaited<ReturnType<typeof buildTestApp>>;

/** An exam body with one question of each authored kind; answer keys carry recognisable canary text. */
export function examBody(overrides: Record<string, unknown> = {}) {
  return {
    title: 'Cell biology midterm',
    timerEnabled: true,
    timerMinutes: 45,
    questions: [
      {
        id: 'q1',
        type: 'mcq',
        title: 'Powerhouse of the cell',
        topic: 'cells',
        options: ['Nucleus', 'ANSWER-CANARY-mitochondria'],
        correctAnswer: 'ANSWER-CANARY-mitochondria',
      },
      {
        id: 'q2',
        type: 'short-answer',
        title: 'Name the pigment',
        topic: 'plants',
        acceptedAnswers: ['ACCEPTED-CANARY-chlorophyll'],
      },
      { id: 'q3', type: 'file-upload', title: 'Upload your lab report' },
    ],
    ...overrides,
  };
}

/** Creates an exam through the API and returns it. */
export async function createExam(
  app: TestApp,
  headers: Record<string, string>,
  overrides: Record<string, unknown> = {},
) {
  const response = await app.inject({ method: 'POST', url: '/api/exams', headers, payload: examBody(overrides) });
  if (response.statusCode !== 201) throw new Error(`create exam failed: ${response.statusCode} ${response.body}`);
  return (response.json() as { exam: { id: string } & Record<string, unknown> }).exam;
}

/** The stored digests of a user's password-reset links. */
export async function queryResetTokenHashes(app: TestApp, userId: string): Promise<string[]> {
  const rows = await app.examDatabase.db
    .select({ tokenHash: schema.passwordResetTokens.tokenHash })
    .from(schema.passwordResetTokens)
    .where(eq(schema.passwordResetTokens.userId, userId));
  return rows.map((r) => r.tokenHash);
}

/**
 * Test files share one database (vitest.config.ts): mail the files before queued (hundreds of sharing notices from
 * the role matrix) is still pending there, and a file that sends the queue over its own SMTP server would deliver all
 * of it first. Marks that mail as sent, so a file's sender delivers only its own.
 */
export async function settleEarlierMail(app: TestApp): Promise<void> {
  await app.examDatabase.db
    .update(schema.mailQueue)
    .set({ status: 'sent', sentAt: new Date() })
    .where(eq(schema.mailQueue.status, 'pending'));
}

/** An HS256 JWT signed by hand, so tests can make expired or tampered tokens the app did not issue. */
export function handSignedToken(claims: Record<string, unknown>, secret: string = TEST_SECRETS.JWT_SECRET): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}
