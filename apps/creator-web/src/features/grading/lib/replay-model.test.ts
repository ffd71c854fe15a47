import { applyOperation, coalesce, type AnswerOperation } from '@exam/domain/answer-operations';
import type { Timeline } from '@exam/domain/timeline';
import { describe, expect, it } from 'vitest';
import { makeTimeline, makeTimelineAnswer } from '../../../testing/timeline-factories.ts';
import {
  CHECKPOINT_EVERY,
  answerAt,
  buildAnswerTrack,
  buildReplayModel,
  fileAt,
  formatElapsed,
  pageStateAt,
  stepFrom,
} from './replay-model.ts';
import { IDLE_GAP_MS, IDLE_LEAD_MS, advance } from './playback.ts';

const START = Date.parse('2030-01-01T09:00:00.000Z');
const iso = (ms: number) => new Date(START + ms).toISOString();

/** A small seeded generator (mulberry32), so a failing script can be run again. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = ['a', 'b', 'é', ' ', '\n', '😀', '字'];

/**
 * A random editing session, one keystroke per operation as a page records it before coalescing: typing at the
 * caret, Backspace, a pasted block, a selection replaced by typing. Returns the keystrokes with their times.
 */
function session(seed: number, length: number): AnswerOperation[] {
  const next = random(seed);
  const ops: AnswerOperation[] = [];
  let text = '';
  let caret = 0;
  let t = 0;
  for (let i = 0; i < length; i++) {
    t += Math.floor(next() * 400) + (next() < 0.05 ? 5000 : 0);
    const roll = next();
    let op: AnswerOperation;
    if (roll < 0.7 || text.length === 0) {
      const ch = ALPHABET[Math.floor(next() * ALPHABET.length)]!;
      op = { at: iso(t), from: caret, to: caret, insert: ch, source: 'typed' };
    } else if (roll < 0.85 && caret > 0) {
      // Backspace deletes the code point before the caret, whole.
      const before = Array.from(text.slice(0, caret));
      const width = before[before.length - 1]!.length;
      op = { at: iso(t), from: caret - width, to: caret, insert: '', source: 'typed' };
    } else if (roll < 0.92) {
      op = { at: iso(t), from: caret, to: caret, insert: 'PASTED', source: 'pasted' };
    } else {
      const points = Array.from(text);
      const a = Math.floor(next() * points.length);
      const from = points.slice(0, a).join('').length;
      const to = from + (points[a]?.length ?? 0);
      op = { at: iso(t), from, to, insert: 'x', source: 'typed' };
    }
    text = applyOperation(text, op);
    caret = op.from + op.insert.length;
    ops.push(op);
  }
  return ops;
}

function coalesced(keystrokes: AnswerOperation[]): AnswerOperation[] {
  const out: AnswerOperation[] = [];
  for (const op of keystrokes) {
    const merged = coalesce(out[out.length - 1], op);
    if (merged) out[out.length - 1] = merged;
    else out.push(op);
  }
  return out;
}

describe('the replay model', () => {
  it('shows each answer at every keystroke exactly as typed, from coalesced operations and checkpoints', () => {
    const folded = { typing: 0, backspaces: 0 };
    for (const seed of [1, 2, 3, 4, 5]) {
      const keystrokes = session(seed, 700);
      const ops = coalesced(keystrokes);
      // Coalescing folded the keystrokes, so the checkpoints and the per-key timing both matter here.
      expect(ops.length).toBeLessThan(keystrokes.length);
      for (const op of ops.filter((o) => o.keys)) folded[op.insert ? 'typing' : 'backspaces']++;
      const track = buildAnswerTrack(makeTimelineAnswer({ questionIndex: 0, operations: ops, final: '' }), START);
      expect(track.checkpoints.length).toBeGreaterThan(700 / CHECKPOINT_EVERY - 1);
      let expected = '';
      keystrokes.forEach((key, i) => {
        expected = applyOperation(expected, key);
        const t = Date.parse(key.at) - START;
        // Several keys at one millisecond: the text at that time is after the last of them.
        if (keystrokes[i + 1] && Date.parse(keystrokes[i + 1]!.at) - START === t) return;
        expect(answerAt(track, t).text, `seed ${seed}, key ${i}`).toBe(expected);
      });
      expect(answerAt(track, Number.MAX_SAFE_INTEGER).text).toBe(expected);
    }
    expect(folded.typing).toBeGreaterThan(10);
    expect(folded.backspaces).toBeGreaterThan(10);
  });

  it('shows an answer empty before its first change and marks the latest insertion while it is recent', () => {
    const track = buildAnswerTrack(
      makeTimelineAnswer({
        questionIndex: 0,
        final: 'hi there',
        operations: [
          { at: iso(1000), from: 0, to: 0, insert: 'hi', source: 'typed', keys: [200] },
          { at: iso(5000), from: 2, to: 2, insert: ' there', source: 'pasted' },
        ],
      }),
      START,
    );
    expect(answerAt(track, 999)).toEqual({ text: '', changedAt: null, recent: null });
    expect(answerAt(track, 1000).text).toBe('h');
    expect(answerAt(track, 1200).text).toBe('hi');
    expect(answerAt(track, 5000)).toEqual({ text: 'hi there', changedAt: 5000, recent: { from: 2, to: 8 } });
    expect(answerAt(track, 9000).recent).toBeNull();
  });

  it('falls back to the final text when the operations do not replay', () => {
    const track = buildAnswerTrack(
      makeTimelineAnswer({
        questionIndex: 0,
        final: 'final',
        operations: [{ at: iso(0), from: 3, to: 4, insert: 'x', source: 'typed' }],
      }),
      START,
    );
    expect(track.failed).toBe(true);
    expect(answerAt(track, 0).text).toBe('final');
  });

  it('steps the scrubber one event, ten events, and to either end', () => {
    const model = buildReplayModel(
      makeTimeline({
        startedAt: iso(0),
        submittedAt: iso(60_000),
        events: [1000, 2000, 2000, 5000, 9000].map((t) => ({ at: iso(t), kind: 'focus-lost' as const })),
      }),
    );
    expect(model.stops).toEqual([1000, 2000, 5000, 9000]);
    expect(stepFrom(model, 0, 1)).toBe(1000);
    expect(stepFrom(model, 1000, 1)).toBe(2000);
    expect(stepFrom(model, 3000, 1)).toBe(5000);
    expect(stepFrom(model, 3000, -1)).toBe(2000);
    expect(stepFrom(model, 2000, -1)).toBe(1000);
    expect(stepFrom(model, 1000, -1)).toBe(0);
    expect(stepFrom(model, 9000, 1)).toBe(60_000);
    expect(stepFrom(model, 0, 10)).toBe(60_000);
    expect(stepFrom(model, 60_000, -10)).toBe(0);
    expect(stepFrom(model, 60_000, -2)).toBe(5000);
  });

  it('gives workspace files, the conversation and the page state as they were at a moment', () => {
    const timeline: Timeline = makeTimeline({
      startedAt: iso(0),
      submittedAt: iso(30_000),
      events: [
        { at: iso(1000), kind: 'focus-lost' },
        { at: iso(2000), kind: 'assistant-user', messageId: 'm1' },
        { at: iso(3000), kind: 'assistant-reply', messageId: 'm2' },
        { at: iso(4000), kind: 'focus-gained' },
        { at: iso(6000), kind: 'fullscreen-exit' },
        { at: iso(9000), kind: 'guardrail-stop', messageId: 'm4' },
      ],
      messages: [
        { id: 'm1', role: 'user', content: 'What is a heap?', at: iso(1900) },
        { id: 'm2', role: 'assistant', content: 'A tree with an order.', at: iso(2900) },
        { id: 'm3', role: 'user', content: 'Unreferenced', at: iso(8000) },
        { id: 'm4', role: 'assistant', content: 'The answer is', at: iso(9000) },
      ],
      workspaceFiles: [
        {
          path: 'main.py',
          changes: [
            { at: iso(1500), content: 'print(1)', source: 'typed', deleted: false },
            { at: iso(7000), content: '', source: null, deleted: true },
          ],
        },
      ],
    });
    const model = buildReplayModel(timeline);
    const file = model.files[0]!;
    expect(fileAt(file, 1000)).toBeNull();
    expect(fileAt(file, 2000)).toEqual({ content: 'print(1)', changedAt: 1500 });
    expect(fileAt(file, 7000)).toBeNull();
    expect(model.conversation.map((c) => [c.t, c.messageId, c.content, c.stopped])).toEqual([
      [2000, 'm1', 'What is a heap?', false],
      [3000, 'm2', 'A tree with an order.', false],
      [8000, 'm3', 'Unreferenced', false],
      [9000, 'm4', 'The answer is', true],
    ]);
    expect(pageStateAt(model.integrity, 1500)).toEqual({ away: true, windowed: false });
    expect(pageStateAt(model.integrity, 6500)).toEqual({ away: false, windowed: true });
    expect(model.durationMs).toBe(30_000);
  });

  it('writes elapsed time as mm:ss, minutes going past an hour', () => {
    expect(formatElapsed(0)).toBe('00:00');
    expect(formatElapsed(65_999)).toBe('01:05');
    expect(formatElapsed(75 * 60_000 + 4000)).toBe('75:04');
  });
});

describe('playback', () => {
  const activity = [1000, 1200, 20_000, 20_100];
  it('moves on by real time times the speed, and stops at the end', () => {
    expect(advance(0, 100, '1', activity, 30_000)).toBe(100);
    expect(advance(0, 100, '16', activity, 30_000)).toBe(1600);
    expect(advance(29_900, 100, '8', activity, 30_000)).toBe(30_000);
  });

  it('skips idle stretches longer than a few seconds, keeping real time while things happen', () => {
    expect(advance(1000, 100, 'skip-idle', activity, 30_000)).toBe(1100);
    // After the last key at 1.2 s nothing happens until 20 s: playback jumps to just before it.
    expect(advance(1200, 100, 'skip-idle', activity, 30_000)).toBe(20_000 - IDLE_LEAD_MS);
    // A pause shorter than the gap plays in real time.
    expect(advance(0, 100, 'skip-idle', [0, IDLE_GAP_MS - 200], 30_000)).toBe(100);
    expect(advance(20_100, 100, 'skip-idle', activity, 30_000)).toBe(30_000 - IDLE_LEAD_MS);
  });
});
