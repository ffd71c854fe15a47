import { AppError, ErrorCode } from '@exam/domain/errors';
import { describe, expect, it } from 'vitest';
import { fakeCodeRunner } from '../../testing/code-runner.ts';
import { runReplyCode } from './run-code.ts';

const check = {
  language: 'python' as const,
  tests: [
    {
      id: 'shown',
      name: 'Small',
      stdin: '1 2',
      args: [],
      expected: '3',
      comparison: 'trimmed' as const,
      tolerance: 1e-6,
      points: 1,
      visible: true,
    },
  ],
  limits: { cpuSeconds: 1, memoryMb: 64 },
  setupScript: '',
};
const opts = (signal = new AbortController().signal) => ({
  maxWaitMs: 300,
  sliceMs: 20,
  examId: 'e1',
  questionIndex: 0,
  signal,
});

describe('running a reply’s code', () => {
  it('passes or fails by the visible tests’ verdicts', async () => {
    const runner = fakeCodeRunner();
    expect(await runReplyCode(runner, check, '# pass all', opts())).toEqual({ kind: 'passed' });
    expect(await runReplyCode(runner, check, 'print(4)', opts())).toEqual({ kind: 'failed' });
  });

  it('gives up on a run that does not finish within the wait, and at once on a cancel', async () => {
    const runner = fakeCodeRunner();
    runner.hold = true;
    expect(await runReplyCode(runner, check, '# pass all', opts())).toEqual({
      kind: 'unavailable',
      reason: 'the run did not finish in time',
    });
    const stop = new AbortController();
    const running = runReplyCode(runner, check, '# pass all', { ...opts(stop.signal), maxWaitMs: 60_000 });
    stop.abort();
    expect(await running).toEqual({ kind: 'unavailable', reason: 'the check was stopped' });
  });

  it('counts a refused, failed or unreachable runner as unavailable', async () => {
    const refusing = fakeCodeRunner();
    refusing.unavailable = 'no code sandbox is available';
    expect(await runReplyCode(refusing, check, '# pass all', opts())).toEqual({
      kind: 'unavailable',
      reason: 'no code sandbox is available',
    });
    const erroring = fakeCodeRunner();
    erroring.get = async (runId) => ({
      runId,
      state: 'error',
      reason: 'the sandbox crashed',
      verdicts: [],
      points: 0,
      maxPoints: 1,
      queuedAt: new Date().toISOString(),
      finishedAt: null,
    });
    erroring.hold = true;
    expect(await runReplyCode(erroring, check, '# pass all', opts())).toEqual({
      kind: 'unavailable',
      reason: 'the sandbox crashed',
    });
    const down = fakeCodeRunner();
    down.enqueue = async () => {
      throw new AppError(ErrorCode.UNAVAILABLE, 'workspace-orchestrator did not answer');
    };
    expect(await runReplyCode(down, check, '# pass all', opts())).toMatchObject({ kind: 'unavailable' });
  });
});
