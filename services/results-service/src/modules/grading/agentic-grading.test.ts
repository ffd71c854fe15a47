import { RunReportSchema } from '@exam/domain/coding';
import type { WorkspaceFile } from '@exam/domain/internal';
import type { InternalExam } from '@exam/domain/internal';
import { CandidateResultSchema, ResultDetailSchema } from '@exam/domain/result';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testGradings } from '../../db/schema.ts';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { makeCodingExam } from '../../testing/exams.ts';
import { fakeClock, fakeWorkspaceFiles } from '../../testing/fakes.ts';
import { sitExam } from '../../testing/sitting.ts';

const HIDDEN_DRIVER = 'HIDDEN-DRIVER-CANARY: from calc import add';
const HIDDEN_FIXTURE = 'HIDDEN-FIXTURE-CANARY';

const file = (content: string, extra: Partial<WorkspaceFile> = {}): WorkspaceFile => ({
  content,
  lastModified: '2042-02-01T09:00:00Z',
  size: content.length,
  type: 'text/plain',
  isBinary: false,
  truncated: false,
  ...extra,
});

/** An exam whose coding question is an agentic task: the hidden main.py drives the candidate's calc.py. */
function agenticExam(workspace: boolean, questions = 1): InternalExam {
  const base = makeCodingExam({
    releasePolicy: 'immediately',
    codingWorkspace: { enabled: workspace, saveFilesInResults: false },
  });
  const coding = base.questions[1]!;
  const task = (id: string) => ({
    ...coding,
    id,
    repository: {
      files: [
        { path: 'calc.py', content: 'def add(a, b):\n    raise NotImplementedError\n' },
        { path: 'fixtures/cases.txt', content: 'starter fixture' },
      ],
      hiddenFiles: [
        { path: 'main.py', content: HIDDEN_DRIVER },
        { path: 'fixtures/cases.txt', content: HIDDEN_FIXTURE },
      ],
    },
  });
  return {
    ...base,
    questions: [base.questions[0]!, ...Array.from({ length: questions }, (_, i) => task(`task${i + 1}`))],
  };
}

describe('grading an agentic task from the collected workspace', () => {
  const clock = fakeClock(new Date('2042-02-01T09:00:00Z'));
  const apps: TestApp[] = [];
  async function appWith(files: Record<string, WorkspaceFile>) {
    const workspaceFiles = fakeWorkspaceFiles(files);
    const app = await buildTestApp({ deps: { clock, workspaceFiles } });
    apps.push(app);
    return { app, workspaceFiles };
  }
  afterAll(async () => {
    for (const app of apps) await app.close();
  });
  const drain = async (app: TestApp) => {
    for (let i = 0; i < 10 && (await app.gradeTests()) > 0; i++);
  };

  let app: TestApp;
  beforeAll(async () => {
    // The candidate solved the small case in calc.py, wrote a main.py that claims everything passes, replaced the
    // fixture and left a binary file: the hidden driver and fixture win, the binary stays out.
    ({ app } = await appWith({
      'calc.py': file('def add(a, b):\n    return a + b  # pass small'),
      'main.py': file('pass all'),
      'fixtures/cases.txt': file('pass all'),
      'notes/diagram.png': file('', { isBinary: true, size: 2048 }),
    }));
  });

  it('runs the hidden tests on the workspace files with the hidden files over them', async () => {
    const exam = app.exams.put(agenticExam(true));
    const before = app.runner.requests.length;
    const { resultId, attempt } = await sitExam(app, exam.id, { 0: 'a', 1: 'pass all' });
    const [row] = await app.db.select().from(testGradings).where(eq(testGradings.resultId, resultId));
    // The outbox keeps the candidate's files only: the hidden ones are added when the run starts.
    expect(row!.files?.map((f) => f.path)).toEqual(['calc.py', 'fixtures/cases.txt', 'main.py']);
    expect(JSON.stringify(row!.files)).not.toContain('HIDDEN');

    await drain(app);
    const sent = app.runner.requests.slice(before).filter((r) => r.attemptId === attempt.attemptId);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ purpose: 'grade', code: HIDDEN_DRIVER, questionIndex: 1 });
    expect(sent[0]!.tests.map((t) => t.id)).toEqual(['small', 'large', 'secret']);
    expect(sent[0]!.files).toEqual([
      { path: 'fixtures/cases.txt', content: HIDDEN_FIXTURE },
      { path: 'calc.py', content: 'def add(a, b):\n    return a + b  # pass small' },
    ]);

    const detail = ResultDetailSchema.parse(
      (
        await app.inject({ method: 'GET', url: `/api/results/${resultId}`, headers: creatorHeaders(app, exam.ownerId) })
      ).json(),
    );
    // Only what calc.py earns: the candidate's "pass all" in main.py and the fixture were replaced.
    expect(detail.questionAnswers[1]).toMatchObject({ points: 1, maxPoints: 6, tests: { state: 'done' } });
    const shown = await app.inject({
      method: 'GET',
      url: `/api/attempts/${attempt.attemptId}/result`,
      headers: attempt.headers,
    });
    CandidateResultSchema.parse(shown.json());
    expect(shown.body).not.toContain('HIDDEN-');
  });

  it("runs the visible tests on the workspace's files as they are, without the hidden files", async () => {
    const exam = app.exams.put(agenticExam(true));
    const attempt = await startAttempt(app, exam.id);
    const response = await app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/questions/1/test-runs`,
      headers: attempt.headers,
      payload: { code: '' },
    });
    expect(response.statusCode).toBe(200);
    RunReportSchema.parse(response.json());
    const sent = app.runner.requests.at(-1)!;
    expect(sent).toMatchObject({ purpose: 'check', code: 'pass all' });
    expect(sent.files?.map((f) => f.path)).toEqual(['calc.py', 'fixtures/cases.txt']);
    expect(JSON.stringify(sent)).not.toContain('HIDDEN');
    expect(sent.tests.every((t) => t.visible)).toBe(true);
  });

  it('reads each task from its own q<N>/ folder when several questions have a repository', async () => {
    const { app: several } = await appWith({
      'q2/calc.py': file('pass small'),
      'q3/calc.py': file('pass large'),
      'calc.py': file('pass all'),
    });
    const exam = several.exams.put(agenticExam(true, 2));
    const before = several.runner.requests.length;
    await sitExam(several, exam.id, { 0: 'a' });
    await drain(several);
    const sent = several.runner.requests.slice(before).sort((a, b) => a.questionIndex! - b.questionIndex!);
    expect(sent.map((r) => [r.questionIndex, r.code, r.files?.find((f) => f.path === 'calc.py')?.content])).toEqual([
      [1, HIDDEN_DRIVER, 'pass small'],
      [2, HIDDEN_DRIVER, 'pass large'],
    ]);
  });

  it('grades the starter files with the hidden files when the exam has no workspace', async () => {
    const { app: plain, workspaceFiles } = await appWith({ 'calc.py': file('pass all') });
    const exam = plain.exams.put(agenticExam(false));
    const before = plain.runner.requests.length;
    await sitExam(plain, exam.id, { 0: 'a', 1: 'print(1)' });
    await drain(plain);
    expect(workspaceFiles.calls).toEqual([]);
    const [sent] = plain.runner.requests.slice(before);
    expect(sent).toMatchObject({ code: HIDDEN_DRIVER });
    expect(sent!.files).toEqual([
      { path: 'fixtures/cases.txt', content: HIDDEN_FIXTURE },
      { path: 'calc.py', content: 'def add(a, b):\n    raise NotImplementedError\n' },
    ]);
  });
});
