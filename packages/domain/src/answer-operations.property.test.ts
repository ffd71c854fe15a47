import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ANSWER_SOURCES,
  appendChunk,
  applyOperation,
  coalesce,
  diffOperation,
  fromCompact,
  OPERATIONS_PER_SAVE_MAX,
  reconcile,
  replay,
  replayWithSources,
  SaveOperationsSchema,
  toCompact,
  type AnswerOperation,
  type AnswerSource,
  type CompactOperation,
  type SaveOperations,
} from './answer-operations.ts';

/**
 * Replay fidelity as a property: a model of the candidate page's recorder (one operation per input event, typed keys
 * coalesced, chunks put in the durable outbox at each save) and of the server's storage rule (appendChunk) runs
 * random edit scripts — typing, select-and-replace, IME composition, undo/redo, pastes, multi-byte text and emoji,
 * offline periods, lost acknowledgements, reloads — and the stored operations, read back through the compact form,
 * must replay to the stored answer exactly, every time.
 */

const STARTED = Date.parse('2026-11-28T09:00:00.000Z');

/** What the scripts exercised, checked at the end so a weakened generator cannot pass unnoticed. */
const seen = {
  overlaps: 0,
  longerResends: 0,
  reloadsKeepingOutbox: 0,
  reloadsFromServer: 0,
  restoredDrafts: 0,
  coalescedKeys: 0,
  surrogateDeletes: 0,
  imeSteps: 0,
  undos: 0,
  offlineSaves: 0,
};

// Text that breaks naive position arithmetic: combining marks, CJK, astral letters, emoji with skin tones, ZWJ
// sequences and flags (several surrogate pairs per grapheme).
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

type Action =
  | { kind: 'key'; gap: number; text: string }
  | { kind: 'cluster'; gap: number; text: string }
  | { kind: 'backspace' | 'delete'; gap: number; grapheme: boolean }
  | { kind: 'caret'; at: number }
  | { kind: 'select'; a: number; b: number }
  | { kind: 'paste'; gap: number; text: string; source: AnswerSource }
  | { kind: 'ime'; gap: number; steps: string[]; commit: string; recordSteps: boolean }
  | { kind: 'undo' | 'redo'; gap: number; source: AnswerSource }
  | { kind: 'replace-all'; gap: number; cut: number; keep: number; text: string }
  | { kind: 'save'; perChunk: number; lostAcks: boolean[]; merge: boolean }
  | { kind: 'deliver'; lostAcks: boolean[]; merge: boolean }
  | { kind: 'offline' | 'online' }
  | { kind: 'reload'; outboxKept: boolean; draftKept: boolean };

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

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;
/** No lone surrogate: PostgreSQL's jsonb refuses one, so such an insert would fail the save. */
const isWellFormed = (s: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

/** A caret never sits inside a surrogate pair (browsers do not put it there). */
function snap(text: string, position: number): number {
  const p = position % (text.length + 1);
  return p > 0 && p < text.length && isHigh(text.charCodeAt(p - 1)) && isLow(text.charCodeAt(p)) ? p - 1 : p;
}
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
function unitBefore(text: string, at: number, grapheme: boolean): number {
  if (at === 0) return 0;
  if (grapheme) {
    let start = 0;
    for (const { index } of segmenter.segment(text)) if (index < at) start = index;
    return at - start;
  }
  return isLow(text.charCodeAt(at - 1)) && at >= 2 && isHigh(text.charCodeAt(at - 2)) ? 2 : 1;
}
function unitAfter(text: string, at: number, grapheme: boolean): number {
  if (at >= text.length) return 0;
  if (grapheme) {
    for (const { index, segment } of segmenter.segment(text)) if (index === at) return segment.length;
  }
  return isHigh(text.charCodeAt(at)) && isLow(text.charCodeAt(at + 1)) ? 2 : 1;
}

type Entry = { start: number; ops: CompactOperation[]; answer: string; seq: number };

/** The server: appendChunk over a question's chunks, the answer of the newest save. */
class Server {
  chunks: SaveOperations[] = [];
  end = 0;
  answer = '';
  seq = 0;
  refusedGaps = 0;

  receive(entry: Entry): number {
    if (entry.ops.length > 0) {
      // Over the wire and into jsonb and back: what the server stores is what JSON carries.
      const chunk = SaveOperationsSchema.parse(JSON.parse(JSON.stringify({ start: entry.start, ops: entry.ops })));
      if (chunk.start > this.end) this.refusedGaps++;
      if (chunk.start < this.end) seen.overlaps++;
      if (chunk.start + chunk.ops.length > this.end && chunk.start < this.end) seen.longerResends++;
      const part = appendChunk({ end: this.end }, chunk);
      if (part) {
        this.chunks.push(part);
        this.end += part.ops.length;
      }
    }
    if (entry.seq > this.seq) {
      this.seq = entry.seq;
      this.answer = entry.answer;
    }
    return this.end;
  }
}

/** The page's recorder, as the candidate app runs it. */
class Page {
  text: string;
  selection: [number, number];
  /** Operations recorded since this page loaded; the first is number `base`. */
  ops: AnswerOperation[] = [];
  base: number;
  /** Operations numbered below this are in a save: never coalesced into again. */
  frozen: number;
  outbox: Entry[];
  online = true;
  seq: number;
  undoStack: string[] = [];
  redoStack: string[] = [];

  readonly clock: { now: number };
  /** Every operation the page put in a save, by number, with its input events' times. */
  readonly sent: Map<number, { op: AnswerOperation; events: number[] }>;

  constructor(
    clock: { now: number },
    sent: Map<number, { op: AnswerOperation; events: number[] }>,
    state: { text: string; next: number; outbox: Entry[]; seq: number },
  ) {
    this.clock = clock;
    this.sent = sent;
    this.text = state.text;
    this.base = state.next;
    this.frozen = state.next;
    this.outbox = state.outbox;
    this.seq = state.seq;
    this.selection = [state.text.length, state.text.length];
    this.savedText = state.text;
  }

  /** The text after operation `frozen - 1`: what the last save said. */
  savedText: string;
  /** The times (ms since the start) of the input events folded into each recorded operation (index in `ops`). */
  events: number[][] = [];

  record(change: { from: number; to: number; insert: string }, source: AnswerSource): void {
    const op: AnswerOperation = { at: new Date(STARTED + this.clock.now).toISOString(), ...change, source };
    this.text = applyOperation(this.text, op);
    const lastIndex = this.ops.length - 1;
    const merged = lastIndex >= 0 && this.base + lastIndex >= this.frozen ? coalesce(this.ops[lastIndex], op) : null;
    if (merged) {
      seen.coalescedKeys++;
      this.ops[lastIndex] = merged;
      this.events[lastIndex]!.push(this.clock.now);
    } else {
      this.ops.push(op);
      this.events.push([this.clock.now]);
    }
  }

  edit(run: () => void): void {
    const before = this.text;
    run();
    if (this.text !== before) {
      this.undoStack.push(before);
      this.redoStack = [];
    }
  }

  replaceSelection(insert: string, source: AnswerSource): void {
    const [from, to] = this.selection;
    if (from === to && insert === '') return;
    this.record({ from, to, insert }, source);
    this.selection = [from + insert.length, from + insert.length];
  }

  save(perChunk: number): void {
    const next = this.base + this.ops.length;
    const entries: Entry[] = [];
    // Each save carries the answer as it stands after its own last operation, so the server's answer and its
    // operations agree whichever saves arrive (a page that then loses its outbox resumes from a consistent state).
    let answer = this.savedText;
    for (let start = this.frozen; start < next; start += perChunk) {
      const end = Math.min(next, start + perChunk);
      const ops = this.ops.slice(start - this.base, end - this.base);
      answer = replay(ops, answer);
      ops.forEach((op, i) =>
        this.sent.set(start + i, { op: structuredClone(op), events: [...this.events[start - this.base + i]!] }),
      );
      entries.push({ start, ops: ops.map((op) => toCompact(op, STARTED)), answer, seq: 0 });
    }
    expect(answer).toBe(this.text);
    this.savedText = answer;
    if (!this.online) seen.offlineSaves++;
    if (entries.length === 0) entries.push({ start: next, ops: [], answer: this.text, seq: 0 });
    for (const entry of entries) entry.seq = ++this.seq;
    this.outbox.push(...entries);
    this.frozen = next;
  }

  deliver(server: Server, lostAcks: boolean[], merge: boolean): void {
    if (!this.online || this.outbox.length === 0) return;
    if (merge) {
      // A page that was offline sends what is waiting as one longer chunk from the first unacknowledged start.
      const withOps = this.outbox.filter((e) => e.ops.length > 0);
      const ops = withOps.flatMap((e) => e.ops);
      if (ops.length <= OPERATIONS_PER_SAVE_MAX) {
        const last = this.outbox.at(-1)!;
        this.outbox = [{ start: withOps[0]?.start ?? last.start, ops, answer: last.answer, seq: last.seq }];
      }
    }
    let i = 0;
    while (this.outbox.length > 0) {
      server.receive(this.outbox[0]!);
      // The save arrived but its acknowledgement did not: the outbox keeps it and sends it again later.
      if (lostAcks[i++]) return;
      this.outbox.shift();
    }
  }
}

type Outcome = { server: Server; page: Page; sent: Map<number, { op: AnswerOperation; events: number[] }> };

function runScript(actions: Action[]): Outcome {
  const clock = { now: 0 };
  const server = new Server();
  const sent = new Map<number, { op: AnswerOperation; events: number[] }>();
  let page = new Page(clock, sent, { text: '', next: 0, outbox: [], seq: 0 });

  for (const action of actions) {
    if ('gap' in action) clock.now += action.gap;
    const text = page.text;
    switch (action.kind) {
      case 'key':
      case 'cluster':
        page.edit(() => page.replaceSelection(action.text, 'typed'));
        break;
      case 'backspace':
      case 'delete': {
        page.edit(() => {
          const [from, to] = page.selection;
          if (from !== to) return page.replaceSelection('', 'typed');
          const n =
            action.kind === 'backspace'
              ? unitBefore(text, from, action.grapheme)
              : unitAfter(text, from, action.grapheme);
          if (n === 0) return;
          if (n > 1) seen.surrogateDeletes++;
          page.selection = action.kind === 'backspace' ? [from - n, from] : [from, from + n];
          page.replaceSelection('', 'typed');
        });
        break;
      }
      case 'caret': {
        const at = snap(text, action.at);
        page.selection = [at, at];
        break;
      }
      case 'select': {
        const [a, b] = [snap(text, action.a), snap(text, action.b)].sort((x, y) => x - y);
        page.selection = [a!, b!];
        break;
      }
      case 'paste':
        page.edit(() => page.replaceSelection(action.text, action.source));
        break;
      case 'ime':
        page.edit(() => {
          // The composing range is replaced at each update, then by the committed text.
          const [start, end] = page.selection;
          const before = page.text;
          let composing = end - start;
          for (const step of [...action.steps, action.commit]) {
            if (action.recordSteps) {
              seen.imeSteps++;
              page.selection = [start, start + composing];
              page.replaceSelection(step, 'autocomplete');
            } else {
              page.text = page.text.slice(0, start) + step + page.text.slice(start + composing);
            }
            composing = step.length;
          }
          if (!action.recordSteps) {
            // A recorder that sees only the committed value diffs it against the text before the composition.
            const after = page.text;
            page.text = before;
            const change = diffOperation(before, after);
            if (change) page.record(change, 'autocomplete');
          }
          page.selection = [start + composing, start + composing];
        });
        break;
      case 'undo':
      case 'redo': {
        // The editor jumps back (or forward) to an earlier text; the page sees only the new value.
        const from = action.kind === 'undo' ? page.undoStack : page.redoStack;
        const to = action.kind === 'undo' ? page.redoStack : page.undoStack;
        const target = from.pop();
        if (target === undefined) break;
        seen.undos++;
        to.push(text);
        const change = diffOperation(text, target);
        if (change) page.record(change, action.source);
        page.selection = [page.text.length, page.text.length];
        break;
      }
      case 'replace-all': {
        // Something rewrote the value (spell-check, drag and drop): captured by diffing the old and new value.
        const cut = snap(text, action.cut);
        const keep = cut + ((action.keep % (text.length - cut + 1)) | 0);
        const after = text.slice(0, cut) + action.text + text.slice(snap(text, keep));
        page.edit(() => {
          const change = diffOperation(text, after);
          if (change) page.record(change, 'typed');
        });
        page.selection = [page.text.length, page.text.length];
        break;
      }
      case 'save':
        page.save(action.perChunk);
        page.deliver(server, action.lostAcks, action.merge);
        break;
      case 'deliver':
        page.deliver(server, action.lostAcks, action.merge);
        break;
      case 'offline':
        page.online = false;
        break;
      case 'online':
        page.online = true;
        break;
      case 'reload': {
        // What survives a reload: the durable outbox (unless storage was cleared or it is another device) and a
        // local draft of the value; operations not yet in a save are gone with the page's memory.
        const draft = page.text;
        if (action.outboxKept) {
          seen.reloadsKeepingOutbox++;
          const lastSaved = page.outbox.at(-1)?.answer ?? server.answer;
          page = new Page(clock, sent, { text: lastSaved, next: page.frozen, outbox: page.outbox, seq: page.seq });
          if (action.draftKept) {
            const change = diffOperation(page.text, draft);
            if (change) {
              seen.restoredDrafts++;
              page.record(change, 'restored');
              page.selection = [page.text.length, page.text.length];
            }
          }
        } else {
          seen.reloadsFromServer++;
          // Numbering continues from the count the server holds (AttemptState.answers[q].operations).
          page = new Page(clock, sent, { text: server.answer, next: server.end, outbox: [], seq: server.seq });
        }
        break;
      }
    }
    // The model itself stays sound: the caret inside the text, the text well-formed (as a browser keeps them).
    expect(page.selection[0] <= page.selection[1] && page.selection[1] <= page.text.length).toBe(true);
    expect(isWellFormed(page.text)).toBe(true);
  }
  // Submit: back online, whatever waits goes as one chunk from the first unacknowledged operation.
  page.online = true;
  page.save(OPERATIONS_PER_SAVE_MAX);
  page.deliver(server, [], true);
  return { server, page, sent };
}

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
