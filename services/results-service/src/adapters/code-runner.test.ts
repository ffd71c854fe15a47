import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RunRequestSchema, type RunReport } from '@exam/domain/coding';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHttpCodeRunner, UNREACHABLE_REASON } from './code-runner.ts';

const report = (runId: string, state: RunReport['state']): RunReport => ({
  runId,
  state,
  verdicts:
    state === 'done'
      ? [
          {
            testId: 'small',
            name: 'Small',
            visible: true,
            outcome: 'passed',
            points: 1,
            maxPoints: 1,
            timeMs: 12,
            exitCode: 0,
            stdin: '1 2',
            expected: '3',
            actual: '3',
            stderr: '',
          },
        ]
      : [],
  points: state === 'done' ? 1 : 0,
  maxPoints: 1,
  queuedAt: '2031-01-01T00:00:00.000Z',
  finishedAt: state === 'done' ? '2031-01-01T00:00:01.000Z' : null,
});

const request = RunRequestSchema.parse({
  purpose: 'check',
  language: 'python',
  code: 'print(sum(map(int, input().split())))',
  tests: [{ id: 'small', stdin: '1 2', expected: '3', visible: true }],
  limits: { cpuSeconds: 2, memoryMb: 256 },
  attemptId: 'attempt-1',
  examId: 'exam-1',
  questionIndex: 1,
});

/** workspace-orchestrator's runner API as the agreed contract has it: /internal/runs, /:id?waitMs=, /lookup. */
function orchestrator() {
  const seen: { method: string; url: string; token: string | undefined; body: unknown }[] = [];
  const state = { refuse: undefined as undefined | { body: unknown } };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (part: Buffer) => (text += part.toString()));
    req.on('end', () => {
      const body = text ? JSON.parse(text) : undefined;
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        token: req.headers['x-internal-token'] as string,
        body,
      });
      const json = (status: number, payload: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
      if (req.headers['x-internal-token'] !== TEST_SECRETS.INTERNAL_TOKEN)
        return json(401, { error: { code: 'UNAUTHENTICATED', message: 'Bad internal token' } });
      const url = new URL(req.url ?? '/', 'http://orchestrator');
      if (req.method === 'POST' && url.pathname === '/internal/runs') {
        if (state.refuse) return json(503, state.refuse.body);
        return json(202, report('run-1', 'queued'));
      }
      if (req.method === 'POST' && url.pathname === '/internal/runs/lookup') {
        const ids = (body as { ids: string[] }).ids;
        return json(200, { runs: ids.filter((id) => id !== 'unknown').map((id) => report(id, 'done')) });
      }
      const run = /^\/internal\/runs\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && run) {
        if (run[1] === 'unknown') return json(404, { error: { code: 'NOT_FOUND', message: 'Run not found' } });
        if (run[1] === 'garbled') return json(200, { runId: 'garbled' });
        return json(200, report(decodeURIComponent(run[1]!), 'done'));
      }
      json(404, { error: { code: 'NOT_FOUND', message: 'Not found' } });
    });
  });
  return { server, seen, state };
}

describe('code runner adapter over HTTP', () => {
  const { server, seen, state } = orchestrator();
  let runner: ReturnType<typeof createHttpCodeRunner>;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    runner = createHttpCodeRunner(`http://127.0.0.1:${port}`, TEST_SECRETS.INTERNAL_TOKEN, { timeoutMs: 2000 });
  });
  afterAll(async () => {
    runner.close();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    seen.length = 0;
    state.refuse = undefined;
  });

  it('enqueues a run with the internal token and the run request as the body', async () => {
    const answer = await runner.enqueue(request);
    expect(answer).toEqual({ ok: true, report: report('run-1', 'queued') });
    expect(seen).toEqual([
      { method: 'POST', url: '/internal/runs', token: TEST_SECRETS.INTERNAL_TOKEN, body: request },
    ]);
  });

  it("answers unavailable with the orchestrator's reason on 503 RUNNER_UNAVAILABLE, in either error body", async () => {
    state.refuse = {
      body: { code: 'RUNNER_UNAVAILABLE', message: 'No Docker engine: connect ENOENT /var/run/docker.sock' },
    };
    expect(await runner.enqueue(request)).toEqual({
      ok: false,
      reason: 'No Docker engine: connect ENOENT /var/run/docker.sock',
    });
    state.refuse = { body: { error: { code: 'RUNNER_UNAVAILABLE', message: 'The runner image is not built' } } };
    expect(await runner.enqueue(request)).toEqual({ ok: false, reason: 'The runner image is not built' });
  });

  it('answers unavailable when the orchestrator cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const offline = createHttpCodeRunner(`http://127.0.0.1:${port}`, TEST_SECRETS.INTERNAL_TOKEN, { timeoutMs: 500 });
    try {
      expect(await offline.enqueue(request)).toEqual({ ok: false, reason: UNREACHABLE_REASON });
      await expect(offline.lookup(['run-1'])).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    } finally {
      offline.close();
    }
  });

  it('reads a run with the wait as a query parameter, and undefined for a run the runner does not know', async () => {
    expect(await runner.get('run-7', 20_000)).toEqual(report('run-7', 'done'));
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/internal/runs/run-7?waitMs=20000' });
    expect(await runner.get('unknown', 0)).toBeUndefined();
    await expect(runner.get('garbled', 0)).rejects.toMatchObject({ code: 'UPSTREAM' });
  });

  it('looks up several runs in one call, leaving out unknown ones', async () => {
    const runs = await runner.lookup(['run-1', 'unknown', 'run-2']);
    expect(runs.map((r) => r.runId)).toEqual(['run-1', 'run-2']);
    expect(seen).toEqual([
      {
        method: 'POST',
        url: '/internal/runs/lookup',
        token: TEST_SECRETS.INTERNAL_TOKEN,
        body: { ids: ['run-1', 'unknown', 'run-2'] },
      },
    ]);
    expect(await runner.lookup([])).toEqual([]);
  });
});
