import { replayWithSources, sharesOf } from '@exam/domain/answer-operations';
import {
  TimelineSchema,
  type ProcessSummary,
  type Timeline,
  type TimelineAnswer,
  type TypingSignals,
} from '@exam/domain/timeline';

/** Typing figures of an answer nobody typed much into: no rate, no cohort, nothing flagged. */
export function makeSignals(overrides: Partial<TypingSignals> = {}): TypingSignals {
  return {
    charsPerMinute: null,
    pauses: { medianMs: null, under2s: 0, from2to10s: 0, over10s: 0 },
    revisionRatio: null,
    longestBurst: 0,
    keystrokes: 0,
    transcriptionLike: { flagged: false, spans: [], chars: 0 },
    ...overrides,
  };
}

/**
 * One answer of a timeline. `final`, `runs` and `sources` follow from the operations the way results-service
 * derives them, unless given.
 */
export function makeTimelineAnswer(
  overrides: Partial<TimelineAnswer> & Pick<TimelineAnswer, 'questionIndex'>,
): TimelineAnswer {
  const operations = overrides.operations ?? [];
  let derived: { text: string; runs: TimelineAnswer['runs'] } = { text: '', runs: [] };
  try {
    derived = replayWithSources(operations);
  } catch {
    // An answer whose operations do not replay, on purpose: the test gives `final` itself.
  }
  return {
    final: derived.text,
    operations,
    runs: derived.runs,
    sources: sharesOf(derived.runs),
    reconciled: false,
    signals: makeSignals(),
    ...overrides,
  };
}

/** GET /api/results/{id}/timeline, parsed by the domain schema so a test cannot drift from the contract. */
export function makeTimeline(overrides: Partial<Timeline> = {}): Timeline {
  return TimelineSchema.parse({
    resultId: 'result-1',
    attemptId: 'attempt-1',
    startedAt: '2030-01-01T09:00:00.000Z',
    submittedAt: '2030-01-01T09:30:00.000Z',
    events: [],
    answers: [],
    workspaceFiles: [],
    messages: [],
    unavailable: [],
    ...overrides,
  });
}

/** The candidate's process summary as a receipt carries it. */
export function makeProcessSummary(overrides: Partial<ProcessSummary> = {}): ProcessSummary {
  return {
    attemptId: 'attempt-1',
    characters: 400,
    typedPercent: 92,
    pastedPercent: 8,
    assistantPercent: 0,
    autocompletePercent: 0,
    restoredPercent: 0,
    assistantMessages: 3,
    outsidePastesBlocked: 0,
    submittedAt: '2030-01-01T09:30:00.000Z',
    ...overrides,
  };
}

const START_MS = Date.parse('2030-01-01T09:00:00.000Z');
/** The instant `seconds` into the recorded attempt below. */
export const attemptSecond = (seconds: number) => new Date(START_MS + seconds * 1000).toISOString();

/**
 * A recorded attempt of 90 s. Question 1: "Hello" typed from 10 s (one coalesced run, a key every 100 ms), " world"
 * pasted inside the exam at 20 s, " — a greeting" copied from the assistant at 60 s. Question 2: "x" typed at 5 s.
 * Between them: focus lost at 30 s and back at 40 s, an outside paste blocked at 45 s, a question to the assistant
 * at 50 s and its reply at 55 s, full screen left at 70 s, submitted at 90 s; main.py written at 15 s.
 */
export function makeRecordedTimeline(overrides: Partial<Timeline> = {}): Timeline {
  const q1 = makeTimelineAnswer({
    questionIndex: 0,
    operations: [
      { at: attemptSecond(10), from: 0, to: 0, insert: 'Hello', source: 'typed', keys: [100, 100, 100, 100] },
      { at: attemptSecond(20), from: 5, to: 5, insert: ' world', source: 'pasted' },
      { at: attemptSecond(60), from: 11, to: 11, insert: ' — a greeting', source: 'assistant' },
    ],
  });
  const q2 = makeTimelineAnswer({
    questionIndex: 1,
    operations: [{ at: attemptSecond(5), from: 0, to: 0, insert: 'x', source: 'typed' }],
  });
  const edit = (seconds: number, questionIndex: number, operation: number) =>
    ({ at: attemptSecond(seconds), kind: 'answer-edit', questionIndex, operation }) as const;
  return makeTimeline({
    startedAt: attemptSecond(0),
    submittedAt: attemptSecond(90),
    events: [
      edit(5, 1, 0),
      edit(10, 0, 0),
      { at: attemptSecond(15), kind: 'workspace-change', path: 'main.py', change: 0 },
      edit(20, 0, 1),
      { at: attemptSecond(20), kind: 'paste-allowed', questionIndex: 0 },
      { at: attemptSecond(30), kind: 'focus-lost' },
      { at: attemptSecond(40), kind: 'focus-gained' },
      { at: attemptSecond(45), kind: 'paste-blocked', questionIndex: 0 },
      { at: attemptSecond(50), kind: 'assistant-user', messageId: 'm1', questionIndex: 0 },
      { at: attemptSecond(55), kind: 'assistant-reply', messageId: 'm2', questionIndex: 0 },
      edit(60, 0, 2),
      { at: attemptSecond(70), kind: 'fullscreen-exit' },
      { at: attemptSecond(90), kind: 'submit' },
    ],
    answers: [q1, q2],
    workspaceFiles: [
      {
        path: 'main.py',
        changes: [{ at: attemptSecond(15), content: 'print("hi")', source: 'typed', deleted: false }],
      },
    ],
    messages: [
      { id: 'm1', role: 'user', content: 'What is a greeting?', at: attemptSecond(50) },
      { id: 'm2', role: 'assistant', content: 'A way to say hello.', at: attemptSecond(55) },
    ],
    ...overrides,
  });
}
