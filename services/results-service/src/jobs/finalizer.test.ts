import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFinalizer } from './finalizer.ts';

const silentLog = () => ({ info: vi.fn(), error: vi.fn() }) as unknown as Parameters<typeof startFinalizer>[1]['log'];

describe('startFinalizer', () => {
  afterEach(() => vi.useRealTimers());

  it('runs at once, never starts a run while one is in progress, and stop waits for it', async () => {
    vi.useFakeTimers();
    let finish: (count: number) => void = () => {};
    const run = vi.fn(() => new Promise<number>((resolve) => (finish = resolve)));
    const finalizer = startFinalizer(run, { intervalMs: 1000, log: silentLog() });
    expect(run).toHaveBeenCalledTimes(1);

    await vi.advanceTimersByTimeAsync(3000);
    expect(run).toHaveBeenCalledTimes(1);

    finish(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(2);

    let stopped = false;
    const stopping = finalizer.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish(0);
    await stopping;
    await vi.advanceTimersByTimeAsync(5000);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('logs a failed run and tries again at the next tick', async () => {
    vi.useFakeTimers();
    const log = silentLog();
    const run = vi.fn().mockRejectedValueOnce(new Error('database away')).mockResolvedValue(0);
    const finalizer = startFinalizer(run, { intervalMs: 1000, log });
    await vi.advanceTimersByTimeAsync(1000);
    expect(log.error).toHaveBeenCalledWith(expect.objectContaining({ err: expect.any(Error) }), 'finalizer run failed');
    expect(run).toHaveBeenCalledTimes(2);
    await finalizer.stop();
  });
});
