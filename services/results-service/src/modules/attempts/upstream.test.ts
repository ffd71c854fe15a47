import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InternalExam } from '@exam/domain/internal';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpExamSource } from '../../adapters/exam-source.ts';
import { createHttpWorkspaceFiles } from '../../adapters/workspace-files.ts';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { fakeWorkspaceFiles } from '../../testing/fakes.ts';

const FILES = {
  'main.py': {
    content: 'print(1)',
    lastModified: '2030-01-01T00:00:00Z',
    size: 8,
    type: 'text/x-python',
    isBinary: false,
    truncated: false,
  },
  'node_modules/': {
    content: '',
    lastModified: '1970-01-01T00:00:00.000Z',
    size: 2100,
    type: 'folder',
    isBinary: false,
    truncated: false,
    omitted: { reason: 'dependency-folder', files: 2100 },
  },
};

/** The orchestrator's answer as JSON text: a file named `__proto__` is an ordinary key there. */
const FILES_JSON = JSON.stringify({ files: FILES }).replace(
  /^\{"files":\{/,
  '{"files":{"__proto__":{"content":"proto","lastModified":"2030-01-01T00:00:00Z","size":5,"type":"text/plain"},',
);

/** A tiny stand-in for exam-service and workspace-orchestrator that speaks their internal contracts. */
function upstream(exams: Map<string, InternalExam>) {
  const seen: { method: string; url: string; token: string | undefined; body: string }[] = [];
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      token: req.headers['x-internal-token'] as string | undefined,
      body,
    });
    if (req.headers['x-internal-token'] !== TEST_SECRETS.INTERNAL_TOKEN) return res.writeHead(401).end();
    const examMatch = /^\/internal\/exams\/([^/]+)$/.exec(req.url ?? '');
    const exam = examMatch ? exams.get(decodeURIComponent(examMatch[1]!)) : undefined;
    if (req.method === 'GET' && exam)
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(exam));
    if (req.method === 'POST' && /^\/internal\/attempts\/[^/]+\/collect$/.test(req.url ?? '')) {
      return res.writeHead(200, { 'content-type': 'application/json' }).end(FILES_JSON);
    }
    res
      .writeHead(404, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'Exam not found' } }));
  });
  return { server, seen };
}

describe('exam-service and workspace-orchestrator over HTTP', () => {
  const exams = new Map<string, InternalExam>();
  const { server, seen } = upstream(exams);
  let app: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    app = await buildTestApp({
      deps: {
        examSource: createHttpExamSource(baseUrl, TEST_SECRETS.INTERNAL_TOKEN),
        workspaceFiles: createHttpWorkspaceFiles(baseUrl, TEST_SECRETS.INTERNAL_TOKEN),
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('starts an attempt from the exam that exam-service returns, sending the internal token', async () => {
    const exam = makeExam();
    exams.set(exam.id, exam);
    const attempt = await startAttempt(app, exam.id);
    expect(attempt.attemptId).toBeTruthy();
    expect(seen.at(-1)).toEqual({
      method: 'GET',
      url: `/internal/exams/${exam.id}`,
      token: TEST_SECRETS.INTERNAL_TOKEN,
      body: '',
    });
  });

  it('answers 404 when exam-service does not know the exam', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/attempts',
      payload: { examId: 'missing-exam', name: 'A', studentId: 'B' },
    });
    expect(response.statusCode).toBe(404);
  });

  it('answers 503 when exam-service is unreachable', async () => {
    const source = createHttpExamSource('http://127.0.0.1:9', TEST_SECRETS.INTERNAL_TOKEN, { timeoutMs: 500 });
    await expect(source.findExam('x')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });

  it('stores the workspace files collected at submit when the exam saves them', async () => {
    const exam = makeExam({
      codingWorkspace: {
        enabled: true,
        saveFilesInResults: true,
        workspaceType: 'vscode',
        allowPackageRegistries: false,
      },
    });
    exams.set(exam.id, exam);
    const attempt = await startAttempt(app, exam.id);
    const { resultId } = (
      await app.inject({ method: 'POST', url: `/api/attempts/${attempt.attemptId}/submit`, headers: attempt.headers })
    ).json();
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: `/internal/attempts/${attempt.attemptId}/collect` });
    const response = await app.inject({
      method: 'GET',
      url: `/api/results/${resultId}`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    const detail = response.json();
    expect(Object.keys(detail.workspace_files).sort()).toEqual(['__proto__', 'main.py', 'node_modules/']);
    expect(Object.getOwnPropertyDescriptor(detail.workspace_files, '__proto__')?.value).toMatchObject({
      content: 'proto',
      size: 5,
    });
    expect(detail.workspace_files['main.py']).toEqual(FILES['main.py']);
    expect(detail.workspace_files['node_modules/']).toEqual(FILES['node_modules/']);
  });

  it("asks for the questions' workspace files to be collected before any other file", async () => {
    const base = makeExam();
    const exam = makeExam({
      codingWorkspace: {
        enabled: true,
        saveFilesInResults: true,
        workspaceType: 'vscode',
        allowPackageRegistries: false,
      },
      questions: [{ ...base.questions[0]!, workspaceFile: 'q1/solution.py' }],
    });
    exams.set(exam.id, exam);
    const attempt = await startAttempt(app, exam.id);
    await app.inject({ method: 'POST', url: `/api/attempts/${attempt.attemptId}/submit`, headers: attempt.headers });
    const collect = seen.findLast((s) => s.url === `/internal/attempts/${attempt.attemptId}/collect`);
    expect(JSON.parse(collect!.body)).toEqual({ priorityFiles: ['q1/solution.py'] });
  });
});

describe('workspace files at submit', () => {
  it('submits with no files when the orchestrator fails, and never asks when no file is kept or graded', async () => {
    const failing = fakeWorkspaceFiles(new Error('orchestrator down'));
    const app = await buildTestApp({ deps: { workspaceFiles: failing } });
    try {
      const saving = app.exams.put(
        makeExam({
          codingWorkspace: {
            enabled: true,
            saveFilesInResults: true,
            workspaceType: 'vscode',
            allowPackageRegistries: false,
          },
        }),
      );
      const notSaving = app.exams.put(
        makeExam({
          codingWorkspace: {
            enabled: true,
            saveFilesInResults: false,
            workspaceType: 'vscode',
            allowPackageRegistries: false,
          },
          // A coding question's workspace file is its answer, so only an exam without one never asks.
          questions: makeExam().questions.filter((q) => q.type !== 'coding'),
        }),
      );
      const first = await startAttempt(app, saving.id);
      const second = await startAttempt(app, notSaving.id);
      const submitted = await app.inject({
        method: 'POST',
        url: `/api/attempts/${first.attemptId}/submit`,
        headers: first.headers,
      });
      expect(submitted.statusCode).toBe(200);
      await app.inject({ method: 'POST', url: `/api/attempts/${second.attemptId}/submit`, headers: second.headers });
      expect(failing.calls).toEqual([first.attemptId]);
      const detail = (
        await app.inject({
          method: 'GET',
          url: `/api/results/${submitted.json().resultId}`,
          headers: creatorHeaders(app, saving.ownerId),
        })
      ).json();
      expect(detail.workspace_files).toEqual({});
    } finally {
      await app.close();
    }
  });
});
