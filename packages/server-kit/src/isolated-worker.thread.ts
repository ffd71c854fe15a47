import { AppError } from '@exam/domain/errors';
import { parentPort } from 'node:worker_threads';
import type { TaskOutcome } from './isolated-worker.ts';

/**
 * A worker thread of isolated-worker.ts: runs one task at a time, the default export of the module the message
 * names (loaded once per worker, then cached), says when it starts, and posts its result; an AppError travels as
 * its fields.
 */

type TaskModule = { default: (input: unknown) => unknown };

parentPort?.on('message', async ({ task, input }: { task: string; input: unknown }) => {
  let outcome: TaskOutcome;
  try {
    const run = ((await import(task)) as TaskModule).default;
    // The time limit starts now: loading the parsers is the service's own cost, not the file's.
    parentPort?.postMessage({ started: true });
    outcome = { ok: true, value: await run(input) };
  } catch (error) {
    outcome = {
      ok: false,
      error:
        error instanceof AppError
          ? { code: error.code, message: error.message, issues: error.issues }
          : { message: error instanceof Error ? error.message : String(error) },
    };
  }
  parentPort?.postMessage(outcome);
});
