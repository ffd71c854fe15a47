import { describe, expect, it } from 'vitest';
import { replayWithSources, sharesOf, type AnswerOperation } from './answer-operations.ts';
import {
  asksQuestion,
  collaborationFigures,
  independenceLevel,
  integrationFigures,
  integrationLevel,
  pastesQuestion,
  pushesBack,
  VERIFICATION_WINDOW_MS,
  type CollaborationQuestion,
} from './collaboration-figures.ts';
import type { Timeline, TimelineAnswer, TimelineEvent, TypingSignals } from './timeline.ts';

const at = (clock: string) => `2026-03-02T${clock}.000Z`;
const NO_SIGNALS = {} as TypingSignals;

function answer(questionIndex: number, operations: AnswerOperation[]): TimelineAnswer {
  const { text, runs } = replayWithSources(operations);
  return {
    questionIndex,
    final: text,
    operations,
    sources: sharesOf(runs),
    runs,
    reconciled: false,
    signals: NO_SIGNALS,
  };
}

const QUESTIONS: CollaborationQuestion[] = [
  {
    index: 0,
    title: 'Sorting',
    content: 'Write a function that sorts a list of integers in ascending order without using the built in sort.',
  },
  { index: 1, title: 'Complexity', content: 'Explain the time complexity of binary search.' },
];

const ASSISTANT_CODE = 'def sort(xs):\n    return sorted(xs)\n'; // 36 characters
const ASSISTANT_PROSE = 'Binary search halves the range, so it takes log2(n) steps.'; // 58 characters
const TYPED_TAIL = ' For 1000 items that is about 10 steps.'; // 39 characters

/**
 * A scripted attempt. Four messages: u1 pastes question 0 whole (18 words); u2 pushes back right after a reply
 * (6 words); u3 asks a question right after a reply (10 words); u4 asks again after a reply the guardrail stopped
 * (6 words). Replies a1 and a2 (question 0) are followed within five minutes by a test run (10:05) and a typed edit
 * (10:04); a4 (question 1) by neither (the typed edit comes 8½ minutes later). From the assistant: 36 + 58 = 94
 * characters inserted; 6 of them replaced by typing ("sorted" → "merge"), so 88 kept, of 35 + 97 = 132 final ones.
 */
function scripted(): Timeline {
  const sortedAt = ASSISTANT_CODE.indexOf('sorted');
  const answers = [
    answer(0, [
      { at: at('10:01:40'), from: 0, to: 0, insert: ASSISTANT_CODE, source: 'assistant' },
      { at: at('10:04:00'), from: sortedAt, to: sortedAt + 6, insert: 'merge', source: 'typed' },
    ]),
    answer(1, [
      { at: at('10:22:00'), from: 0, to: 0, insert: ASSISTANT_PROSE, source: 'assistant' },
      {
        at: at('10:30:00'),
        from: ASSISTANT_PROSE.length,
        to: ASSISTANT_PROSE.length,
        insert: TYPED_TAIL,
        source: 'typed',
      },
    ]),
  ];
  const messages: Timeline['messages'] = [
    { id: 'u1', role: 'user', content: QUESTIONS[0]!.content, at: at('10:01:00') },
    { id: 'a1', role: 'assistant', content: ASSISTANT_CODE, at: at('10:01:20') },
    { id: 'u2', role: 'user', content: 'This is wrong for negative numbers.', at: at('10:03:00') },
    { id: 'a2', role: 'assistant', content: 'You are right; use merge sort.', at: at('10:03:30') },
    { id: 'u3', role: 'user', content: 'Why does halving the range each step give a logarithm?', at: at('10:20:00') },
    { id: 'a3', role: 'assistant', content: '', at: at('10:20:10') },
    { id: 'u4', role: 'user', content: 'How many steps for 1000 items?', at: at('10:21:00') },
    { id: 'a4', role: 'assistant', content: ASSISTANT_PROSE, at: at('10:21:30') },
  ];
  const kinds: Record<string, TimelineEvent['kind']> = { a3: 'guardrail-stop' };
  const events: TimelineEvent[] = [
    ...messages.map((m) => ({
      at: m.at,
      kind: kinds[m.id] ?? (m.role === 'user' ? ('assistant-user' as const) : ('assistant-reply' as const)),
      messageId: m.id,
      questionIndex: ['u1', 'a1', 'u2', 'a2'].includes(m.id) ? 0 : 1,
    })),
    ...answers.flatMap((a) =>
      a.operations.map((op, operation) => ({
        at: op.at,
        kind: 'answer-edit' as const,
        questionIndex: a.questionIndex,
        operation,
      })),
    ),
    { at: at('10:05:00'), kind: 'test-run', questionIndex: 0, passed: 3, total: 3 },
    { at: at('10:40:00'), kind: 'submit' },
  ];
  return {
    resultId: 'r1',
    attemptId: 'a1',
    startedAt: at('10:00:00'),
    submittedAt: at('10:40:00'),
    events: events.sort((x, y) => Date.parse(x.at) - Date.parse(y.at)),
    answers,
    workspaceFiles: [],
    messages,
    unavailable: [],
  };
}

describe('collaborationFigures on a scripted timeline', () => {
  const figures = collaborationFigures(scripted(), QUESTIONS);

  it('reproduces the framing figures: 4 sent, 1 pasting the question, 2 asking, 10 words on average', () => {
    expect(figures.framing).toEqual({ messagesSent: 4, questionPasteShare: 1 / 4, askingShare: 2 / 4, meanWords: 10 });
  });

  it('reproduces the verification figures: 2 of 3 replies tested and edited within the window, 1 of 2 pushbacks', () => {
    expect(figures.verification).toEqual({
      replies: 3,
      testedShare: 2 / 3,
      editedShare: 2 / 3,
      pushbackShare: 1 / 2,
      pushbackMessages: 1,
    });
  });

  it('reproduces the integration figures: 94 inserted, 88 kept of 132 characters, level 0', () => {
    expect(scripted().answers.map((a) => a.final)).toEqual([
      'def sort(xs):\n    return merge(xs)\n',
      ASSISTANT_PROSE + TYPED_TAIL,
    ]);
    expect(figures.integration).toEqual({
      assistantInserted: 94,
      assistantKept: 88,
      keptShare: 88 / 94,
      changedShare: 1 - 88 / 94,
      assistantShareOfAnswers: 88 / 132,
    });
    expect(integrationLevel(figures.integration.keptShare!)).toBe(0);
  });

  it('stops counting a follow-up one millisecond past the window', () => {
    const timeline = scripted();
    const run = timeline.events.find((e) => e.kind === 'test-run')!;
    // a2 came at 10:03:30: a run at exactly 10:08:30 still follows it, one at 10:08:30.001 does not (nor a1's).
    run.at = new Date(Date.parse(at('10:03:30')) + VERIFICATION_WINDOW_MS).toISOString();
    expect(collaborationFigures(timeline, QUESTIONS).verification.testedShare).toBe(1 / 3);
    run.at = new Date(Date.parse(at('10:03:30')) + VERIFICATION_WINDOW_MS + 1).toISOString();
    expect(collaborationFigures(timeline, QUESTIONS).verification.testedShare).toBe(0);
  });

  it('gives null shares and no level for a candidate who never used the assistant', () => {
    const timeline: Timeline = { ...scripted(), messages: [], events: [], answers: [answer(0, [])] };
    const none = collaborationFigures(timeline, QUESTIONS);
    expect(none.framing).toEqual({ messagesSent: 0, questionPasteShare: null, askingShare: null, meanWords: null });
    expect(none.verification).toMatchObject({ replies: 0, testedShare: null, pushbackShare: null });
    expect(none.integration).toMatchObject({ assistantInserted: 0, keptShare: null, assistantShareOfAnswers: null });
    expect(integrationLevel(none.integration.keptShare!)).toBeNull();
  });
});

describe('the plain rules behind the figures', () => {
  it('counts a message as pasting the question when half its word 5-grams come along, whatever is around them', () => {
    const q = QUESTIONS[0]!;
    expect(pastesQuestion(`Please solve: ${q.content} Thanks!`, q)).toBe(true);
    expect(pastesQuestion('How do I sort a list of integers in ascending order?', q)).toBe(false);
    // A short question is one shingle of all its words.
    expect(pastesQuestion('so what is 2 + 2?', { title: '', content: 'What is 2+2' })).toBe(true);
    expect(pastesQuestion('what is 3 + 2', { title: '', content: 'What is 2+2' })).toBe(false);
    expect(pastesQuestion('so, explain the time complexity of binary search please', QUESTIONS[1]!)).toBe(true);
  });

  it('reads a question mark in any script as asking, and pushback markers only at a word start', () => {
    expect(asksQuestion('¿Por qué?')).toBe(true);
    expect(asksQuestion('Do it.')).toBe(false);
    expect(pushesBack('Are you sure? It didn’t work')).toBe(true);
    expect(pushesBack('Thanks, that helps')).toBe(false);
    expect(pushesBack('terror')).toBe(false);
  });

  it('maps kept shares to integration levels at the documented cut points', () => {
    expect([1, 0.9, 0.89, 0.65, 0.64, 0.35, 0.34, 0.1, 0.09, 0].map(integrationLevel)).toEqual([
      0, 0, 1, 1, 2, 2, 3, 3, 4, 4,
    ]);
    expect(integrationFigures([])).toMatchObject({ keptShare: null, assistantShareOfAnswers: null });
  });

  it('maps the aided/unaided gap to independence levels, never below 3 while the interval reaches 0', () => {
    const gap = (estimate: number | null, low: number | null = estimate) => ({ estimate, low, high: null });
    expect(independenceLevel(null)).toBeNull();
    expect(independenceLevel(gap(null))).toBeNull();
    expect(independenceLevel(gap(-0.4))).toBe(4);
    expect(independenceLevel(gap(0))).toBe(4);
    expect(independenceLevel(gap(0.3, 0.1))).toBe(3);
    expect(independenceLevel(gap(1.8, -0.1))).toBe(3);
    expect(independenceLevel(gap(0.5, 0.2))).toBe(2);
    expect(independenceLevel(gap(1, 0.4))).toBe(1);
    expect(independenceLevel(gap(1.49, 0.4))).toBe(1);
    expect(independenceLevel(gap(1.5, 0.9))).toBe(0);
  });
});
