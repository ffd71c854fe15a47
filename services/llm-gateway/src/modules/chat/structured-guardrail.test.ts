import { instantiateQuestion } from '@exam/domain/calculated';
import { QuestionSchema, toPublicQuestion } from '@exam/domain/question';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openAiFrames, recordingHandler, sseResponse, type RecordedCall } from '../../testing/provider-mocks.ts';
import { buildTestApp, creatorHeaders, startAttempt, TEST_ENDPOINTS, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { deltasOf, sseEvents } from '../../testing/sse.ts';

const OPENAI = `${TEST_ENDPOINTS.openai}/chat/completions`;
const server = setupServer();
const calls: RecordedCall[] = [];
const replyWith = (texts: string[]) =>
  server.use(recordingHandler(OPENAI, calls, () => sseResponse(openAiFrames(texts), { gapMs: 1 })));

const calculated = QuestionSchema.parse({
  id: 'calc',
  type: 'calculated',
  title: 'A runner covers {d} m in {t} s. What is the average speed?',
  calculated: {
    formula: 'd / t',
    variables: [
      { name: 'd', min: 100, max: 200, decimals: 0 },
      { name: 't', min: 9, max: 12, decimals: 1 },
    ],
    answerDecimals: 2,
  },
  matching: { numeric: { tolerance: 0.01, mode: 'absolute' } },
  units: { units: [{ symbol: 'm/s', multiplier: 1 }], required: false },
});

const questions = [
  QuestionSchema.parse({
    id: 'tf',
    type: 'true-false',
    title: 'The median always lies between the minimum and the maximum.',
    correctAnswer: 'true',
  }),
  QuestionSchema.parse({
    id: 'ord',
    type: 'ordering',
    title: 'Order the steps',
    items: ['Collect the data', 'Clean the data', 'Fit the model', 'Report the results'],
  }),
  QuestionSchema.parse({
    id: 'match',
    type: 'matching',
    title: 'Match the capitals',
    pairs: [
      { prompt: 'France', answer: 'Paris' },
      { prompt: 'Spain', answer: 'Madrid' },
    ],
    distractors: ['Lisbon'],
  }),
  QuestionSchema.parse({
    id: 'gaps',
    type: 'fill-blanks',
    title: 'Complete',
    gapText: 'Plants make sugar by [[1]].',
    blanks: [{ kind: 'text', accepted: ['photosynthesis'] }],
  }),
  QuestionSchema.parse({
    id: 'num',
    type: 'numeric',
    title: 'A 50 cm rod is cut into four equal parts. How long is each?',
    acceptedAnswers: ['0.125'],
    matching: { numeric: { tolerance: 0.001, mode: 'absolute' } },
    units: {
      units: [
        { symbol: 'm', multiplier: 1 },
        { symbol: 'cm', multiplier: 100 },
      ],
    },
  }),
  calculated,
  QuestionSchema.parse({ id: 'essay', type: 'essay', title: 'Discuss the mean and the median' }),
];

describe('the "stop solutions" guard on the stream, for every question type', () => {
  let app: TestApp;
  beforeAll(async () => {
    server.listen({ onUnhandledRequest: 'error' });
    app = await buildTestApp();
  });
  afterEach(() => {
    server.resetHandlers();
    calls.length = 0;
  });
  afterAll(async () => {
    await app.close();
    server.close();
  });

  // The candidate's own calculated question, as results-service's snapshot instantiated it at start.
  const mine = instantiateQuestion(calculated, 'attempt-seed-1');
  const key = mine.acceptedAnswers[0]!;
  const attemptOf = () => {
    const exam = makeExam({ questions, ai: { stopSolutions: true } });
    const seen = questions.map((q) => (q.id === 'calc' ? mine : q)).map(toPublicQuestion);
    const calculatedKeys = [
      { questionIndex: 5, questionId: 'calc', key, tolerance: mine.matching.numeric, units: mine.units },
    ];
    return { exam, ...startAttempt(app, exam, { questions: seen, calculatedKeys }) };
  };
  const ask = (headers: Record<string, string>, questionIndex: number) =>
    app.inject({ method: 'POST', url: '/api/llm/chat', headers, payload: { message: 'Help?', questionIndex } });

  const cases: Array<{ type: string; index: number; leaking: string[]; given: RegExp; clean: string[] }> = [
    {
      type: 'true-false',
      index: 0,
      leaking: ['Think of the middle value. The statement is tr', 'ue, so you can tick it.'],
      given: /\btrue\b/i,
      clean: ['Is it true or false? Try it on a sample ', 'of three numbers and see where the middle value falls.'],
    },
    {
      type: 'ordering',
      index: 1,
      leaking: [
        'The order: Collect the data, then Clean the ',
        'data, then Fit the model, and last Report the results.',
      ],
      given: /Fit the model/,
      clean: ['Ask yourself whether you can fit the model ', 'before you collect the data.'],
    },
    {
      type: 'matching',
      index: 2,
      leaking: ['Easy one: France goes with Pa', 'ris and the other is clear.'],
      given: /France goes with Paris/,
      clean: ['France and Spain: which of Paris, Madrid ', 'and Lisbon is each government seated in?'],
    },
    {
      type: 'fill-blanks',
      index: 3,
      leaking: ['The gap is photo', 'synthesis.'],
      given: /photosynthesis/i,
      clean: ['Think about what plants do with light in their leaves.'],
    },
    {
      type: 'numeric',
      index: 4,
      leaking: ['Divide the 50 cm by 4: each part is 12', '.5 cm long.'],
      given: /12\.5/,
      clean: ['Divide the 50 cm you are given by the 4 ', 'parts, and mind the unit.'],
    },
    {
      type: 'calculated',
      index: 5,
      leaking: ['Speed is distance over time, so you get ', `${key} m/s here.`],
      given: new RegExp(key.replace('.', '\\.')),
      clean: ['Speed is distance over time: divide your distance by your time, in m/s.'],
    },
  ];

  for (const c of cases) {
    it(`stops a streamed reply stating the key of a ${c.type} question, and lets a hint through`, async () => {
      const { exam, attemptId, headers } = attemptOf();
      replyWith(c.leaking);
      const stopped = sseEvents((await ask(headers, c.index)).payload);
      expect(stopped.at(-1)?.type).toBe('withheld');
      expect(deltasOf(stopped).join('')).not.toMatch(c.given);

      const graded = await app.inject({
        method: 'GET',
        url: `/api/llm/attempts/${attemptId}/transcript`,
        headers: creatorHeaders(app, exam.ownerId),
      });
      expect(graded.json().messages.at(-1)).toMatchObject({ isWithheld: true, withheldQuestionIndex: c.index });

      replyWith(c.clean);
      const passed = sseEvents((await ask(headers, c.index)).payload);
      expect(passed.at(-1)?.type).toBe('done');
      expect(deltasOf(passed).join('')).toBe(c.clean.join(''));
    });
  }

  it('lets a model essay through: an essay has no key beyond the prompt', async () => {
    const { headers } = attemptOf();
    const essay = ['The mean uses every value, so one outlier moves it; ', 'the median only cares about the middle.'];
    replyWith(essay);
    const events = sseEvents((await ask(headers, 6)).payload);
    expect(events.at(-1)?.type).toBe('done');
    expect(deltasOf(events).join('')).toBe(essay.join(''));
  });

  it("guards the candidate's own calculated key only: another attempt's key passes", async () => {
    const { headers } = attemptOf();
    const other = instantiateQuestion(calculated, 'another-attempt');
    const theirs = other.acceptedAnswers[0]!;
    expect(theirs).not.toBe(key);
    const reply = [`Someone else got ${theirs} m/s, but your numbers differ.`];
    replyWith(reply);
    const events = sseEvents((await ask(headers, 5)).payload);
    expect(events.at(-1)?.type).toBe('done');
  });
});
