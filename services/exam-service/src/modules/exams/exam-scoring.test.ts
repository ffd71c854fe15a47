import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, createExam, type TestApp } from '../../testing/app.ts';

const rubric = {
  id: 'r1',
  title: 'Lab report',
  criteria: [
    { id: 'c1', description: 'Method is sound', points: 2 },
    { id: 'c2', description: 'Result is right', points: 1.5 },
  ],
};

describe('scoring settings of an exam', () => {
  let app: TestApp;
  let owner: Awaited<ReturnType<typeof createCreator>>;
  beforeAll(async () => {
    app = await buildTestApp();
    owner = await createCreator(app);
  });
  afterAll(() => app.close());

  it('stores points, keys, matching options, rubrics and the release policy, and reads them back', async () => {
    const exam = await createExam(app, owner.headers, {
      questions: [
        {
          id: 'm1',
          type: 'mcq',
          title: 'Primes',
          options: ['2', '3', '4'],
          multipleAnswers: true,
          correctAnswers: ['2', '3'],
          scoring: 'partial',
          points: 2,
        },
        {
          id: 's1',
          type: 'short-answer',
          title: 'Pi',
          acceptedAnswers: ['3.14159'],
          matching: { numeric: { tolerance: 0.01 } },
        },
        { id: 'f1', type: 'file-upload', title: 'Report', points: 4, rubricId: 'r1' },
      ],
      rubrics: [rubric],
      releasePolicy: 'immediately',
      showAnswerKeys: true,
    });
    const response = await app.inject({ method: 'GET', url: `/api/exams/${exam.id}`, headers: owner.headers });
    const stored = response.json();
    expect(stored.questions[0]).toMatchObject({
      points: 2,
      multipleAnswers: true,
      correctAnswers: ['2', '3'],
      scoring: 'partial',
    });
    expect(stored.questions[1]).toMatchObject({
      points: 1,
      matching: { caseSensitive: false, numeric: { tolerance: 0.01, mode: 'absolute' } },
    });
    expect(stored.questions[2]).toMatchObject({ rubricId: 'r1', points: 4 });
    expect(stored.rubrics).toEqual([rubric]);
    expect(stored).toMatchObject({ releasePolicy: 'immediately', showAnswerKeys: true });
  });

  it("keeps the unanswered policy: 'zero' unless the creator chooses a grader, changed alone, a bad value named", async () => {
    const exam = await createExam(app, owner.headers, { title: 'Blanks' });
    expect(exam).toMatchObject({ unansweredPolicy: 'zero' });
    const put = (body: object) =>
      app.inject({ method: 'PUT', url: `/api/exams/${exam.id}`, headers: owner.headers, payload: body });
    const changed = await put({ unansweredPolicy: 'grader' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ unansweredPolicy: 'grader', title: 'Blanks' });
    const bad = await put({ unansweredPolicy: 'skip' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('unansweredPolicy');
    const internal = await app.inject({
      method: 'GET',
      url: `/internal/exams/${exam.id}`,
      headers: { 'x-internal-token': 'test-internal-token-that-is-long-enough-0123456789' },
    });
    expect(internal.json()).toMatchObject({ unansweredPolicy: 'grader' });
  });

  it("takes a short answer's correctAnswer as an accepted answer instead of ignoring it", async () => {
    const exam = await createExam(app, owner.headers, {
      questions: [{ id: 's1', type: 'short-answer', title: 'Capital of France', correctAnswer: 'Paris' }],
    });
    const response = await app.inject({ method: 'GET', url: `/api/exams/${exam.id}`, headers: owner.headers });
    expect(response.json().questions[0].acceptedAnswers).toEqual(['Paris']);
  });

  it('refuses an update of the questions alone that points at a rubric the exam does not have, and changes nothing', async () => {
    const exam = await createExam(app, owner.headers, {
      questions: [{ id: 'f1', type: 'file-upload', title: 'Report', points: 4, rubricId: 'r1' }],
      rubrics: [rubric],
    });
    const tooSmall = await app.inject({
      method: 'PUT',
      url: `/api/exams/${exam.id}`,
      headers: owner.headers,
      payload: { questions: [{ id: 'f1', type: 'file-upload', title: 'Report', points: 3, rubricId: 'r1' }] },
    });
    expect(tooSmall.statusCode).toBe(400);
    expect(tooSmall.json().error.issues[0].path).toBe('questions.0.rubricId');
    const dropped = await app.inject({
      method: 'PUT',
      url: `/api/exams/${exam.id}`,
      headers: owner.headers,
      payload: { rubrics: [] },
    });
    expect(dropped.statusCode).toBe(400);
    const after = await app.inject({ method: 'GET', url: `/api/exams/${exam.id}`, headers: owner.headers });
    expect(after.json().questions[0].points).toBe(4);
    expect(after.json().rubrics).toEqual([rubric]);
  });

  it("does not show another creator an exam's rubrics or let them change them", async () => {
    const exam = await createExam(app, owner.headers, { rubrics: [rubric] });
    const stranger = await createCreator(app);
    const read = await app.inject({ method: 'GET', url: `/api/exams/${exam.id}`, headers: stranger.headers });
    expect(read.statusCode).toBe(404);
    const write = await app.inject({
      method: 'PUT',
      url: `/api/exams/${exam.id}`,
      headers: stranger.headers,
      payload: { rubrics: [] },
    });
    expect(write.statusCode).toBe(404);
  });
});
