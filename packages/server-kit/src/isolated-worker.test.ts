import { AppError } from '@exam/domain/errors';
import { afterAll, describe, expect, it } from 'vitest';
import type { HogInput } from './testing/hog.task.ts';
import { createIsolatedRunner, IsolatedTaskError } from './isolated-worker.ts';

const HOG = new URL('./testing/hog.task.ts', import.meta.url);

describe('isolated worker runner', () => {
  const runner = createIsolatedRunner({ timeoutMs: 5000, maxHeapMb: 32, concurrency: 2 });
  afterAll(() => runner.close());
  const run = (input: HogInput) => runner.run<{ value?: string; threadId: number }>(HOG, input);

  it('returns the task’s result from a worker thread and keeps the worker for the next file', async () => {
    const first = await run({ mode: 'echo', value: 'a' });
    expect(first.value).toBe('a');
    expect(first.threadId).toBeGreaterThan(0);
    expect((await run({ mode: 'echo' })).threadId).toBe(first.threadId);
  });

  it('stops a task past its heap limit with a memory failure, then serves the next task on a fresh worker', async () => {
    await expect(run({ mode: 'heap' })).rejects.toMatchObject({ reason: 'memory', name: 'Error' });
    await expect(run({ mode: 'heap' })).rejects.toBeInstanceOf(IsolatedTaskError);
    expect((await run({ mode: 'echo', value: 'after' })).value).toBe('after');
  });

  it('terminates a task past its time limit', async () => {
    const quick = createIsolatedRunner({ timeoutMs: 1500, maxHeapMb: 64, concurrency: 1 });
    try {
      const started = performance.now();
      await expect(quick.run(HOG, { mode: 'spin' })).rejects.toMatchObject({ reason: 'timeout' });
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(((await quick.run(HOG, { mode: 'echo', value: 'b' })) as { value: string }).value).toBe('b');
    } finally {
      await quick.close();
    }
  });

  it('passes an AppError through as one, and any other error as a plain Error', async () => {
    const refused = await run({ mode: 'refuse' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'VALIDATION', message: 'No.', issues: [{ path: 'files', message: 'No.' }] });
    const thrown = await run({ mode: 'throw' }).catch((error: unknown) => error);
    expect(thrown).not.toBeInstanceOf(AppError);
    expect((thrown as Error).message).toBe('internal detail');
  });

  it('runs at most `concurrency` tasks at once; the rest wait for a slot', async () => {
    const one = createIsolatedRunner({ timeoutMs: 1500, maxHeapMb: 64, concurrency: 1 });
    try {
      const spinning = one.run(HOG, { mode: 'spin' }).catch((error: unknown) => error);
      const queued = one.run<{ value: string }>(HOG, { mode: 'echo', value: 'queued' });
      expect(await spinning).toBeInstanceOf(IsolatedTaskError);
      expect((await queued).value).toBe('queued');
    } finally {
      await one.close();
    }
  });
});
