import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { server } from '../../../testing/server.ts';
import { findDraft } from './follow-up-drafts.ts';
import { createFollowUpSaver } from './follow-up-saver.ts';
import type { SaveStatus } from './sync-state.ts';

const attempt = { attemptId: 'attempt-1', token: 'attempt-token' };

/** results-service's draft route: keeps the highest seq; `reply` overrides one answer. */
function serveDrafts() {
  const served = { bodies: [] as Array<{ answer: string; seq: number }>, stored: { answer: '', seq: 0 }, down: false };
  let reply: ((body: { answer: string; seq: number }) => Response | undefined) | undefined;
  server.use(
    http.put('/api/attempts/:attemptId/follow-up/:n/answer', async ({ request }) => {
      if (served.down) return HttpResponse.error();
      const body = (await request.json()) as { answer: string; seq: number };
      served.bodies.push(body);
      const special = reply?.(body);
      if (special) return special;
      if (body.seq > served.stored.seq) served.stored = body;
      return HttpResponse.json({ seq: served.stored.seq });
    }),
  );
  return { served, onReply: (fn: typeof reply) => (reply = fn) };
}

function createSaver(initial = { answer: '', seq: 0, pending: false }) {
  const statuses: SaveStatus[] = [];
  const onClosed = vi.fn();
  const saver = createFollowUpSaver({
    attempt,
    n: 1,
    initial,
    serverSeq: initial.pending ? 0 : initial.seq,
    debounceMs: 500,
    baseDelayMs: 1000,
    maxDelayMs: 1000,
    onStatus: (status) => statuses.push(status),
    onClosed,
  });
  saver.start();
  return { saver, statuses, onClosed };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the follow-up draft saver', () => {
  it('keeps each keystroke on the device and sends the latest text after a pause, with increasing seq', async () => {
    const { served } = serveDrafts();
    const { saver, statuses } = createSaver();
    saver.change('a');
    saver.change('ab');
    expect(findDraft('attempt-1', 1)).toEqual({ answer: 'ab', seq: 2 });
    expect(served.bodies).toEqual([]);
    await vi.advanceTimersByTimeAsync(500);
    await vi.waitFor(() => expect(statuses.at(-1)).toBe('saved'));
    saver.change('abc');
    await vi.advanceTimersByTimeAsync(500);
    await vi.waitFor(() => expect(served.stored).toEqual({ answer: 'abc', seq: 3 }));
    expect(served.bodies.map((body) => body.seq)).toEqual([2, 3]);
    await vi.waitFor(() => expect(findDraft('attempt-1', 1)).toBeUndefined());
    saver.dispose();
  });

  it('retries a failed save with backoff and says the device is offline meanwhile', async () => {
    const { served } = serveDrafts();
    const { saver, statuses } = createSaver();
    served.down = true;
    saver.change('kept');
    await vi.advanceTimersByTimeAsync(500);
    await vi.waitFor(() => expect(statuses.at(-1)).toBe('offline'));
    expect(findDraft('attempt-1', 1)).toEqual({ answer: 'kept', seq: 1 });
    served.down = false;
    await vi.advanceTimersByTimeAsync(1200);
    await vi.waitFor(() => expect(served.stored).toEqual({ answer: 'kept', seq: 1 }));
    await vi.waitFor(() => expect(statuses.at(-1)).toBe('saved'));
    saver.dispose();
  });

  it('sends the text on screen again above a later seq another tab saved', async () => {
    const { served } = serveDrafts();
    served.stored = { answer: 'from the other tab', seq: 40 };
    const { saver } = createSaver();
    saver.change('mine');
    await vi.advanceTimersByTimeAsync(500);
    await vi.waitFor(() => expect(served.stored).toEqual({ answer: 'mine', seq: 41 }));
    expect(served.bodies.map((body) => body.seq)).toEqual([1, 41]);
    saver.dispose();
  });

  it('stops at a 409 (the question closed) and reports it once', async () => {
    const { served, onReply } = serveDrafts();
    onReply(() =>
      HttpResponse.json(
        { error: { code: 'CONFLICT', message: 'This follow-up question is closed.' } },
        { status: 409 },
      ),
    );
    const { saver, onClosed } = createSaver();
    saver.change('late');
    expect(await saver.flush()).toBe(false);
    expect(onClosed).toHaveBeenCalledTimes(1);
    expect(findDraft('attempt-1', 1)).toBeUndefined();
    saver.change('later');
    await vi.advanceTimersByTimeAsync(5000);
    expect(served.bodies).toEqual([{ answer: 'late', seq: 1 }]);
  });

  it('sends a draft kept from before a reload when it starts', async () => {
    const { served } = serveDrafts();
    const { saver } = createSaver({ answer: 'typed before the reload', seq: 7, pending: true });
    await vi.waitFor(() => expect(served.stored).toEqual({ answer: 'typed before the reload', seq: 7 }));
    saver.dispose();
  });
});
