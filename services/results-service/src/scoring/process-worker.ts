import { Worker } from 'node:worker_threads';
import type { ProcessRecord } from '@exam/domain/timeline';
import type { processRecord } from './process-record.ts';

export type ProcessInput = Parameters<typeof processRecord>[0];
export type ProcessRequest = { id: number; input: ProcessInput };
export type ProcessReply = { id: number; record: ProcessRecord } | { id: number; error: string };

type Pending = { resolve: (record: ProcessRecord) => void; reject: (err: Error) => void };

/**
 * `processRecord` in one worker thread, started on first use: a long attempt's replay would otherwise hold the
 * event loop for tens of milliseconds while candidates are saving. Requests are answered in order; a worker that
 * dies fails what it held and the next request starts a new one.
 */
export function createProcessWorker() {
  let worker: Worker | undefined;
  let nextId = 1;
  const pending = new Map<number, Pending>();

  const fail = (started: Worker, err: Error) => {
    if (worker !== started) return;
    worker = undefined;
    for (const job of pending.values()) job.reject(err);
    pending.clear();
  };

  const start = (): Worker => {
    const started = new Worker(new URL('./process-record.worker.ts', import.meta.url));
    started.unref();
    started.on('message', (reply: ProcessReply) => {
      const job = pending.get(reply.id);
      if (!job) return;
      pending.delete(reply.id);
      if ('error' in reply) job.reject(new Error(reply.error));
      else job.resolve(reply.record);
    });
    started.on('error', (err) => fail(started, err));
    started.on('exit', (code) => fail(started, new Error(`the process-record worker exited with ${code}`)));
    return started;
  };

  return {
    compute(input: ProcessInput): Promise<ProcessRecord> {
      worker ??= start();
      const id = nextId++;
      const running = worker;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        running.postMessage({ id, input } satisfies ProcessRequest);
      });
    },
    async close(): Promise<void> {
      const running = worker;
      worker = undefined;
      for (const job of pending.values()) job.reject(new Error('the process-record worker was closed'));
      pending.clear();
      if (running) await running.terminate();
    },
  };
}
export type ProcessWorker = ReturnType<typeof createProcessWorker>;
