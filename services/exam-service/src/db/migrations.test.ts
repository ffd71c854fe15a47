import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from './database.ts';

/** Runs one committed migration file statement by statement, as drizzle's migrator does. */
async function apply(db: PGlite, file: string) {
  const sql = readFileSync(join(MIGRATIONS_FOLDER, file), 'utf8');
  for (const statement of sql.split('--> statement-breakpoint')) {
    if (statement.trim()) await db.exec(statement);
  }
}

describe('migration 0002 (points, rubrics, release policy) from the previous schema', () => {
  const db = new PGlite();
  afterAll(() => db.close());

  it('gives every stored question 1 point, keeps points already set, and defaults the new columns', async () => {
    const files = readdirSync(MIGRATIONS_FOLDER)
      .filter((f) => f.endsWith('.sql'))
      .sort();
    const [previous, next] = [files.slice(0, 2), files[2]!];
    expect(next).toMatch(/^0002_/);
    for (const file of previous) await apply(db, file);

    await db.exec(`INSERT INTO exam_service.users (id, email, password_hash) VALUES ('u1', 'a@example.test', 'x')`);
    const questions = [
      { id: 'q1', type: 'mcq', title: 'Pick', options: ['A', 'B'], correctAnswer: 'A' },
      { id: 'q2', type: 'file-upload', title: 'Upload', points: 3 },
    ];
    await db.query(
      `INSERT INTO exam_service.exams (id, owner_id, title, description, header, rules, timer_enabled, timer_minutes,
         full_screen_enabled, questions, coding_workspace, ai_settings, is_live, is_draft, created_at, last_edited_at, updated_at)
       VALUES ('e1', 'u1', 'Old exam', '', '', '', false, 60, false, $1, '{}', '{}', true, false, now(), now(), now()),
              ('e2', 'u1', 'Empty exam', '', '', '', false, 60, false, '[]', '{}', '{}', false, true, now(), now(), now())`,
      [JSON.stringify(questions)],
    );

    await apply(db, next);

    const { rows } = await db.query<{
      id: string;
      questions: Array<{ id: string; points: number }>;
      rubrics: unknown;
      release_policy: string;
      show_answer_keys: boolean;
    }>(`SELECT id, questions, rubrics, release_policy, show_answer_keys FROM exam_service.exams ORDER BY id`);
    expect(rows[0]!.questions.map((q) => [q.id, q.points])).toEqual([
      ['q1', 1],
      ['q2', 3],
    ]);
    expect(rows[1]!.questions).toEqual([]);
    expect(rows[0]).toMatchObject({ rubrics: [], release_policy: 'on-release', show_answer_keys: false });
  });
});

describe('migration 0011 (a signing key per LTI registration, one registration per client ID and token endpoint)', () => {
  const db = new PGlite();
  afterAll(() => db.close());

  it('retires the shared key, keeps the oldest registration of a client ID at a token origin and suspends later ones', async () => {
    const files = readdirSync(MIGRATIONS_FOLDER)
      .filter((f) => f.endsWith('.sql'))
      .sort();
    const next = files.findIndex((f) => f.startsWith('0011_'));
    for (const file of files.slice(0, next)) await apply(db, file);

    await db.exec(`INSERT INTO exam_service.users (id, email, password_hash) VALUES ('a', 'a@example.test', 'x'),
      ('b', 'b@example.test', 'x')`);
    const platform = (id: string, creator: string, issuer: string, clientId: string, tokenUrl: string, at: string) =>
      db.query(
        `INSERT INTO exam_service.lti_platforms (id, creator_id, name, issuer, client_id, auth_login_url, auth_token_url,
           jwks_url, deployment_ids, created_at, updated_at)
         VALUES ($1, $2, 'LMS', $3, $4, $3 || '/auth', $5, $3 || '/jwks', '["d"]', $6, $6)`,
        [id, creator, issuer, clientId, tokenUrl, at],
      );
    await platform('victim', 'a', 'https://lms.example', 'c1', 'https://lms.example/token', '2026-01-01T00:00:00Z');
    // The same client ID at the same token origin, spelled differently: the borrowed registration.
    await platform('borrowed', 'b', 'https://b.example', 'c1', 'HTTPS://LMS.example:443/other', '2026-02-01T00:00:00Z');
    await platform('other-client', 'b', 'https://b.example', 'c2', 'https://lms.example/token', '2026-02-01T00:00:00Z');
    await platform(
      'other-lms',
      'b',
      'http://127.0.0.1:8080',
      'c1',
      'http://127.0.0.1:8080/token',
      '2026-03-01T00:00:00Z',
    );
    await db.exec(`INSERT INTO exam_service.lti_tool_keys (kid, public_jwk, encrypted_private_key, created_at)
      VALUES ('shared', '{}', 'v1.x', now())`);

    await apply(db, files[next]!);

    const { rows } = await db.query<{ id: string; token_origin: string | null }>(
      `SELECT id, token_origin FROM exam_service.lti_platforms ORDER BY id`,
    );
    expect(rows).toEqual([
      { id: 'borrowed', token_origin: null },
      { id: 'other-client', token_origin: 'https://lms.example' },
      { id: 'other-lms', token_origin: 'http://127.0.0.1:8080' },
      { id: 'victim', token_origin: 'https://lms.example' },
    ]);
    const keys = await db.query<{ retired_at: Date | null; platform_id: string | null }>(
      `SELECT retired_at, platform_id FROM exam_service.lti_tool_keys`,
    );
    expect(keys.rows).toEqual([{ retired_at: expect.any(Date), platform_id: null }]);
    // The rule holds from now on in the database too.
    await expect(
      db.query(`UPDATE exam_service.lti_platforms SET token_origin = 'https://lms.example' WHERE id = 'borrowed'`),
    ).rejects.toThrow(/lti_platforms_client_token_origin_idx/);
  });
});
