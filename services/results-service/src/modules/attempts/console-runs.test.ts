import { ConsoleRunSchema, CheckRunSchema, RunnerMessages } from '@exam/domain/coding';
import type { ResultDetail } from '@exam/domain/result';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { results, testGradings } from '../../db/schema.ts';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { HIDDEN, makeCodingExam, makeExam } from '../../testing/exams.ts';
import { fakeClock, fakeWorkspaceFiles } from '../../testing/fakes.ts';

const file = (content: string) => ({
  content,
  lastModified: '2031-03-01T09:00:00Z',
  size: content.length,
  type: 'text/x-python',
  isBinary: false,
  truncated: false,
});

describe("the candidate's console (Run with custom input)", () => {
  const clock = fakeClock(new Date('2031-03-01T09:00:00Z'));
  const workspace = fakeWorkspaceFiles({ 'q2-sum-two-numbers/main.py': file('echo from the workspace') });
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { clock, workspaceFiles: workspace }, env: { TEST_RUNS_PER_MINUTE: '3' } });
  });
  afterAll(() => app.close());

  const consoleRun = (
    attempt: { attemptId: string; headers: Record<string, string> },
    index: number,
    payload: Record<string, unknown>,
  ) =>
    app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/questions/${index}/console-runs`,
      headers: attempt.headers,
      payload,
    });

  it('runs the code on the custom input in the sandbox and answers its output, exit code and time, no test involved', async () => {
    const attempt = await startAttempt(app, app.exams.put(makeCodingExam()).id);
    const before = app.runner.requests.length;
    const response = await consoleRun(attempt, 1, { code: 'echo', stdin: '41 1\n' });
    expect(response.statusCode, response.body).toBe(200);
    const run = ConsoleRunSchema.parse(response.json());
    expect(run).toMatchObject({ state: 'done', outcome: 'ok', stdout: '41 1\n', stderr: '', exitCode: 0, timeMs: 5 });
    expect(run.answer).toMatchObject({ from: 'inline', code: 'echo', workspaceUnreachable: false, language: 'python' });
    const sent = app.runner.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ purpose: 'check', language: 'python', code: 'echo', questionIndex: 1 });
    expect(sent[0]!.limits).toEqual({ cpuSeconds: 2, memoryMb: 256 });
    expect(sent[0]!.tests).toEqual([expect.objectContaining({ id: 'console', stdin: '41 1\n', expected: '' })]);
    expect(JSON.stringify(sent[0])).not.toContain(HIDDEN);
    expect(response.body).not.toContain(HIDDEN);

    const again = await app.inject({
      method: 'GET',
      url: `/api/attempts/${attempt.attemptId}/console-runs/${run.runId}?waitMs=0`,
      headers: attempt.headers,
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ stdout: '41 1\n', exitCode: 0 });
  });

  it("answers 404 for another attempt's console run and for another attempt's question", async () => {
    const exam = app.exams.put(makeCodingExam());
    const mine = await startAttempt(app, exam.id);
    const theirs = await startAttempt(app, exam.id);
    const { runId } = (await consoleRun(theirs, 1, { code: 'echo', stdin: 'x' })).json();
    const read = await app.inject({
      method: 'GET',
      url: `/api/attempts/${mine.attemptId}/console-runs/${runId}`,
      headers: mine.headers,
    });
    expect(read.statusCode).toBe(404);
    const foreign = await app.inject({
      method: 'POST',
      url: `/api/attempts/${theirs.attemptId}/questions/1/console-runs`,
      headers: mine.headers,
      payload: { code: 'echo', stdin: 'x' },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('answers 400 naming the field for input past 64 KB, a question that is not coding, or a language not allowed; a console without tests', async () => {
    const attempt = await startAttempt(app, app.exams.put(makeCodingExam()).id);
    const big = await consoleRun(attempt, 1, { code: 'echo', stdin: 'x'.repeat(64 * 1024 + 1) });
    expect(big.statusCode).toBe(400);
    expect(JSON.stringify(big.json().error.issues)).toContain('stdin');
    expect((await consoleRun(attempt, 0, { code: 'echo' })).statusCode).toBe(400);
    const language = await consoleRun(attempt, 1, { code: 'echo', language: 'javascript' });
    expect(language.statusCode).toBe(400);
    expect(language.json().error.issues).toEqual([expect.objectContaining({ path: 'language' })]);
    // A coding question a grader marks has no tests, and still a console.
    const plain = await startAttempt(app, app.exams.put(makeExam()).id);
    expect((await consoleRun(plain, 3, { code: 'echo', stdin: 'ok' })).json()).toMatchObject({ stdout: 'ok' });
  });

  it('answers 429 with Retry-After past the runs allowed per minute, counted apart from Run tests', async () => {
    const attempt = await startAttempt(app, app.exams.put(makeCodingExam()).id);
    for (let i = 0; i < 3; i++) expect((await consoleRun(attempt, 1, { code: 'echo' })).statusCode).toBe(200);
    const limited = await consoleRun(attempt, 1, { code: 'echo' });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const tests = await app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/questions/1/test-runs`,
      headers: attempt.headers,
      payload: { code: 'pass all' },
    });
    expect(tests.statusCode).toBe(200);
    clock.advance(60_000);
  });

  it('answers 503 with words a candidate can act on when no sandbox can run the code', async () => {
    const attempt = await startAttempt(app, app.exams.put(makeCodingExam()).id);
    app.runner.unavailable = 'runner image exam/runner-python is not built';
    try {
      const response = await consoleRun(attempt, 1, { code: 'echo' });
      expect(response.statusCode).toBe(503);
      expect(response.json().error.message).toBe(RunnerMessages.unavailable);
    } finally {
      app.runner.unavailable = undefined;
    }
  });

  it("runs the question's workspace file with the workspace on, and says so, so the page saves it as the answer", async () => {
    const exam = app.exams.put(makeCodingExam({ codingWorkspace: { enabled: true, saveFilesInResults: false } }));
    const attempt = await startAttempt(app, exam.id);
    const view = await app.inject({ url: `/api/attempts/${attempt.attemptId}/exam`, headers: attempt.headers });
    expect(view.json().questions[1].workspaceFile).toBe('q2-sum-two-numbers/main.py');
    const response = await consoleRun(attempt, 1, { code: 'echo inline', stdin: 'hi' });
    expect(response.json()).toMatchObject({
      stdout: 'hi',
      answer: {
        from: 'workspace',
        code: 'echo from the workspace',
        workspaceFile: 'q2-sum-two-numbers/main.py',
        workspaceUnreachable: false,
      },
    });
    expect(app.runner.requests.at(-1)!.code).toBe('echo from the workspace');
    const tests = await app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/questions/1/test-runs`,
      headers: attempt.headers,
      payload: { code: 'pass all' },
    });
    expect(CheckRunSchema.parse(tests.json()).answer).toMatchObject({
      from: 'workspace',
      code: 'echo from the workspace',
    });
    clock.advance(60_000);
  });

  it('runs the saved answer and says the workspace was unreachable when the collect fails', async () => {
    const down = await buildTestApp({
      deps: {
        clock,
        workspaceFiles: {
          collect: async () => {
            throw new Error('connect ECONNREFUSED');
          },
        },
      },
    });
    try {
      const exam = down.exams.put(makeCodingExam({ codingWorkspace: { enabled: true, saveFilesInResults: false } }));
      const attempt = await startAttempt(down, exam.id);
      const response = await down.inject({
        method: 'POST',
        url: `/api/attempts/${attempt.attemptId}/questions/1/console-runs`,
        headers: attempt.headers,
        payload: { code: 'echo saved', stdin: 'in' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().answer).toMatchObject({ from: 'inline', code: 'echo saved', workspaceUnreachable: true });
    } finally {
      await down.close();
    }
  });
});

describe('a coding question answered in the workspace, at submission', () => {
  it('is graded on the workspace file, and keeps the last saved answer when the workspace did not return it', async () => {
    const clock = fakeClock(new Date('2031-03-02T09:00:00Z'));
    const files: Record<string, ReturnType<typeof file>> = { 'q2-sum-two-numbers/main.py': file('pass small') };
    const workspace = fakeWorkspaceFiles(files);
    const app = await buildTestApp({ deps: { clock, workspaceFiles: workspace } });
    try {
      const exam = app.exams.put(makeCodingExam({ codingWorkspace: { enabled: true, saveFilesInResults: false } }));
      const attempt = await startAttempt(app, exam.id);
      const submitted = await app.inject({
        method: 'POST',
        url: `/api/attempts/${attempt.attemptId}/submit`,
        headers: attempt.headers,
      });
      expect(submitted.statusCode, submitted.body).toBe(200);
      const [row] = await app.db.select().from(results).where(eq(results.attemptId, attempt.attemptId));
      expect(row?.grades[1]?.answer).toBe('pass small');
      const [outbox] = await app.db.select().from(testGradings).where(eq(testGradings.attemptId, attempt.attemptId));
      expect(outbox?.code).toBe('pass small');

      // Another attempt whose workspace did not return the file is graded on its last saved answer.
      delete files['q2-sum-two-numbers/main.py'];
      const other = await startAttempt(app, exam.id);
      await app.inject({
        method: 'PUT',
        url: `/api/attempts/${other.attemptId}/answers/1`,
        headers: other.headers,
        payload: { answer: 'pass all', seq: 1 },
      });
      await app.inject({ method: 'POST', url: `/api/attempts/${other.attemptId}/submit`, headers: other.headers });
      const [kept] = await app.db.select().from(results).where(eq(results.attemptId, other.attemptId));
      expect(kept?.grades[1]?.answer).toBe('pass all');
    } finally {
      await app.close();
    }
  });
});

describe("the candidate's choice of language", () => {
  const clock = fakeClock(new Date('2031-03-03T09:00:00Z'));
  const files: Record<string, ReturnType<typeof file>> = {};
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { clock, workspaceFiles: fakeWorkspaceFiles(files) } });
  });
  afterAll(() => app.close());

  const polyglot = (overrides: Record<string, unknown> = {}) => {
    const base = makeCodingExam(overrides);
    return app.exams.put({
      ...base,
      questions: base.questions.map((q) =>
        q.type === 'coding' ? { ...q, languages: ['python', 'javascript'], starterCodes: { javascript: '// js' } } : q,
      ),
    });
  };
  const choose = (attempt: { attemptId: string; headers: Record<string, string> }, index: number, language: string) =>
    app.inject({
      method: 'PUT',
      url: `/api/attempts/${attempt.attemptId}/questions/${index}/language`,
      headers: attempt.headers,
      payload: { language },
    });

  it('is kept with the attempt, read back by the page, and refused (400 naming language) outside the offer', async () => {
    const attempt = await startAttempt(app, polyglot().id);
    const view = await app.inject({ url: `/api/attempts/${attempt.attemptId}/exam`, headers: attempt.headers });
    expect(view.json().questions[1]).toMatchObject({ languages: ['python', 'javascript'] });
    expect((await choose(attempt, 1, 'javascript')).json()).toEqual({ questionIndex: 1, language: 'javascript' });
    const read = await app.inject({ url: `/api/attempts/${attempt.attemptId}/languages`, headers: attempt.headers });
    expect(read.json()).toEqual({ languages: { '1': 'javascript' } });
    const refused = await choose(attempt, 1, 'java');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.issues).toEqual([expect.objectContaining({ path: 'language' })]);
    const single = await startAttempt(app, app.exams.put(makeCodingExam()).id);
    expect((await choose(single, 1, 'javascript')).statusCode).toBe(400);
    const other = await startAttempt(app, polyglot().id);
    expect(
      (
        await app.inject({
          method: 'PUT',
          url: `/api/attempts/${attempt.attemptId}/questions/1/language`,
          headers: other.headers,
          payload: { language: 'python' },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('runs Run tests in the chosen language, and grades the submission in it', async () => {
    const attempt = await startAttempt(app, polyglot().id);
    await choose(attempt, 1, 'javascript');
    const tests = await app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/questions/1/test-runs`,
      headers: attempt.headers,
      payload: { code: 'pass all', language: 'javascript' },
    });
    expect(tests.json().answer).toMatchObject({ language: 'javascript' });
    expect(app.runner.requests.at(-1)).toMatchObject({ purpose: 'check', language: 'javascript' });
    await app.inject({
      method: 'PUT',
      url: `/api/attempts/${attempt.attemptId}/answers/1`,
      headers: attempt.headers,
      payload: { answer: 'pass all', seq: 1 },
    });
    await app.inject({ method: 'POST', url: `/api/attempts/${attempt.attemptId}/submit`, headers: attempt.headers });
    for (let i = 0; i < 10 && (await app.gradeTests()) > 0; i++);
    const graded = app.runner.requests.filter((r) => r.purpose === 'grade' && r.attemptId === attempt.attemptId);
    expect(graded.map((r) => r.language)).toEqual(['javascript']);
  });

  it("reads the chosen language's workspace file with the workspace on", async () => {
    files['q2-sum-two-numbers/main.js'] = file('pass small // js');
    files['q2-sum-two-numbers/main.py'] = file('pass all # py');
    const attempt = await startAttempt(
      app,
      polyglot({ codingWorkspace: { enabled: true, saveFilesInResults: false } }).id,
    );
    await choose(attempt, 1, 'javascript');
    await app.inject({ method: 'POST', url: `/api/attempts/${attempt.attemptId}/submit`, headers: attempt.headers });
    const [row] = await app.db.select().from(results).where(eq(results.attemptId, attempt.attemptId));
    expect(row?.grades[1]?.answer).toBe('pass small // js');
    const [outbox] = await app.db.select().from(testGradings).where(eq(testGradings.attemptId, attempt.attemptId));
    expect(outbox?.code).toBe('pass small // js');
  });

  it("shows the grader the language the candidate answered in (the question's own when they did not choose)", async () => {
    const exam = polyglot();
    const owner = creatorHeaders(app, exam.ownerId);
    const detailOf = async (attemptId: string) => {
      const [row] = await app.db.select().from(results).where(eq(results.attemptId, attemptId));
      const detail = await app.inject({ url: `/api/results/${row!.id}`, headers: owner });
      return detail.json<ResultDetail>().questionAnswers;
    };
    const chose = await startAttempt(app, exam.id);
    await choose(chose, 1, 'python');
    await choose(chose, 1, 'javascript');
    await app.inject({ method: 'POST', url: `/api/attempts/${chose.attemptId}/submit`, headers: chose.headers });
    const answers = await detailOf(chose.attemptId);
    expect(answers.find((a) => a.questionType === 'coding')).toMatchObject({ language: 'javascript' });
    expect(answers.find((a) => a.questionType !== 'coding')).not.toHaveProperty('language');
    const kept = await startAttempt(app, exam.id);
    await app.inject({ method: 'POST', url: `/api/attempts/${kept.attemptId}/submit`, headers: kept.headers });
    expect((await detailOf(kept.attemptId)).find((a) => a.questionType === 'coding')).toMatchObject({
      language: 'python',
    });
  });

  it("re-runs a creator's requested tests in the chosen language on its workspace file, not the primary one's", async () => {
    files['q2-sum-two-numbers/main.js'] = file('pass small // js');
    files['q2-sum-two-numbers/main.py'] = file('pass all # py');
    const exam = polyglot({ codingWorkspace: { enabled: true, saveFilesInResults: true } });
    const attempt = await startAttempt(app, exam.id);
    await choose(attempt, 1, 'javascript');
    await app.inject({ method: 'POST', url: `/api/attempts/${attempt.attemptId}/submit`, headers: attempt.headers });
    const [row] = await app.db.select().from(results).where(eq(results.attemptId, attempt.attemptId));
    // No outbox row left for the question (as for tests added after the submission): the re-run writes it anew
    // from the result's workspace files.
    await app.db.delete(testGradings).where(eq(testGradings.attemptId, attempt.attemptId));
    const rerun = await app.inject({
      method: 'POST',
      url: `/api/results/${row!.id}/questions/1/rerun-tests`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    expect(rerun.statusCode).toBe(200);
    const [outbox] = await app.db.select().from(testGradings).where(eq(testGradings.attemptId, attempt.attemptId));
    expect(outbox?.code).toBe('pass small // js');
    for (let i = 0; i < 10 && (await app.gradeTests()) > 0; i++);
    const graded = app.runner.requests.filter((r) => r.purpose === 'grade' && r.attemptId === attempt.attemptId);
    expect(graded.map((r) => [r.language, r.code])).toEqual([['javascript', 'pass small // js']]);
  });
});
