import { NAVIGATION_EVENT_TYPES, PROCTOR_EVENT_TYPES } from '@exam/domain/attempt';
import { applyOperation, type AnswerOperation } from '@exam/domain/answer-operations';
import type { Timeline, TimelineEvent, TimelineEventKind } from '@exam/domain/timeline';

/**
 * The attempt's timeline made ready for the replay player: every answer as keystroke-sized steps with text
 * checkpoints, so the text of any answer at any moment is one checkpoint plus fewer than CHECKPOINT_EVERY steps
 * however long the answer's history is (scrubbing an hour of typing stays instant). Times are milliseconds since
 * the attempt started.
 */

/** A text checkpoint is kept after every this many steps. */
export const CHECKPOINT_EVERY = 128;
/** The latest change stays highlighted for this long after it happened. */
export const RECENT_MS = 1500;

type Step = { t: number; from: number; to: number; insert: string };

export type AnswerTrack = {
  questionIndex: number;
  final: string;
  /** In time order; a step's time is never before the previous one's. */
  steps: Step[];
  /** checkpoints[k]: the text after the first k × CHECKPOINT_EVERY steps. */
  checkpoints: string[];
  /** The operations did not replay (the server reconciles them, so this should not happen): the final text is shown. */
  failed: boolean;
};

export type FileTrack = { path: string; changes: Array<{ t: number; content: string; deleted: boolean }> };

export type ReplayEvent = { t: number; index: number; event: TimelineEvent };

export type ConversationEntry = {
  t: number;
  messageId: string;
  role: 'user' | 'assistant';
  /** null when the transcript did not hold the message (the assistant's service was unavailable). */
  content: string | null;
  /** A reply a guardrail stopped: the candidate saw only part of it, if any. */
  stopped: boolean;
};

const CONVERSATION_KINDS: ReadonlySet<TimelineEventKind> = new Set([
  'assistant-user',
  'assistant-reply',
  'guardrail-stop',
]);

export type ReplayModel = {
  startMs: number;
  durationMs: number;
  answers: AnswerTrack[];
  files: FileTrack[];
  events: ReplayEvent[];
  /** The distinct times of the events: where the scrubber's arrow keys stop. */
  stops: number[];
  /** Every moment something happened (each keystroke included), sorted: what "skip idle" skips between. */
  activity: number[];
  conversation: ConversationEntry[];
  integrity: ReplayEvent[];
};

/** Proctoring events shown beside the replay: the domain's, without the navigation ones (question views). */
export const INTEGRITY_KINDS: ReadonlySet<TimelineEventKind> = new Set(
  PROCTOR_EVENT_TYPES.filter((type) => !NAVIGATION_EVENT_TYPES.includes(type)),
);

/** Index of the first element greater than `value` in an ascending array: how many are at or before it. */
export function upperBound<T>(sorted: ReadonlyArray<T>, value: number, key: (item: T) => number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (key(sorted[mid]!) <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first element at or after `value` in an ascending array of numbers: how many are before it. */
function lowerBound(sorted: ReadonlyArray<number>, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const identity = (n: number) => n;

/**
 * One operation as the keystrokes it coalesced (answer-operations.ts: `keys` times every keystroke after the first).
 * A typed run inserts one code point per key, the first also replacing the selection. A deletion run is shown as
 * Backspace presses, right to left: a run of Delete presses went left to right, which the operation does not record,
 * so only the moments in between differ; the text at the run's end is exact either way.
 */
function stepsOf(op: AnswerOperation, text: string, t: number): Step[] {
  const keys = op.keys ?? [];
  const whole = [{ t, from: op.from, to: op.to, insert: op.insert }];
  if (keys.length === 0) return whole;
  const times = [t];
  for (const gap of keys) times.push(times[times.length - 1]! + gap);
  if (op.insert !== '') {
    const points = Array.from(op.insert);
    if (points.length !== times.length) return whole;
    let at = op.from;
    return points.map((point, i) => {
      const step = { t: times[i]!, from: at, to: i === 0 ? op.to : at, insert: point };
      at += point.length;
      return step;
    });
  }
  const points = Array.from(text.slice(op.from, op.to));
  if (points.length !== times.length) return whole;
  let end = op.to;
  return times.map((time, i) => {
    const removed = points[points.length - 1 - i]!;
    end -= removed.length;
    return { t: time, from: end, to: end + removed.length, insert: '' };
  });
}

export function buildAnswerTrack(answer: Timeline['answers'][number], startMs: number): AnswerTrack {
  const track: AnswerTrack = {
    questionIndex: answer.questionIndex,
    final: answer.final,
    steps: [],
    checkpoints: [''],
    failed: false,
  };
  let text = '';
  let last = 0;
  try {
    for (const op of answer.operations) {
      for (const step of stepsOf(op, text, Math.max(last, Date.parse(op.at) - startMs))) {
        // A page's clock estimate can step back a little; the replay keeps time moving forward.
        step.t = Math.max(step.t, last);
        last = step.t;
        text = applyOperation(text, step);
        track.steps.push(step);
        if (track.steps.length % CHECKPOINT_EVERY === 0) track.checkpoints.push(text);
      }
    }
  } catch {
    return { ...track, steps: [], checkpoints: [''], failed: true };
  }
  return track;
}

export type AnswerAt = {
  text: string;
  /** When it last changed, null before its first change. */
  changedAt: number | null;
  /** The text the latest step inserted, while it is recent (RECENT_MS), to highlight it. */
  recent: { from: number; to: number } | null;
};

/** The answer as it was at `t`. */
export function answerAt(track: AnswerTrack, t: number): AnswerAt {
  if (track.failed) return { text: track.final, changedAt: null, recent: null };
  const done = upperBound(track.steps, t, (step) => step.t);
  const checkpoint = Math.floor(done / CHECKPOINT_EVERY);
  let text = track.checkpoints[checkpoint] ?? '';
  for (let i = checkpoint * CHECKPOINT_EVERY; i < done; i++) text = applyOperation(text, track.steps[i]!);
  const lastStep = done > 0 ? track.steps[done - 1]! : null;
  const recent =
    lastStep && lastStep.insert !== '' && t - lastStep.t < RECENT_MS
      ? { from: lastStep.from, to: lastStep.from + lastStep.insert.length }
      : null;
  return { text, changedAt: lastStep?.t ?? null, recent };
}

/** A workspace file as it was at `t`: null before it existed or after it was deleted. */
export function fileAt(track: FileTrack, t: number): { content: string; changedAt: number } | null {
  const done = upperBound(track.changes, t, (change) => change.t);
  const change = done > 0 ? track.changes[done - 1]! : null;
  return change && !change.deleted ? { content: change.content, changedAt: change.t } : null;
}

/** The index of the latest item at or before `t` in a list sorted by time, -1 when none. */
export function latestAt<T extends { t: number }>(items: ReadonlyArray<T>, t: number): number {
  return upperBound(items, t, (item) => item.t) - 1;
}

/** Where the scrubber goes from `t` when stepped `count` events forward (or back, when negative). */
export function stepFrom(model: Pick<ReplayModel, 'stops' | 'durationMs'>, t: number, count: number): number {
  const { stops, durationMs } = model;
  if (count > 0) {
    const next = upperBound(stops, t, identity) + count - 1;
    return next < stops.length ? stops[next]! : durationMs;
  }
  // Back from t: counted from the stops before it, so stepping back from between two events lands on the earlier.
  const previous = lowerBound(stops, t) + count;
  return previous >= 0 ? stops[previous]! : 0;
}

/** Whether the page was out of focus or out of full screen at `t`, from the proctoring events before it. */
export function pageStateAt(integrity: ReadonlyArray<ReplayEvent>, t: number): { away: boolean; windowed: boolean } {
  let away = false;
  let windowed = false;
  for (const { t: at, event } of integrity) {
    if (at > t) break;
    if (event.kind === 'focus-lost') away = true;
    else if (event.kind === 'focus-gained') away = false;
    else if (event.kind === 'fullscreen-exit') windowed = true;
    else if (event.kind === 'fullscreen-enter') windowed = false;
  }
  return { away, windowed };
}

function conversationOf(timeline: Timeline, events: ReplayEvent[], startMs: number): ConversationEntry[] {
  const byId = new Map(timeline.messages.map((message) => [message.id, message]));
  const referenced = new Set<string>();
  const entries: ConversationEntry[] = [];
  for (const { t, event } of events) {
    if (!CONVERSATION_KINDS.has(event.kind) || !event.messageId) continue;
    referenced.add(event.messageId);
    const message = byId.get(event.messageId);
    entries.push({
      t,
      messageId: event.messageId,
      role: message?.role ?? (event.kind === 'assistant-user' ? 'user' : 'assistant'),
      content: message?.content ?? null,
      stopped: event.kind === 'guardrail-stop',
    });
  }
  // A message no event points to still belongs in the conversation, at its own time.
  for (const message of timeline.messages) {
    if (referenced.has(message.id)) continue;
    const t = Math.max(0, Date.parse(message.at) - startMs);
    entries.push({ t, messageId: message.id, role: message.role, content: message.content, stopped: false });
  }
  return entries.sort((a, b) => a.t - b.t);
}

export function buildReplayModel(timeline: Timeline): ReplayModel {
  const startMs = Date.parse(timeline.startedAt);
  const since = (at: string) => Math.max(0, Date.parse(at) - startMs);
  const events = timeline.events
    .map((event, index) => ({ t: since(event.at), index, event }))
    .sort((a, b) => a.t - b.t || a.index - b.index);
  const answers = [...timeline.answers]
    .sort((a, b) => a.questionIndex - b.questionIndex)
    .map((answer) => buildAnswerTrack(answer, startMs));
  const files = timeline.workspaceFiles.map((file) => ({
    path: file.path,
    changes: file.changes
      .map((change) => ({ t: since(change.at), content: change.content, deleted: change.deleted }))
      .sort((a, b) => a.t - b.t),
  }));
  const conversation = conversationOf(timeline, events, startMs);
  const activity = [
    ...events.map((e) => e.t),
    ...answers.flatMap((answer) => answer.steps.map((step) => step.t)),
    ...files.flatMap((file) => file.changes.map((change) => change.t)),
    ...conversation.map((entry) => entry.t),
  ].sort((a, b) => a - b);
  const durationMs = Math.max(since(timeline.submittedAt), activity[activity.length - 1] ?? 0);
  return {
    startMs,
    durationMs,
    answers,
    files,
    events,
    stops: [...new Set(events.map((e) => e.t))],
    activity,
    conversation,
    integrity: events.filter((e) => INTEGRITY_KINDS.has(e.event.kind)),
  };
}

/** Elapsed time as mm:ss (minutes go past 59 in a long exam: 75:04). */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}
