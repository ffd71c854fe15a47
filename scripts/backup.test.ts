// `pnpm backup` and `pnpm restore` end to end: the platform on the embedded default serves a creator's exam, a
// candidate's submitted attempt and an assistant conversation; it is stopped, backed up, restored into a fresh data
// folder and started again, and serves the same (docs/backup.md). The same for a PostgreSQL database with pg_dump.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../apps/e2e/tests/support/fake-openai.ts';
import { BackupError, describePart, FORMAT, loadPGlite, verifyParts, type Manifest } from './backup-archive.ts';
import { freePort, startStack, type Stack } from './backup-stack.ts';

const REPLY = 'Start from the definition, then check each step.';
const CREATOR_KEY = 'sk-creator-own-key-9f3a';
const PASSWORD = 'backup-test-password';

const work = mkdtempSync(join(tmpdir(), 'exam-backup-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function cli(script: 'backup' | 'restore', args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [join(import.meta.dirname, `${script}.ts`), ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
  });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

async function call(base: string, method: string, path: string, token?: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** A candidate starts an attempt and asks the assistant once; returns the attempt and the streamed reply. */
async function attemptWithChat(stack: Stack, examId: string, name: string) {
  const started = (await call(stack.url('results-service'), 'POST', '/api/attempts', undefined, {
    examId,
    name,
    studentId: `s-${name}`,
  })) as { attemptId: string; token: string };
  const response = await fetch(`${stack.url('llm-gateway')}/api/llm/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${started.token}` },
    body: JSON.stringify({ message: 'Where do I start?', questionIndex: 0, clientMessageId: randomUUID() }),
  });
  const stream = await response.text();
  expect(response.status, stream).toBe(200);
  return { ...started, stream };
}

/** What the creator is served about the exam, its results and the conversation: compared before and after. */
async function served(stack: Stack, token: string, examId: string, attemptId: string, resultId: string) {
  const exams = stack.url('exam-service');
  return {
    exam: await call(exams, 'GET', `/api/exams/${examId}`, token),
    exams: await call(exams, 'GET', '/api/exams/auth_exams', token),
    results: await call(stack.url('results-service'), 'GET', '/api/results', token),
    result: await call(stack.url('results-service'), 'GET', `/api/results/${resultId}`, token),
    transcript: await call(stack.url('llm-gateway'), 'GET', `/api/llm/attempts/${attemptId}/transcript`, token),
  };
}

describe('pnpm backup and pnpm restore on the embedded default', () => {
  let fake: FakeOpenAi;
  let openAiBaseUrl: string;
  beforeAll(async () => {
    const port = await freePort();
    fake = await startFakeOpenAi({
      port,
      reply: [{ text: 'Start from the definition,' }, { text: ' then check each step.' }],
      delayMs: 5,
    });
    openAiBaseUrl = `http://127.0.0.1:${port}/v1`;
  });
  afterAll(() => fake.close());

  it('restores into a fresh data folder a platform that serves the same exams, results and transcripts', async () => {
    const logDir = join(work, 'logs');
    mkdirSync(logDir);
    const original = join(work, 'original');
    const restored = join(work, 'restored');
    const archive = join(work, 'backup.tar');

    let stack = await startStack({ dataDir: original, logDir, openAiBaseUrl });
    let before: Awaited<ReturnType<typeof served>>;
    let creator: { token: string; user: { email: string } };
    let examId: string;
    let ids: { attemptId: string; resultId: string };
    try {
      const email = `backup-${Date.now()}@backup.test`;
      creator = (await call(stack.url('exam-service'), 'POST', '/api/auth/register', undefined, {
        email,
        password: PASSWORD,
      })) as typeof creator;
      const { exam } = (await call(stack.url('exam-service'), 'POST', '/api/exams', creator.token, {
        title: 'Backed-up exam',
        isDraft: false,
        questions: [
          { id: 'q1', type: 'mcq', title: 'Pick B', options: ['A', 'B', 'C'], correctAnswer: 'B' },
          { id: 'q2', type: 'short-answer', title: 'Name the process', acceptedAnswers: ['photosynthesis'] },
        ],
        // The creator's own provider key, stored encrypted with ENCRYPTION_KEY (DATA_DIR/secrets).
        aiSettings: { enabled: true, provider: 'openai', model: 'gpt-4o-mini', apiKey: CREATOR_KEY },
      })) as { exam: { id: string } };
      examId = exam.id;
      await call(stack.url('exam-service'), 'PUT', `/api/exams/${examId}`, creator.token, { isLive: true });

      const attempt = await attemptWithChat(stack, examId, 'Ada');
      expect(attempt.stream).toContain('check each step');
      const attemptPath = `/api/attempts/${attempt.attemptId}`;
      await call(stack.url('results-service'), 'PUT', `${attemptPath}/answers/0`, attempt.token, {
        answer: 'B',
        seq: 1,
      });
      await call(stack.url('results-service'), 'PUT', `${attemptPath}/answers/1`, attempt.token, {
        answer: 'photosynthesis',
        seq: 1,
      });
      const { resultId } = (await call(
        stack.url('results-service'),
        'POST',
        `${attemptPath}/submit`,
        attempt.token,
      )) as {
        resultId: string;
      };
      ids = { attemptId: attempt.attemptId, resultId };
      before = await served(stack, creator.token, examId, attempt.attemptId, resultId);
      expect(JSON.stringify(before.transcript)).toContain(REPLY);
      expect(JSON.stringify(before.result)).toContain('photosynthesis');
      expect(fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${CREATOR_KEY}`);

      // Online, the embedded database cannot be copied: refused, naming the running database.
      const online = cli('backup', ['--data-dir', original, '--out', archive]);
      expect(online.status).toBe(1);
      expect(online.out).toMatch(/embedded database is running on .* \(pid \d+\).*needs the platform stopped/s);
    } finally {
      await stack.stop();
    }

    const startedAt = Date.now();
    const made = cli('backup', ['--data-dir', original, '--out', archive]);
    expect(made.status, made.out).toBe(0);
    const backupSeconds = (Date.now() - startedAt) / 1000;
    expect(statSync(archive).mode & 0o077).toBe(0);

    // Not over the data it came from, nor over anything else, without --force.
    const refused = cli('restore', [archive, '--data-dir', original]);
    expect(refused.status).toBe(1);
    expect(refused.out).toMatch(/is not empty.*--force/s);

    const restoreStartedAt = Date.now();
    const put = cli('restore', [archive, '--data-dir', restored]);
    expect(put.status, put.out).toBe(0);
    const restoreSeconds = (Date.now() - restoreStartedAt) / 1000;
    expect(put.out).toMatch(/checksums verified, migrations as recorded \(exam_service \d+/);
    expect(readdirSync(join(restored, 'secrets')).sort()).toEqual(['ENCRYPTION_KEY', 'INTERNAL_TOKEN', 'JWT_SECRET']);
    console.log(`[backup] backup ${backupSeconds.toFixed(1)} s, restore ${restoreSeconds.toFixed(1)} s; ${made.out}`);

    // The original folder goes away: whatever is served next comes from the restored one.
    rmSync(original, { recursive: true, force: true });
    stack = await startStack({ dataDir: restored, logDir, openAiBaseUrl });
    try {
      const after = await served(stack, creator.token, examId, ids.attemptId, ids.resultId);
      expect(after).toEqual(before);

      // The creator's session (signed with the restored JWT_SECRET) is still open, and the password still signs in.
      const login = (await call(stack.url('exam-service'), 'POST', '/api/auth/login', undefined, {
        email: creator.user.email,
        password: PASSWORD,
      })) as { token: string };
      expect(await call(stack.url('exam-service'), 'GET', `/api/exams/${examId}`, login.token)).toEqual(before.exam);

      // The stored API key decrypts with the restored ENCRYPTION_KEY: the provider is called with it.
      const again = await attemptWithChat(stack, examId, 'Grace');
      expect(again.stream).toContain('check each step');
      expect(fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${CREATOR_KEY}`);
    } finally {
      await stack.stop();
    }
  }, 300_000);
});

describe('a damaged backup', () => {
  it('is refused before anything is written, naming the part', async () => {
    const stage = join(work, 'damaged');
    mkdirSync(stage, { recursive: true });
    writeFileSync(join(stage, 'files.tar.gz'), 'the files');
    const manifest = { format: FORMAT, formatVersion: 1, parts: [await describePart(stage, 'files.tar.gz')] };
    await expect(verifyParts(stage, manifest as Manifest)).resolves.toBeUndefined();
    writeFileSync(join(stage, 'files.tar.gz'), 'the fileZ');
    await expect(verifyParts(stage, manifest as Manifest)).rejects.toThrow(/files.tar.gz: SHA-256 does not match/);
    await expect(verifyParts(stage, manifest as Manifest)).rejects.toBeInstanceOf(BackupError);
  });
});

describe('mistakes that leave nothing half-done', () => {
  // A small embedded data folder as the platform leaves it: one PGlite with a migration journal, and the secrets.
  const dataDir = join(work, 'small');
  const archive = join(work, 'small-backup.tar');
  beforeAll(async () => {
    mkdirSync(join(dataDir, 'secrets'), { recursive: true });
    writeFileSync(join(dataDir, 'secrets', 'JWT_SECRET'), 'secret', { mode: 0o600 });
    const PGlite = await loadPGlite();
    const db = (await PGlite.create(join(dataDir, 'postgres'))) as unknown as {
      exec(sql: string): Promise<unknown>;
      close(): Promise<void>;
    };
    await db.exec(`
      create schema drizzle;
      create table drizzle.__exam_service_migrations (id serial primary key, hash text not null, created_at bigint);
      insert into drizzle.__exam_service_migrations (hash, created_at) values ('a1', 1), ('b2', 2);`);
    await db.close();
    const made = cli('backup', ['--data-dir', dataDir, '--out', archive]);
    expect(made.status, made.out).toBe(0);
  }, 120_000);

  it('refuses to write the backup inside the data folder it copies, before copying anything', () => {
    const inside = join(dataDir, 'backups', 'exam.tar');
    const refused = cli('backup', ['--data-dir', dataDir, '--out', inside]);
    expect(refused.status).toBe(1);
    expect(refused.out).toContain(`${inside} is inside the data folder being backed up (${dataDir})`);
    expect(readdirSync(dataDir).sort()).toEqual(['postgres', 'secrets']);
  });

  it('compares the restored migrations with the manifest by count and hash, and a failed restore leaves the folder as it was', () => {
    // The manifest says the last migration is another one than the database holds (manifest.json is not a part).
    const stage = join(work, 'tampered');
    mkdirSync(stage);
    spawnSync('tar', ['-xf', archive, '-C', stage]);
    const manifest = JSON.parse(readFileSync(join(stage, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.migrations).toEqual({ exam_service: { applied: 2, last: 'b2' } });
    manifest.migrations.exam_service!.last = 'c3';
    writeFileSync(join(stage, 'manifest.json'), JSON.stringify(manifest));
    const tampered = join(work, 'tampered.tar');
    spawnSync('tar', ['-cf', tampered, '-C', stage, 'manifest.json', ...manifest.parts.map((p) => p.path)]);

    const fresh = join(work, 'tampered-fresh');
    const refused = cli('restore', [tampered, '--data-dir', fresh]);
    expect(refused.status).toBe(1);
    expect(refused.out).toContain("The restored database's migrations differ from the manifest's");
    expect(refused.out).toContain(`Nothing was restored: ${fresh} is as it was before.`);
    expect(existsSync(fresh)).toBe(false);

    // With --force over a folder in use: its contents are put back where they were, nothing is left aside.
    const used = join(work, 'tampered-used');
    mkdirSync(used);
    writeFileSync(join(used, 'kept.txt'), 'kept');
    const forced = cli('restore', [tampered, '--data-dir', used, '--force']);
    expect(forced.status).toBe(1);
    expect(readdirSync(used)).toEqual(['kept.txt']);
    expect(readdirSync(work).filter((name) => name.includes('.before-restore-'))).toEqual([]);

    // The untouched archive restores into the same fresh folder afterwards.
    const put = cli('restore', [archive, '--data-dir', fresh]);
    expect(put.status, put.out).toBe(0);
    expect(put.out).toContain('migrations as recorded (exam_service 2)');
  }, 120_000);
});

const base = process.env.TEST_DATABASE_URL;
describe.runIf(base)('pnpm backup --database-url and pnpm restore on PostgreSQL', () => {
  const names = [`exam_backup_src_${process.pid}`, `exam_backup_dst_${process.pid}`];
  const urlOf = (name: string) => Object.assign(new URL(base!), { pathname: `/${name}` }).toString();
  let admin: postgres.Sql;
  beforeAll(async () => {
    admin = postgres(base!, { max: 1, onnotice: () => {} });
    for (const name of names) await admin.unsafe(`drop database if exists "${name}" with (force)`);
    for (const name of names) await admin.unsafe(`create database "${name}"`);
  });
  afterAll(async () => {
    for (const name of names) await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
  });

  it('dumps a database with pg_dump and restores it into an empty one, migrations and rows alike', async () => {
    const [source, target] = names.map(urlOf) as [string, string];
    const src = postgres(source, { max: 1, onnotice: () => {} });
    // A service's schema and its drizzle journal, as openDatabase leaves them.
    await src.unsafe(`
      create schema exam_service; create schema drizzle;
      create table drizzle.__exam_service_migrations (id serial primary key, hash text not null, created_at bigint);
      insert into drizzle.__exam_service_migrations (hash, created_at) values ('a1', 1), ('b2', 2);
      create table exam_service.exams (id text primary key, title text not null);
      insert into exam_service.exams values ('e1', 'Backed-up exam');`);
    await src.end();
    const dataDir = join(work, 'pg-data');
    mkdirSync(join(dataDir, 'outbox'), { recursive: true });
    writeFileSync(join(dataDir, 'outbox', 'mail.eml'), 'Subject: kept\n');
    const archive = join(work, 'pg-backup.tar');

    const made = cli('backup', ['--database-url', source, '--data-dir', dataDir, '--out', archive]);
    expect(made.status, made.out).toBe(0);
    expect(made.out).toContain('keep them in your secret store');

    const restoredDir = join(work, 'pg-restored');
    const put = cli('restore', [archive, '--database-url', target, '--data-dir', restoredDir]);
    expect(put.status, put.out).toBe(0);
    expect(put.out).toContain('exam_service 2');
    const dst = postgres(target, { max: 1, onnotice: () => {} });
    expect(await dst`select id, title from exam_service.exams`).toEqual([{ id: 'e1', title: 'Backed-up exam' }]);
    await dst.end();
    expect(readdirSync(join(restoredDir, 'outbox'))).toEqual(['mail.eml']);

    // The target now has tables: a second restore is refused without --force, and replaces them with it.
    const again = cli('restore', [archive, '--database-url', target, '--data-dir', join(work, 'pg-restored-2')]);
    expect(again.status).toBe(1);
    expect(again.out).toMatch(/already has \d+ tables/);
    const forced = cli('restore', [archive, '--database-url', target, '--data-dir', restoredDir, '--force']);
    expect(forced.status, forced.out).toBe(0);
  }, 60_000);
});
