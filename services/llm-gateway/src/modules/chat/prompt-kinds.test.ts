import { instantiateQuestion } from '@exam/domain/calculated';
import { QuestionSchema, toPublicQuestion, type Question } from '@exam/domain/question';
import { describe, expect, it } from 'vitest';
import { makeExam } from '../../testing/exams.ts';
import { upstreamRequest } from './prepared-chat.ts';
import { buildSystemPrompt, PASSAGE_MAX, PASSAGES_MAX } from './prompt.ts';

const ordering = QuestionSchema.parse({
  id: 'ord',
  type: 'ordering',
  title: 'Order the steps',
  items: ['Collect the data', 'Clean the data', 'Fit the model', 'Report the results'],
});
const questions: Question[] = [
  QuestionSchema.parse({
    id: 'essay',
    type: 'essay',
    title: 'Discuss the median',
    essay: { minWords: 150, maxWords: 400, formatted: true },
    passageId: 'reading',
  }),
  QuestionSchema.parse({
    id: 'tf',
    type: 'true-false',
    title: 'The median resists outliers.',
    correctAnswer: 'true',
    passageId: 'reading',
  }),
  ordering,
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
    gapText: 'Plants make sugar by [[1]] in the [[2]].',
    blanks: [
      { kind: 'text', accepted: ['CANARY-GAP-4411'] },
      { kind: 'choice', accepted: ['leaves'], options: ['roots', 'leaves', 'stem'] },
    ],
  }),
  QuestionSchema.parse({
    id: 'num',
    type: 'numeric',
    title: 'How long is each part?',
    acceptedAnswers: ['0.125'],
    units: {
      units: [
        { symbol: 'm', multiplier: 1 },
        { symbol: 'cm', multiplier: 100 },
      ],
      required: true,
    },
  }),
  instantiateQuestion(
    QuestionSchema.parse({
      id: 'calc',
      type: 'calculated',
      title: 'Speed over {d} m in {t} s?',
      calculated: {
        formula: 'd / t',
        variables: [
          { name: 'd', min: 100, max: 200, decimals: 0 },
          { name: 't', min: 9, max: 12, decimals: 1 },
        ],
        answerDecimals: 2,
      },
      units: { units: [{ symbol: 'm/s', multiplier: 1 }] },
    }),
    'seed',
  ),
];
const reading = { id: 'reading', title: 'On medians', content: 'The median is the middle value of sorted data.' };

function promptOf(qs: Question[], passages = [reading]) {
  const exam = makeExam({ questions: qs });
  return buildSystemPrompt({
    questions: qs.map(toPublicQuestion),
    passages,
    materialTexts: [],
    aiSettings: exam.aiSettings,
    questionIndex: null,
  });
}

describe('the prompt describes each question type as the candidate sees it', () => {
  const text = promptOf(questions);

  it('gives the essay limits, the ordering items, the matching prompts and answers, the gap text and units', () => {
    expect(text).toContain('Q1: Discuss the median (essay)');
    expect(text).toContain('an essay (at least 150 words, at most 400 words) in a formatted editor (Markdown)');
    expect(text).toContain('whether the statement is true or false');
    expect(text).toContain(
      'The candidate puts these items in the right order (listed here as shown, not in that order): 1) ',
    );
    expect(text).toContain('Prompts: 1) France; 2) Spain');
    expect(text).toMatch(/Answers to pick from \(some may fit none\): .*Lisbon/);
    expect(text).toContain('Plants make sugar by [gap 1] in the [gap 2].');
    expect(text).toContain('gap 2: roots / leaves / stem');
    expect(text).toContain('with a number, in m, cm (the unit must be given)');
  });

  it("shows a calculated question with the candidate's values, never its formula or key", () => {
    const calc = questions[6]!;
    expect(text).toContain(`Q7: ${calc.title} (calculated)`);
    expect(calc.title).not.toContain('{d}');
    expect(text).not.toContain('d / t');
    expect(text).not.toContain(calc.acceptedAnswers[0]!);
  });

  it('never carries a key: no pair, no gap answer, no right order, no truth value', () => {
    expect(text).not.toContain('CANARY-GAP-4411');
    expect(text).not.toMatch(/France\W+Paris/);
    expect(text).not.toContain('0.125');
    expect(text).not.toMatch(/\bTrue\b/);
    const shown = toPublicQuestion(ordering).items!;
    expect(shown).not.toEqual(ordering.items);
    expect(text).toContain(shown.map((item, i) => `${i + 1}) ${item}`).join('; '));
  });

  it('includes each passage a question refers to once, and names it at the question', () => {
    expect(text).toContain('It refers to passage P1 ("On medians").');
    expect(text.split('The median is the middle value of sorted data.')).toHaveLength(2);
    expect(text).toContain('Passages the questions refer to:\n\n[P1: On medians]');
    expect(promptOf(questions.slice(2))).not.toContain('On medians');
  });

  it('cuts each passage and all of them together', () => {
    const long = Array.from({ length: 5 }, (_, i) => ({ id: `p${i}`, title: '', content: `${i}`.repeat(10_000) }));
    const qs = long.map((p, i) =>
      QuestionSchema.parse({ id: `q${i}`, type: 'essay', title: 'Discuss', passageId: p.id }),
    );
    const cutText = promptOf(qs, long);
    const section = cutText.split('Passages the questions refer to:\n\n')[1]!;
    expect(section).toContain(`${'0'.repeat(PASSAGE_MAX)} […]`);
    expect(section).not.toContain('0'.repeat(PASSAGE_MAX + 1));
    expect(section.replace(/[^0-9]/g, '').length).toBeLessThanOrEqual(PASSAGES_MAX + 10);
    expect(section).not.toContain('[P5]');
  });
});

describe('the live exam in the prompt (Test Assistant, probes)', () => {
  it("is turned into the candidate's view: an ordering's right order never reaches the provider", () => {
    const exam = makeExam({ questions: [ordering] });
    const target = { provider: 'openai', model: 'gpt-4o-mini', apiKey: 'sk-test', vision: false } as Parameters<
      typeof upstreamRequest
    >[2];
    const request = upstreamRequest(exam, undefined, target, 0, [{ role: 'user', content: 'Help' }]);
    expect(request.system).not.toContain(ordering.items.map((item, i) => `${i + 1}) ${item}`).join('; '));
    expect(request.system).toContain('Fit the model');
  });
});
