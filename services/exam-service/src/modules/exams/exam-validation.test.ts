import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, createExam, examBody, type TestApp } from '../../testing/app.ts';

const mcq = (overrides: Record<string, unknown>) => ({
  id: 'm1',
  type: 'mcq',
  title: 'Pick one',
  options: ['A', 'B'],
  correctAnswer: 'A',
  ...overrides,
});

/** [case, body, the path the 400 must name] */
const badBodies: [string, Record<string, unknown>, string][] = [
  ['a title of the wrong type', { title: 42 }, 'title'],
  ['a title that is too long', { title: 'x'.repeat(301) }, 'title'],
  ['timerMinutes 0', { timerMinutes: 0 }, 'timerMinutes'],
  ['a fractional timer', { timerMinutes: 1.5 }, 'timerMinutes'],
  ['an unknown question type', { questions: [mcq({ type: 'hotspot' })] }, 'questions.0.type'],
  [
    'an MCQ whose correct answer is not an option',
    { questions: [mcq({ correctAnswer: 'C' })] },
    'questions.0.correctAnswer',
  ],
  ['an unknown provider', { aiSettings: { provider: 'skynet' } }, 'aiSettings.provider'],
  ['an unknown workspace type', { codingWorkspace: { workspaceType: 'notepad' } }, 'codingWorkspace.workspaceType'],
  ['an assistance level above 10', { aiSettings: { courseAssistanceLevel: 11 } }, 'aiSettings.courseAssistanceLevel'],
  ['isLive of the wrong type', { isLive: 'yes' }, 'isLive'],
  ['a question worth 0 points', { questions: [mcq({ points: 0 })] }, 'questions.0.points'],
  ['points with three decimals', { questions: [mcq({ points: 1.005 })] }, 'questions.0.points'],
  [
    'a multiple-answer key that is not an option',
    { questions: [mcq({ multipleAnswers: true, correctAnswers: ['A', 'Z'] })] },
    'questions.0.correctAnswers.1',
  ],
  [
    'a rubric worth more than its question',
    {
      questions: [{ id: 'f1', type: 'file-upload', title: 'Report', points: 2, rubricId: 'r1' }],
      rubrics: [{ id: 'r1', title: 'Report', criteria: [{ id: 'c1', description: 'All of it', points: 3 }] }],
    },
    'questions.0.rubricId',
  ],
  ['an unknown release policy', { releasePolicy: 'sometimes' }, 'releasePolicy'],
  ['two questions with one id', { questions: [mcq({ id: 'same' }), mcq({ id: 'same' })] }, 'questions.1.id'],
  [
    'a course material that does not exist',
    { aiSettings: { courseMaterialIds: ['no-such-material'] } },
    'aiSettings.courseMaterialIds',
  ],
  [
    'a window that closes before it opens',
    { opensAt: '2026-12-02T09:00:00Z', closesAt: '2026-12-01T09:00:00Z' },
    'closesAt',
  ],
  ['an opening time without a time zone', { opensAt: '2026-12-02T09:00' }, 'opensAt'],
  ['no attempts allowed', { attemptsAllowed: 0 }, 'attemptsAllowed'],
  ['an unknown grade to keep', { keepGrade: 'average' }, 'keepGrade'],
  ['an unknown access mode', { access: 'password' }, 'access'],
  ['an unknown question display', { questionDisplay: 'two-at-a-time' }, 'questionDisplay'],
  ['an access code of two characters', { accessCode: 'ab' }, 'accessCode'],
  ['a 4-digit access code, which guessing finds in a minute', { accessCode: '4821' }, 'accessCode'],
  ['an access code of five characters', { accessCode: 'k7q2m' }, 'accessCode'],
  [
    'a pool drawing more questions than it holds',
    { pools: [{ id: 'p1', draw: 2 }], questions: [mcq({ poolId: 'p1' })] },
    'pools.0.draw',
  ],
  ['a question of an unknown pool', { questions: [mcq({ poolId: 'nope' })] }, 'questions.0.poolId'],
];

// isLive is not part of a new exam (it always starts offline), so the create body ignores it.
const badNewExams = badBodies.filter(([, body]) => !('isLive' in body));

describe('exam validation', () => {
  let app: TestApp;
  let owner: Awaited<ReturnType<typeof createCreator>>;
  beforeAll(async () => {
    app = await buildTestApp();
    owner = await createCreator(app);
  });
  afterAll(() => app.close());

  it.each(badBodies)(
    'answers 400 naming the field and changes nothing when an update has %s',
    async (_case, body, path) => {
      const exam = await createExam(app, owner.headers);
      const response = await app.inject({
        method: 'PUT',
        url: `/api/exams/${exam.id}`,
        headers: owner.headers,
        payload: body,
      });
      expect(response.statusCode).toBe(400);
      const error = response.json().error;
      expect(error.code).toBe('VALIDATION');
      expect(error.issues.map((i: { path: string }) => i.path)).toContain(path);
      const stored = await app.inject({ method: 'GET', url: `/api/exams/${exam.id}`, headers: owner.headers });
      expect(stored.json()).toEqual(exam);
    },
  );

  it.each(badNewExams)(
    'answers 400 naming the field and stores nothing when a new exam has %s',
    async (_case, body, path) => {
      const creator = await createCreator(app);
      const response = await app.inject({
        method: 'POST',
        url: '/api/exams',
        headers: creator.headers,
        payload: examBody(body),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.issues.map((i: { path: string }) => i.path)).toContain(path);
      expect(
        (await app.inject({ method: 'GET', url: '/api/exams/auth_exams', headers: creator.headers })).json().exams,
      ).toEqual([]);
    },
  );

  it('ignores isLive on a new exam, which starts offline', async () => {
    const exam = await createExam(app, owner.headers, { isDraft: false, isLive: true });
    expect(exam).toMatchObject({ isDraft: false, isLive: false });
  });

  it('answers 400 for a body that is not JSON', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/exams',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      payload: '{"title":',
    });
    expect(response.statusCode).toBe(400);
  });
});
