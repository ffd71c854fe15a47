import { autoPoints } from '@exam/domain/grading';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSnapshot } from '../scoring/snapshot.ts';
import { createFreshDatabase } from '../testing/fresh-database.ts';
import { attempts, gradeHistory, results } from './schema.ts';

/** Snapshots and grades as results-service stored them before points (migrations 0000–0002). */
const oldQuestions = [
  { id: 'q0', type: 'mcq', title: 'Keyed MCQ', content: '', topic: '', options: ['a', 'b'], correctAnswer: 'b' },
  { id: 'q1', type: 'mcq', title: 'Keyed MCQ 2', content: '', topic: '', options: ['a', 'b'], correctAnswer: 'b' },
  { id: 'q2', type: 'mcq', title: 'Keyless MCQ', content: '', topic: '', options: ['x', 'y'] },
  { id: 'q3', type: 'file-upload', title: 'Report', content: '', topic: '', options: [] },
  {
    id: 'q4',
    type: 'short-answer',
    title: 'Organ',
    content: '',
    topic: '',
    options: [],
    acceptedAnswers: ['The Skin'],
  },
  // The spec's short-answer correctAnswer, stored and ignored by the old scoring: now an accepted answer.
  { id: 'q5', type: 'short-answer', title: 'Capital', content: '', topic: '', options: [], correctAnswer: 'Paris' },
  { id: 'q6', type: 'short-answer', title: 'School', content: '', topic: '', options: [], acceptedAnswers: ['École'] },
];
const snapshotOf = (questions: unknown[]) => ({
  title: 'Old exam',
  ownerId: 'owner-old',
  timerEnabled: false,
  timerMinutes: 60,
  questions,
  codingWorkspace: { enabled: false, saveFilesInResults: true, workspaceType: 'vscode', allowPackageRegistries: false },
});
type OldGrade = { answer: string | null; isCorrect: boolean | null; isGraded: boolean; feedback: string };
const auto = (answer: string | null, isCorrect: boolean): OldGrade => ({
  answer,
  isCorrect,
  isGraded: true,
  feedback: '',
});
const ungraded = (answer: string | null): OldGrade => ({ answer, isCorrect: null, isGraded: false, feedback: '' });

describe('migrating results stored before points (0003_scores_in_points)', () => {
  const fresh = createFreshDatabase();
  let rows: (typeof results.$inferSelect)[];
  let database: Awaited<ReturnType<Awaited<typeof fresh>['open']>>;

  async function insertOld(
    db: typeof database.db,
    id: string,
    o: { questions: unknown[]; grades: OldGrade[]; score: number | null; graderSaved: boolean },
  ) {
    const created = new Date('2030-01-01T10:00:00Z');
    const updated = o.graderSaved ? new Date('2030-01-02T10:00:00Z') : created;
    const isGraded = o.grades.every((g) => g.isGraded);
    await db.execute(sql`insert into results_service.attempts
      (id, exam_id, owner_id, name, student_id, started_at, submitted_at, result_id, exam_snapshot, question_count)
      values (${`a-${id}`}, 'exam-old', 'owner-old', 'Old candidate', ${id}, ${created.toISOString()}::timestamptz,
        ${created.toISOString()}::timestamptz, ${id}, ${JSON.stringify(snapshotOf(o.questions))}::jsonb, ${o.questions.length})`);
    await db.execute(sql`insert into results_service.results
      (id, attempt_id, exam_id, owner_id, exam_title, user_name, student_id, total_questions, answered_count,
       correct_count, graded_count, score, is_graded, graded_at, time_spent, started_at, completed_at, grades,
       workspace_files, created_at, updated_at)
      values (${id}, ${`a-${id}`}, 'exam-old', 'owner-old', 'Old exam', 'Old candidate', ${id}, ${o.questions.length},
        ${o.grades.filter((g) => g.answer).length}, ${o.grades.filter((g) => g.isCorrect).length},
        ${o.grades.filter((g) => g.isGraded).length}, ${o.score}, ${isGraded},
        ${isGraded ? updated.toISOString() : null}::timestamptz, 60, ${created.toISOString()}::timestamptz,
        ${created.toISOString()}::timestamptz, ${JSON.stringify(o.grades)}::jsonb, '{}'::jsonb,
        ${created.toISOString()}::timestamptz, ${updated.toISOString()}::timestamptz)`);
  }

  beforeAll(async () => {
    const db = await fresh;
    const old = await db.open('0002_results_paging');
    // Graded by a human: the keyless MCQ marked right, the file upload left for later.
    await insertOld(old.db, 'r-graded-by-human', {
      questions: oldQuestions,
      grades: [
        auto('b', true),
        auto('a', false),
        { answer: 'x', isCorrect: true, isGraded: true, feedback: 'Fair point' },
        ungraded('File: report.pdf'),
        auto('  the \u00a0  SKIN ', true),
        auto('paris', false),
        auto('ÉCOLE', true),
      ],
      score: null,
      graderSaved: true,
    });
    // Never opened by a grader: the keyless MCQ carries the old submission's automatic "wrong".
    await insertOld(old.db, 'r-untouched', {
      questions: oldQuestions,
      grades: [
        auto('a', false),
        auto(null, false),
        auto('y', false),
        ungraded(null),
        auto('theskin', true),
        auto(null, false),
        auto(null, false),
      ],
      score: null,
      graderSaved: false,
    });
    // Complete under the old model (50 %): two keyed MCQs and a human-graded upload with feedback.
    await insertOld(old.db, 'r-complete', {
      questions: [oldQuestions[0], oldQuestions[1], oldQuestions[3]],
      grades: [
        auto('b', true),
        auto('a', false),
        { answer: 'File: x', isCorrect: false, isGraded: true, feedback: 'Missing' },
      ],
      score: 33,
      graderSaved: true,
    });
    await insertOld(old.db, 'r-empty', { questions: [], grades: [], score: 0, graderSaved: false });
    await old.close();

    database = await db.open();
    rows = await database.db.select().from(results).orderBy(asc(results.id));
  });
  afterAll(async () => {
    await database?.close();
    await (await fresh).drop();
  });

  const row = (id: string) => {
    const found = rows.find((r) => r.id === id);
    if (!found) throw new Error(`no result ${id}`);
    return found;
  };

  it('re-scores keyed questions by the key, keeps a human mark of a keyless one and leaves the upload pending', () => {
    const r = row('r-graded-by-human');
    expect(r.grades.map((g) => [g.points, g.autoScored, g.manual])).toEqual([
      [1, true, false],
      [0, true, false],
      [1, false, true],
      [null, false, false],
      [1, true, false],
      [1, true, false],
      [1, true, false],
    ]);
    expect(r.grades[2]).toEqual({
      answer: 'x',
      points: 1,
      autoScored: false,
      feedback: 'Fair point',
      criteria: [],
      manual: true,
    });
    expect(r).toMatchObject({ score: 5, maxScore: 7, status: 'pending', pendingCount: 1, gradedAt: null });
  });

  it('makes the automatic "wrong" of a keyless MCQ nobody graded pending, and compares short answers with spaces collapsed', () => {
    const r = row('r-untouched');
    expect(r.grades.map((g) => g.points)).toEqual([0, 0, null, null, 0, 0, 0]);
    expect(r).toMatchObject({ score: 0, maxScore: 7, status: 'pending', pendingCount: 2, releasedAt: null });
  });

  it('scores keyed answers exactly as @exam/domain/grading does', () => {
    const questions = parseSnapshot(snapshotOf(oldQuestions)).questions;
    for (const r of [row('r-graded-by-human'), row('r-untouched')]) {
      r.grades.forEach((g, i) => {
        if (g.autoScored) expect(g.points).toBe(autoPoints(questions[i]!, g.answer ?? undefined));
      });
    }
  });

  it('marks a result complete under the old model graded, one point per question, keeping gradedAt and feedback', () => {
    const r = row('r-complete');
    expect(r).toMatchObject({ score: 1, maxScore: 3, status: 'graded', pendingCount: 0 });
    expect(r.gradedAt?.toISOString()).toBe('2030-01-02T10:00:00.000Z');
    expect(r.grades[2]).toMatchObject({ points: 0, manual: true, feedback: 'Missing' });
    expect(row('r-empty')).toMatchObject({ score: 0, maxScore: 0, status: 'graded', pendingCount: 0, grades: [] });
  });

  it('reads old snapshots with one point per question and no rubrics', async () => {
    const [attempt] = await database.db.select().from(attempts).where(eq(attempts.id, 'a-r-complete'));
    expect(attempt?.examSnapshot.questions.map((q) => q.points)).toEqual([1, 1, 1]);
    expect(attempt?.examSnapshot).toMatchObject({ rubrics: [], releasePolicy: 'on-release', showAnswerKeys: false });
  });

  it('keeps the grade history append-only', async () => {
    await database.db
      .insert(gradeHistory)
      .values({ resultId: 'r-empty', at: new Date(), by: 'a@b.c', kind: 'release' });
    await expect(database.db.update(gradeHistory).set({ by: 'someone else' })).rejects.toThrow();
    await expect(database.db.delete(gradeHistory)).rejects.toThrow();
    expect(await database.db.select().from(gradeHistory)).toHaveLength(1);
  });
});
