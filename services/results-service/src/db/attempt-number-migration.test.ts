import { asc, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFreshDatabase } from '../testing/fresh-database.ts';
import { attempts } from './schema.ts';

/** Attempts stored while a candidate had one attempt per exam (0000–0005) become their attempt 1. */
describe('numbering attempts per candidate (0006_windows_attempts_overrides)', () => {
  const fresh = createFreshDatabase();
  let database: Awaited<ReturnType<Awaited<typeof fresh>['open']>>;

  beforeAll(async () => {
    const db = await fresh;
    const old = await db.open('0005_add_attempt_binding');
    await old.db.execute(sql`insert into results_service.attempts
      (id, exam_id, owner_id, name, student_id, candidate_key, started_at, submitted_at, exam_snapshot, question_count)
      values ('a-old', 'exam-m', 'owner-old', 'Old candidate', 'S-1', 's-1', '2030-01-01T09:00:00Z',
        '2030-01-01T09:30:00Z', '{"title":"t","questions":[]}'::jsonb, 0)`);
    await old.close();
    database = await db.open();
  });
  afterAll(async () => {
    await database?.close();
    await (await fresh).drop();
  });

  it('keeps an existing attempt as attempt 1 and lets the same candidate have an attempt 2, but never two attempts 2', async () => {
    const insert = (id: string, attemptNo: number) =>
      database.db.execute(sql`insert into results_service.attempts
        (id, exam_id, owner_id, name, student_id, candidate_key, attempt_no, started_at, exam_snapshot, question_count)
        values (${id}, 'exam-m', 'owner-old', 'Old candidate', 'S-1', 's-1', ${attemptNo}, '2030-01-02T09:00:00Z',
          '{"title":"t","questions":[]}'::jsonb, 0)`);
    await insert('a-second', 2);
    await expect(insert('a-again', 2)).rejects.toThrow();
    const rows = await database.db
      .select({ id: attempts.id, attemptNo: attempts.attemptNo })
      .from(attempts)
      .orderBy(asc(attempts.attemptNo));
    expect(rows).toEqual([
      { id: 'a-old', attemptNo: 1 },
      { id: 'a-second', attemptNo: 2 },
    ]);
  });
});
