import { describe, expect, it } from 'vitest';
import { aiUseOverTime, bucketSecondsFor, secondsPerQuestion, summariseTimes } from './timing.ts';

const s = (seconds: number) => seconds * 1000;
const view = (seconds: number, questionIndex: number) => ({ type: 'question-view', at: s(seconds), questionIndex });

describe('secondsPerQuestion', () => {
  it('runs from a view to the next view, focus loss or submission, resuming on focus gained', () => {
    const events = [
      view(5, 0),
      view(65, 1),
      { type: 'focus-lost', at: s(95) },
      { type: 'focus-gained', at: s(125) },
      view(155, 0),
      { type: 'paste-blocked', at: s(160) },
    ];
    const spent = secondsPerQuestion(events, 0, s(200));
    expect(Object.fromEntries(spent)).toEqual({ 0: 60 + 45, 1: 30 + 30 });
  });

  it('orders by time, clamps to the attempt and lists a question viewed for no time with 0', () => {
    const events = [view(50, 2), view(-10, 0), view(50, 1), view(500, 0)];
    expect(Object.fromEntries(secondsPerQuestion(events, 0, s(100)))).toEqual({ 0: 50 + 0, 2: 0, 1: 50 });
  });

  it('has nothing without question-view events', () => {
    expect(secondsPerQuestion([{ type: 'focus-lost', at: s(3) }], 0, s(10)).size).toBe(0);
  });

  it('ends at the last event when there is no submission time', () => {
    expect(Object.fromEntries(secondsPerQuestion([view(0, 0), { type: 'focus-lost', at: s(7) }], 0, null))).toEqual({
      0: 7,
    });
  });
});

describe('summariseTimes', () => {
  it('gives median, mean and count, nulls for nobody', () => {
    expect(summariseTimes([10, 20, 60])).toEqual({ medianSeconds: 20, meanSeconds: 30, candidates: 3 });
    expect(summariseTimes([])).toEqual({ medianSeconds: null, meanSeconds: null, candidates: 0 });
  });
});

describe('aiUseOverTime', () => {
  it('counts messages and distinct senders per minute since each candidate’s start', () => {
    const use = aiUseOverTime([
      { startedAt: s(1000), completedAt: s(1000 + 170), messages: [s(1010), s(1020), s(1130)] },
      { startedAt: s(0), completedAt: s(90), messages: [s(-5), s(61)] },
      { startedAt: s(0), completedAt: null, messages: [] },
    ]);
    expect(use).toEqual({
      bucketSeconds: 60,
      buckets: [
        { from: 0, messages: 3, candidates: 2 },
        { from: 60, messages: 1, candidates: 1 },
        { from: 120, messages: 1, candidates: 1 },
      ],
    });
  });

  it('widens the buckets so a long exam has at most 60', () => {
    expect(bucketSecondsFor(3600)).toBe(60);
    expect(bucketSecondsFor(3601)).toBe(120);
    expect(bucketSecondsFor(3 * 3600)).toBe(300);
    expect(bucketSecondsFor(100 * 3600)).toBe(7200);
    const use = aiUseOverTime([{ startedAt: 0, completedAt: s(3 * 3600), messages: [s(3 * 3600)] }]);
    expect(use.buckets).toHaveLength(36);
    expect(use.buckets[35]).toEqual({ from: 35 * 300, messages: 1, candidates: 1 });
  });

  it('has no buckets without candidates', () => {
    expect(aiUseOverTime([]).buckets).toEqual([]);
  });
});
