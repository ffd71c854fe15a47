import type { RunReport, RunRequest } from '@exam/domain/coding';
import type { CodeRunner } from '@exam/server-kit/code-runner-client';

/**
 * workspace-orchestrator's runner in memory. A run passes a test when its code contains `pass all` or
 * `pass <testId>`; `unavailable` refuses every run with that reason, and `hold` leaves runs queued.
 */
type Fake = CodeRunner & { requests: RunRequest[]; unavailable: string | undefined; hold: boolean };

export function fakeCodeRunner(): Fake {
  const reports = new Map<string, RunReport>();
  const runner: Fake = {
    requests: [],
    unavailable: undefined,
    hold: false,
    async enqueue(request: RunRequest) {
      runner.requests.push(request);
      if (runner.unavailable !== undefined) return { ok: false, reason: runner.unavailable };
      const runId = `run-${runner.requests.length}`;
      const verdicts = request.tests.map((t) => {
        const passed = request.code.includes('pass all') || request.code.includes(`pass ${t.id}`);
        return {
          testId: t.id,
          name: t.name,
          visible: t.visible,
          outcome: passed ? ('passed' as const) : ('failed' as const),
          points: passed ? t.points : 0,
          maxPoints: t.points,
          timeMs: 3,
          exitCode: 0,
        };
      });
      const maxPoints = request.tests.reduce((s, t) => s + t.points, 0);
      const report: RunReport = runner.hold
        ? {
            runId,
            state: 'queued',
            verdicts: [],
            points: 0,
            maxPoints,
            queuedAt: new Date().toISOString(),
            finishedAt: null,
          }
        : {
            runId,
            state: 'done',
            verdicts,
            points: verdicts.reduce((s, v) => s + v.points, 0),
            maxPoints,
            queuedAt: new Date().toISOString(),
            finishedAt: new Date().toISOString(),
          };
      reports.set(runId, report);
      return { ok: true, report };
    },
    async get(runId: string, waitMs: number) {
      // A held read of a queued run waits, as the orchestrator's would.
      if (reports.get(runId)?.state === 'queued') await new Promise((r) => setTimeout(r, Math.min(waitMs, 50)));
      return reports.get(runId);
    },
    async lookup(ids: string[]) {
      return ids.flatMap((id) => reports.get(id) ?? []);
    },
  };
  return runner;
}
export type FakeCodeRunner = ReturnType<typeof fakeCodeRunner>;
