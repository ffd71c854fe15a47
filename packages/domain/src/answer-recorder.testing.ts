import {
  appendChunk,
  applyOperation,
  coalesce,
  diffOperation,
  OPERATIONS_PER_SAVE_MAX,
  replay,
  SaveOperationsSchema,
  toCompact,
  type AnswerOperation,
  type AnswerSource,
  type CompactOperation,
  type SaveOperations,
} from './answer-operations.ts';

/**
 * A model of the candidate page's recorder and of the server's storage rule, for the replay-fidelity property
 * (answer-operations.property.test.ts): the page records one operation per input event (typed keys coalesced, never
 * into an operation already in a save), puts its operations in a durable outbox at each save, sends them in order
 * and again when an acknowledgement is lost (alone or merged into a longer chunk), goes offline and reloads; the
 * server keeps each chunk's new part (appendChunk) and the newest save's answer. Test-only (eslint.config.js).
 */

export const STARTED = Date.parse('2026-11-28T09:00:00.000Z');

/** What the scripts exercised, checked at the end so a weakened generator cannot pass unnoticed. */
export const seen = {
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

export type Action =
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

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;
/** No lone surrogate: PostgreSQL's jsonb refuses one, so such an insert would fail the save. */
export const isWellFormed = (s: string) =>
  !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

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
    if (answer !== this.text) throw new Error('the saved operations do not replay to the page’s text');
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

export type Outcome = { server: Server; page: Page; sent: Map<number, { op: AnswerOperation; events: number[] }> };

export function runScript(actions: Action[]): Outcome {
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
    const [from, to] = page.selection;
    if (!(from <= to && to <= page.text.length && isWellFormed(page.text))) throw new Error('the model broke its text');
  }
  // Submit: back online, whatever waits goes as one chunk from the first unacknowledged operation.
  page.online = true;
  page.save(OPERATIONS_PER_SAVE_MAX);
  page.deliver(server, [], true);
  return { server, page, sent };
}
