import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ANSWER_SOURCES,
  diffOperation,
  fromCompact,
  reconcile,
  replay,
  replayWithSources,
  toCompact,
  type AnswerSource,
  type CompactOperation,
} from './answer-operations.ts';
import { isWellFormed, runScript, seen, STARTED, type Action, type Outcome } from './answer-recorder.testing.ts';

/**
 * Replay fidelity as a property: a model of the candidate page's recorder (one operation per input event, typed keys
 * coalesced, chunks put in the durable outbox at each save) and of the server's storage rule (appendChunk), in
 * answer-recorder.testing.ts, runs random edit scripts — typing, select-and-replace, IME composition, undo/redo, pastes, multi-byte text and emoji,
 * offline periods, lost acknowledgements, reloads — and the stored operations, read back through the compact form,
 * must replay to the stored answer exactly, every time.
 */

const PIECES = [
  'a',
  'Z',
  ' ',
  '\n',
  'é',
  'e\u0301',
  '\u0301',
  '你',
  '好世界',
  '한',
  'ก',
  '𝕏',
  '😀',
  '😃',
  '👍🏽',
  '👩‍💻',
  '🇫🇷',
  '👨‍👩‍👧‍👦',
  '\u200d',
];
const SINGLE_POINTS = [...new Set(PIECES.flatMap((piece) => Array.from(piece)))];

/** One code point, as one key press inserts. */
const codePointArb = fc.oneof(
  fc.constantFrom(...SINGLE_POINTS),
  fc
    .integer({ min: 0x20, max: 0x10ffff })
    .filter((c) => c < 0xd800 || c > 0xdfff)
    .map((c) => String.fromCodePoint(c)),
);
const textArb = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 8 }).map((parts) => parts.join('')),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
);
const gapArb = fc.oneof(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 120_000 }));

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  { weight: 12, arbitrary: fc.record({ kind: fc.constant('key' as const), gap: gapArb, text: codePointArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cluster' as const), gap: gapArb, text: textArb }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constantFrom('backspace' as const, 'delete' as const),
      gap: gapArb,
      grapheme: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('caret' as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('select' as const), a: fc.nat(), b: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('paste' as const),
      gap: gapArb,
      text: textArb,
      source: fc.constantFrom<AnswerSource>('pasted', 'assistant', 'autocomplete'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('ime' as const),
      gap: gapArb,
      steps: fc.array(fc.oneof(textArb, fc.constant('')), { minLength: 1, maxLength: 5 }),
      commit: fc.oneof(textArb, fc.constant('')),
      recordSteps: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constantFrom('undo' as const, 'redo' as const),
      gap: gapArb,
      source: fc.constantFrom<AnswerSource>('typed', 'restored'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('replace-all' as const),
      gap: gapArb,
      cut: fc.nat(),
      keep: fc.nat(),
      text: textArb,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('save' as const),
      perChunk: fc.integer({ min: 1, max: 6 }),
      lostAcks: fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }),
      merge: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('deliver' as const),
      lostAcks: fc.array(fc.boolean(), { maxLength: 4 }),
      merge: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('offline' as const, 'online' as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('reload' as const), outboxKept: fc.boolean(), draftKept: fc.boolean() }),
  },
);

function checkFidelity({ server, page, sent }: Outcome): void {
  const final = server.answer;
  expect(page.text).toBe(final);
  expect(server.refusedGaps).toBe(0);
  // Chunks never overlap and leave no hole: read in order they are operations 0 … end - 1.
  const chunks = [...server.chunks].sort((a, b) => a.start - b.start);
  let next = 0;
  for (const chunk of chunks) {
    expect(chunk.start).toBe(next);
    next += chunk.ops.length;
  }
  expect(next).toBe(server.end);

  const stored = chunks.flatMap((chunk) => chunk.ops);
  const ops = stored.map((compact) => fromCompact(compact, STARTED));
  ops.forEach((op, i) => {
    const page = sent.get(i)!;
    // The compact round trip is exact: time, range, text, source and per-key timing. (Compared as JSON first:
    // thousands of scripts, and `expect` only where a difference needs showing.)
    same(op, page.op);
    same(toCompact(op, STARTED), stored[i]);
    // Chunks stored in the first compact form (every `to`, timing as an array of numbers) read back the same.
    const first: CompactOperation = [Date.parse(op.at) - STARTED, op.from, op.to, op.insert, SOURCE_INDEX[op.source]];
    same(fromCompact(op.keys ? [...first, op.keys] : first, STARTED), op);
    if (!isWellFormed(op.insert)) expect.fail(`a lone surrogate in ${JSON.stringify(op.insert)}`);
    // Coalescing lost no keystroke and no key's time: read back from `at` and `keys`, the times are the events'.
    let t = Date.parse(op.at) - STARTED;
    same([t, ...(op.keys ?? []).map((gap) => (t += gap))], page.events);
    // A coalesced insertion holds one code point per key (typing-signals.ts reads each key's character from it).
    if (op.keys && op.insert !== '') same(Array.from(op.insert).length, op.keys.length + 1);
  });

  expect(replay(ops)).toBe(final);
  const reconciled = reconcile(ops, final, new Date(STARTED).toISOString());
  expect(reconciled.reconciled).toBe(false);
  expect(replay(reconciled.operations)).toBe(final);
  const { text, runs } = replayWithSources(ops);
  expect(text).toBe(final);
  expect(runs.reduce((sum, [length]) => sum + length, 0)).toBe(final.length);
  expect(runs.every(([length]) => length > 0)).toBe(true);
  // Each character's source, against a naive model that keeps one source per code unit; runs are merged.
  let sources = '';
  for (const op of ops) {
    sources =
      sources.slice(0, op.from) + SOURCE_INDEX[op.source].toString().repeat(op.insert.length) + sources.slice(op.to);
  }
  same(runs.map(([length, source]) => SOURCE_INDEX[source].toString().repeat(length)).join(''), sources);
  expect(runs.every(([, source], i) => i === 0 || runs[i - 1]![1] !== source)).toBe(true);
}

const SOURCE_INDEX = Object.fromEntries(ANSWER_SOURCES.map((source, i) => [source, i])) as Record<AnswerSource, number>;

/** Fails with vitest's diff when `actual` and `expected` differ (cheap when they do not). */
function same(actual: unknown, expected: unknown): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) expect(actual).toEqual(expected);
}

describe('replay fidelity over random edit scripts', () => {
  it('reproduces the stored answer exactly through chunks, retries, reloads and the compact form', () => {
    fc.assert(
      fc.property(fc.array(actionArb, { maxLength: 80 }), (actions) => checkFidelity(runScript(actions))),
      { numRuns: 4_000 },
    );
    // A few seconds; the bound is for a machine shared with other suites.
  }, 60_000);

  it('reproduces it for long typing sessions with rare saves (coalesced runs of hundreds of keys)', () => {
    const typingArb = fc.oneof(
      { weight: 20, arbitrary: fc.record({ kind: fc.constant('key' as const), gap: gapArb, text: codePointArb }) },
      actionArb,
    );
    fc.assert(
      fc.property(fc.array(typingArb, { minLength: 50, maxLength: 300 }), (actions) =>
        checkFidelity(runScript(actions)),
      ),
      { numRuns: 1_000 },
    );
  }, 60_000);

  it('exercised every path: resends, longer resends, reloads, drafts, coalescing, IME, undo, offline saves', () => {
    // Runs after the two properties above (vitest runs a file's tests in order).
    for (const [path, count] of Object.entries(seen)) expect(count, path).toBeGreaterThan(50);
  });

  it('diffOperation gives a replacement that replays exactly and never splits a surrogate pair', () => {
    const stringArb = fc.oneof(
      fc.array(fc.constantFrom(...PIECES), { maxLength: 10 }).map((parts) => parts.join('')),
      fc.string({ unit: 'grapheme', maxLength: 10 }),
    );
    fc.assert(
      fc.property(stringArb, stringArb, stringArb, stringArb, (prefix, a, b, suffix) => {
        const before = prefix + a + suffix;
        const after = prefix + b + suffix;
        const change = diffOperation(before, after);
        if (before === after) {
          expect(change).toBeNull();
          return;
        }
        expect(replay([change!], before)).toBe(after);
        expect(isWellFormed(change!.insert)).toBe(true);
        expect(isWellFormed(before.slice(change!.from, change!.to))).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });
});
