import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFreshDatabase } from '../testing/fresh-database.ts';
import { attempts } from './schema.ts';

/** Attempts as results-service stored them while the candidate ID as typed named the attempt (0000–0004). */
describe('migrating attempts to normalised candidate keys (0005_add_attempt_binding)', () => {
  const fresh = createFreshDatabase();
  const columns = {
    id: attempts.id,
    examId: attempts.examId,
    studentId: attempts.studentId,
    candidateKey: attempts.candidateKey,
    resumeCodeHash: attempts.resumeCodeHash,
    resumeSecretHashes: attempts.resumeSecretHashes,
    resumeFailures: attempts.resumeFailures,
    unlockedUntil: attempts.unlockedUntil,
  };
  let rows: { id: string; examId: string; studentId: string; candidateKey: string }[];
  let database: Awaited<ReturnType<Awaited<typeof fresh>['open']>>;

  beforeAll(async () => {
    const db = await fresh;
    const old = await db.open('0004_drop_percentage_counts');
    const insert = (id: string, examId: string, studentId: string, startedAt: string, submitted: boolean) =>
      old.db.execute(sql`insert into results_service.attempts
        (id, exam_id, owner_id, name, student_id, started_at, submitted_at, exam_snapshot, question_count)
        values (${id}, ${examId}, 'owner-old', 'Old candidate', ${studentId}, ${startedAt}::timestamptz,
          ${submitted ? startedAt : null}::timestamptz, '{"title":"t","questions":[]}'::jsonb, 0)`);
    // Three spellings of one ID in one exam: the earliest is submitted, the open one is what a start should find.
    await insert('a-upper', 'exam-m', 'S-1', '2030-01-01T09:00:00Z', true);
    await insert('a-lower', 'exam-m', 's-1', '2030-01-01T09:05:00Z', false);
    await insert('a-wide', 'exam-m', 'Ｓ-１', '2030-01-01T09:10:00Z', false);
    await insert('a-alone', 'exam-m', 'Ab-2', '2030-01-01T09:00:00Z', false);
    await insert('a-other-exam', 'exam-n', 'S-1', '2030-01-01T09:00:00Z', false);
    await old.close();
    database = await db.open();
    rows = await database.db.select(columns).from(attempts).orderBy(asc(attempts.id));
  });
  afterAll(async () => {
    await database?.close();
    await (await fresh).drop();
  });

  const keyOf = (id: string) => rows.find((r) => r.id === id)?.candidateKey;

  it('gives every attempt its normalised key and keeps the ID as typed', () => {
    expect(keyOf('a-alone')).toBe('ab-2');
    expect(keyOf('a-other-exam')).toBe('s-1');
    expect(rows.find((r) => r.id === 'a-wide')?.studentId).toBe('Ｓ-１');
  });

  it('keeps every colliding attempt, gives the plain key to the first open one and a suffixed key to the rest', () => {
    expect(rows.filter((r) => r.examId === 'exam-m')).toHaveLength(4);
    expect(keyOf('a-lower')).toBe('s-1');
    expect(keyOf('a-upper')).toBe('s-1#a-upper');
    expect(keyOf('a-wide')).toBe('s-1#a-wide');
  });

  it('leaves old attempts without a resume code or secrets, so only an unlock resumes them', async () => {
    const [row] = await database.db.select(columns).from(attempts).where(eq(attempts.id, 'a-lower'));
    expect(row).toMatchObject({ resumeCodeHash: null, resumeSecretHashes: [], resumeFailures: 0, unlockedUntil: null });
  });
});
