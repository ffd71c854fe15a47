import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildInternalExam } from '@exam/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpExamDirectory } from './exam-directory.ts';

/** exam-service and results-service stand-ins: each path answers the status and body the table names. */
const answers = new Map<string, { status: number; body: unknown }>();
const exam = buildInternalExam({
  codingWorkspace: { enabled: true, saveFilesInResults: true, workspaceType: 'vscode', allowPackageRegistries: true },
});
const attempt = (isOpen: boolean) => ({
  attemptId: 'a',
  examId: exam.id,
  ownerId: exam.ownerId,
  startedAt: new Date().toISOString(),
  deadline: null,
  submittedAt: null,
  isOpen,
});

describe('the exam directory over the internal client', () => {
  let server: Server;
  let directory: ReturnType<typeof createHttpExamDirectory>;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const answer = answers.get(req.url ?? '') ?? { status: 404, body: { error: { code: 'NOT_FOUND' } } };
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    directory = createHttpExamDirectory({ examServiceUrl: url, resultsServiceUrl: url, internalToken: 'token' });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("reads an exam's workspace settings, and answers 404 for an exam exam-service does not know", async () => {
    answers.set(`/internal/exams/${exam.id}`, { status: 200, body: exam });
    expect(await directory.workspaceSettings(exam.id)).toEqual(exam.codingWorkspace);
    await expect(directory.workspaceSettings('missing')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('fails as UPSTREAM on an unexpected status or a body off the contract', async () => {
    answers.set('/internal/exams/broken', { status: 500, body: {} });
    answers.set('/internal/exams/odd', { status: 200, body: { id: 'odd' } });
    answers.set('/internal/attempts/broken', { status: 503, body: {} });
    await expect(directory.workspaceSettings('broken')).rejects.toMatchObject({ code: 'UPSTREAM' });
    await expect(directory.workspaceSettings('odd')).rejects.toMatchObject({ code: 'UPSTREAM' });
    await expect(directory.isAttemptOpen('broken')).rejects.toMatchObject({ code: 'UPSTREAM' });
  });

  it('tells an open attempt from a closed one, and takes an unknown attempt as closed', async () => {
    answers.set('/internal/attempts/open', { status: 200, body: attempt(true) });
    answers.set('/internal/attempts/closed', { status: 200, body: attempt(false) });
    expect(await directory.isAttemptOpen('open')).toBe(true);
    expect(await directory.isAttemptOpen('closed')).toBe(false);
    expect(await directory.isAttemptOpen('unknown')).toBe(false);
  });

  it('fails as UNAVAILABLE when the other service cannot be reached', async () => {
    const away = createHttpExamDirectory({
      examServiceUrl: 'http://127.0.0.1:1',
      resultsServiceUrl: 'http://127.0.0.1:1',
      internalToken: 'token',
    });
    await expect(away.workspaceSettings('x')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    await expect(away.isAttemptOpen('x')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });
});
