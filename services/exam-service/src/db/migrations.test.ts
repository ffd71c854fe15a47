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
