import { RunReportSchema, RunReportsSchema, type RunReport, type RunRequest } from '@exam/domain/coding';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { createInternalClient, parseUpstream, unexpectedStatus } from './internal-client.ts';

const SERVICE = 'workspace-orchestrator';

/** What the runner said to a new run: its report, or why no sandbox took it. */
export type RunnerAnswer = { ok: true; report: RunReport } | { ok: false; reason: string };

/**
 * workspace-orchestrator's code runner. `enqueue` answers unavailable (with the reason) rather than
 * throwing when there is no sandbox or the orchestrator cannot be reached; the reads throw
 * UNAVAILABLE/UPSTREAM like every internal call.
 */
export type CodeRunner = {
  enqueue(request: RunRequest): Promise<RunnerAnswer>;
  /** The run's report, after waiting up to `waitMs` for it to finish; undefined when the runner knows no such run. */
  get(runId: string, waitMs: number): Promise<RunReport | undefined>;
  /** The reports of the runs the runner knows among `ids` (unknown ones are left out). */
  lookup(ids: string[]): Promise<RunReport[]>;
};
export const UNREACHABLE_REASON = 'the code runner cannot be reached';

/** The reason in a 503 body: `{ code, message }`, or the platform's `{ error: { code, message } }`. */
function refusalReason(body: unknown): string {
  const b = body as { message?: unknown; error?: { message?: unknown } } | undefined;
  const message = b?.message ?? b?.error?.message;
  return typeof message === 'string' && message.trim() ? message : 'no code sandbox is available';
}

/**
 * workspace-orchestrator's runner API (POST /internal/runs, GET /internal/runs/:id, POST /internal/runs/lookup)
 * through the one internal client. A long wait for a run is sent as `waitMs`; the client's timeout is
 * stretched by that much so the held request is not cut off.
 */
export function createHttpCodeRunner(
  baseUrl: string,
  internalToken: string,
  opts: { timeoutMs?: number } = {},
): CodeRunner & { close(): void } {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const request = createInternalClient(baseUrl, internalToken, { timeoutMs });
  const longRequest = createInternalClient(baseUrl, internalToken, { timeoutMs: timeoutMs + 25_000 });

  return {
    async enqueue(run: RunRequest): Promise<RunnerAnswer> {
      let answer;
      try {
        answer = await request('/internal/runs', { method: 'POST', body: run });
      } catch (err) {
        if (err instanceof AppError && err.code === ErrorCode.UNAVAILABLE)
          return { ok: false, reason: UNREACHABLE_REASON };
        throw err;
      }
      if (answer.status === 503) return { ok: false, reason: refusalReason(answer.body) };
      if (answer.status !== 202 && answer.status !== 200) throw unexpectedStatus(SERVICE, answer.status, 'a new run');
      return { ok: true, report: parseUpstream(SERVICE, RunReportSchema, answer.body, 'a run report') };
    },

    async get(runId: string, waitMs: number): Promise<RunReport | undefined> {
      const wait = Math.max(0, Math.min(25_000, Math.round(waitMs)));
      const client = wait > 0 ? longRequest : request;
      const { status, body } = await client(`/internal/runs/${encodeURIComponent(runId)}?waitMs=${wait}`);
      if (status === 404) return undefined;
      if (status !== 200) throw unexpectedStatus(SERVICE, status, `run ${runId}`);
      return parseUpstream(SERVICE, RunReportSchema, body, 'a run report');
    },

    async lookup(ids: string[]): Promise<RunReport[]> {
      if (ids.length === 0) return [];
      const { status, body } = await request('/internal/runs/lookup', { method: 'POST', body: { ids } });
      if (status !== 200) throw unexpectedStatus(SERVICE, status, 'run reports');
      return parseUpstream(SERVICE, RunReportsSchema, body, 'run reports').runs;
    },

    close() {
      request.close();
      longRequest.close();
    },
  };
}
