import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { startMailSender } from './mail-sender.ts';

const silent = { info: () => undefined, error: () => undefined } as unknown as FastifyBaseLogger;

/** A queue stand-in: each pass waits until the test releases it, so overlap can be observed. */
function controlledPasses() {
  let listener: (() => void) | undefined;
  const releases: Array<() => void> = [];
  let running = 0;
  let maxRunning = 0;
  let passes = 0;
  return {
    sendDue: () =>
      new Promise<number>((resolve) => {
        passes++;
        running++;
        maxRunning = Math.max(maxRunning, running);
        releases.push(() => {
          running--;
          resolve(0);
        });
      }),
    onEnqueued: (l: () => void) => {
      listener = l;
      return () => (listener = undefined);
    },
    enqueue: () => listener?.(),
    releaseOne: async () => {
      releases.shift()?.();
      await new Promise((r) => setTimeout(r, 0));
    },
    stats: () => ({ passes, maxRunning, hasListener: listener !== undefined }),
  };
}

describe('mail sender job', () => {
  it('runs a pass when a mail is queued, never two at once, and once more for mail queued during a pass', async () => {
    const queue = controlledPasses();
    const sender = startMailSender(queue.sendDue, { intervalMs: 60_000, log: silent, onEnqueued: queue.onEnqueued });
    expect(queue.stats().passes).toBe(1);
    queue.enqueue();
    queue.enqueue();
    expect(queue.stats()).toMatchObject({ passes: 1, maxRunning: 1 });
    await queue.releaseOne();
    expect(queue.stats()).toMatchObject({ passes: 2, maxRunning: 1 });
    await queue.releaseOne();
    expect(queue.stats().passes).toBe(2);
    queue.enqueue();
    expect(queue.stats().passes).toBe(3);
    const stopped = sender.stop();
    await queue.releaseOne();
    await stopped;
    expect(queue.stats().hasListener).toBe(false);
  });
});
