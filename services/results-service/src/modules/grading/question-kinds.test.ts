import {
  decodeBlanks,
  decodeMatches,
  decodeOrder,
  encodeBlanks,
  encodeMatches,
  encodeOrder,
} from '@exam/domain/question-kinds';
import { QuestionSchema } from '@exam/domain/question';
import type { InternalExam } from '@exam/domain/internal';
import type { AnswerGroups, QuestionAnswers } from '@exam/domain/question-grading';
import type { ResultDetail } from '@exam/domain/result';
import { buildInternalExam } from '@exam/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, creatorHeaders, type TestApp } from '../../testing/app.ts';
import { sitExam } from '../../testing/sitting.ts';

/**
 * The further question types through submission, the creator's result page, a grader's mark, a regrade and
 * grading by question (docs/product.md#question-types): 4 + 1 + 3 + 4 + 4 + 2 = 18 points.
 */
function kindsExam(overrides: Partial<Record<keyof InternalExam, unknown>> = {}): InternalExam {
  return buildInternalExam({
    passages: [{ id: 'map', title: 'A map of Europe', content: 'France, Spain, Italy and Peru (not in Europe).' }],
    questions: [
      { id: 'essay', type: 'essay', title: 'Discuss', points: 4, essay: { minWords: 3, maxWords: 300 } },
      { id: 'tf', type: 'true-false', title: 'The Earth is flat', correctAnswer: 'false' },
      {
        id: 'order',
        type: 'ordering',
        title: 'Order the planets from the Sun',
        items: ['Mercury', 'Venus', 'Earth', 'Mars'],
        points: 3,
        scoring: 'partial',
      },
      {
        id: 'match',
        type: 'matching',
        title: 'Capitals',
        passageId: 'map',
        points: 4,
        scoring: 'partial',
        pairs: [
          { prompt: 'France', answer: 'Paris' },
          { prompt: 'Spain', answer: 'Madrid' },
          { prompt: 'Italy', answer: 'Rome' },
          { prompt: 'Peru', answer: 'Lima' },
        ],
        distractors: ['Lyon'],
      },
      {
        id: 'gaps',
        type: 'fill-blanks',
        title: 'Water',
        points: 4,
        scoring: 'partial',
        gapText: 'Water boils at [[1]] °C; its formula is [[2]]; at 20 °C it is a [[3]].',
        blanks: [
          { kind: 'numeric', accepted: ['100'], tolerance: 0.5, weight: 2 },
          { kind: 'text', accepted: ['H2O'] },
          { kind: 'choice', options: ['solid', 'liquid', 'gas'], accepted: ['liquid'] },
        ],
      },
      {
        id: 'length',
        type: 'numeric',
        title: 'Length',
        points: 2,
        acceptedAnswers: ['0.125'],
        units: {
          units: [
            { symbol: 'm', multiplier: 1 },
            { symbol: 'cm', multiplier: 100 },
          ],
        },
        matching: { caseSensitive: false, numeric: { tolerance: 0.001, mode: 'absolute' } },
      },
    ],
    ...overrides,
  });
}

const ESSAY = 'The essay argues three points with care.';
const PARTIAL = {
  0: ESSAY,
  1: 'false',
  // Mercury→Venus and Earth→Mars kept, Venus→Earth lost: 2 of 3 pairs.
  2: encodeOrder(['Earth', 'Mars', 'Mercury', 'Venus']),
  // France and Italy right: 2 of 4.
  3: encodeMatches(['Paris', 'Lyon', 'Rome', '']),
  // The numeric gap (weight 2 of 4) right only.
  4: encodeBlanks(['100.2', 'water', 'gas']),
  5: '12.5 cm',
};

describe('the further question types in a result', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  const detailOf = async (resultId: string, headers: Record<string, string>) => {
    const response = await app.inject({ method: 'GET', url: `/api/results/${resultId}`, headers });
    expect(response.statusCode).toBe(200);
    return response.json<ResultDetail>();
  };

  it('scores each type at submission with partial credit and leaves the essay to a grader', async () => {
    const exam = app.exams.put(kindsExam());
    const owner = creatorHeaders(app, exam.ownerId);
    const { resultId } = await sitExam(app, exam.id, PARTIAL);
    const detail = await detailOf(resultId, owner);
    expect(detail.questionAnswers.map((q) => q.points)).toEqual([null, 1, 2, 2, 2, 2]);
    expect(detail).toMatchObject({ score: 9, maxScore: 18, status: 'pending', pendingCount: 1, answeredCount: 6 });
  });

  it('shows the creator each answer and key in words, the parts right, the options and the passage', async () => {
    const exam = app.exams.put(kindsExam());
    const { resultId } = await sitExam(app, exam.id, PARTIAL);
    const [essay, tf, order, match, gaps, length] = (await detailOf(resultId, creatorHeaders(app, exam.ownerId)))
      .questionAnswers;
    expect(essay).toMatchObject({ questionType: 'essay', answer: ESSAY, correctAnswer: null, isGraded: false });
    expect(tf).toMatchObject({ options: ['True', 'False'], answer: 'False', correctAnswer: 'False', points: 1 });
    expect(order).toMatchObject({
      answer: '1. Earth; 2. Mars; 3. Mercury; 4. Venus',
      correctAnswer: '1. Mercury; 2. Venus; 3. Earth; 4. Mars',
      parts: [true, false, true],
    });
    expect(match).toMatchObject({
      answer: 'France → Paris; Spain → Lyon; Italy → Rome; Peru → —',
      correctAnswer: 'France → Paris; Spain → Madrid; Italy → Rome; Peru → Lima',
      parts: [true, false, true, false],
      passageTitle: 'A map of Europe',
    });
    expect(gaps).toMatchObject({
      answer: 'Water boils at [100.2] °C; its formula is [water]; at 20 °C it is a [gas].',
      correctAnswer: 'Water boils at [100 ± 0.5] °C; its formula is [H2O]; at 20 °C it is a [liquid].',
      parts: [true, false, false],
    });
    expect(length).toMatchObject({ answer: '12.5 cm', correctAnswer: '0.125 ± 0.001 m', points: 2 });
    expect(length).not.toHaveProperty('parts');
    expect(essay).not.toHaveProperty('passageTitle');
  });

  it('carries each answer exactly as saved beside its words, and null for a question left unanswered', async () => {
    const exam = app.exams.put(kindsExam());
    const { resultId } = await sitExam(app, exam.id, { ...PARTIAL, 5: '' });
    const answers = (await detailOf(resultId, creatorHeaders(app, exam.ownerId))).questionAnswers;
    expect(answers.map((q) => q.answerValue)).toEqual([PARTIAL[0], 'false', PARTIAL[2], PARTIAL[3], PARTIAL[4], null]);
  });

  it('gives back items, prompts and gap values that hold the text form’s separators exactly as saved', async () => {
    // "; 2. " splits the ordering's text, "→" and "; " the matching's, "]" closes a gap in the blanks' text.
    const items = ['Boil; 2. then stir', 'Pour → serve', 'Taste'];
    const pairs = [
      { prompt: 'A → B', answer: 'x; y' },
      { prompt: 'C', answer: 'z → w' },
    ];
    const exam = app.exams.put(
      kindsExam({
        passages: [],
        questions: [
          { id: 'order', type: 'ordering', title: 'Cook', items, points: 2, scoring: 'partial' },
          { id: 'match', type: 'matching', title: 'Pairs', pairs, points: 2, scoring: 'partial' },
          {
            id: 'gaps',
            type: 'fill-blanks',
            title: 'Brackets',
            gapText: 'Index [[1]] then [[2]].',
            blanks: [{ accepted: ['a[0]'] }, { accepted: ['] ['] }],
            points: 2,
            scoring: 'partial',
          },
        ],
      }),
    );
    const saved = {
      0: encodeOrder(['Pour → serve', 'Boil; 2. then stir', 'Taste']),
      1: encodeMatches(['z → w', 'x; y']),
      2: encodeBlanks(['a[0]', '] [']),
    };
    const { resultId } = await sitExam(app, exam.id, saved);
    const owner = creatorHeaders(app, exam.ownerId);
    const [order, match, gaps] = (await detailOf(resultId, owner)).questionAnswers;
    expect(order).toMatchObject({ answerValue: saved[0], answer: '1. Pour → serve; 2. Boil; 2. then stir; 3. Taste' });
    expect(decodeOrder(order!.answerValue!)).toEqual(['Pour → serve', 'Boil; 2. then stir', 'Taste']);
    expect(decodeMatches(match!.answerValue!, 2)).toEqual(['z → w', 'x; y']);
    expect(decodeBlanks(gaps!.answerValue!, 2)).toEqual(['a[0]', '] [']);
    expect(gaps).toMatchObject({ points: 2, parts: [true, true] });
    const rows = await Promise.all(
      [0, 1, 2].map(async (questionIndex) => {
        const response = await app.inject({
          method: 'GET',
          url: `/api/exams/${exam.id}/questions/${questionIndex}/answers`,
          headers: owner,
        });
        return response.json<QuestionAnswers>().answers[0];
      }),
    );
    expect(rows.map((row) => row?.answerValue)).toEqual([saved[0], saved[1], saved[2]]);
  });

  it('keeps a grader’s essay mark and moves the keyed types’ points when the creator changes their keys', async () => {
    const exam = app.exams.put(kindsExam());
    const owner = creatorHeaders(app, exam.ownerId);
    const { resultId } = await sitExam(app, exam.id, PARTIAL);
    const marked = await app.inject({
      method: 'PATCH',
      url: `/api/results/${resultId}`,
      headers: owner,
      payload: { grading: [{ questionIndex: 0, points: 3.5, feedback: 'Well argued' }] },
    });
    expect(marked.statusCode).toBe(200);
    expect(await detailOf(resultId, owner)).toMatchObject({ score: 12.5, status: 'graded' });

    // The creator decides Spain's answer is Lyon, the right order starts with Earth, and gap 1 wants 100.2 exactly.
    const fix: Record<string, Record<string, unknown>> = {
      tf: { correctAnswer: 'true' },
      order: { items: ['Earth', 'Mars', 'Mercury', 'Venus'] },
      match: {
        pairs: [
          { prompt: 'France', answer: 'Paris' },
          { prompt: 'Spain', answer: 'Lyon' },
          { prompt: 'Italy', answer: 'Rome' },
          { prompt: 'Peru', answer: 'Lima' },
        ],
        distractors: ['Madrid'],
      },
      gaps: {
        blanks: [
          { kind: 'numeric', accepted: ['100'], tolerance: 0, weight: 2 },
          { kind: 'text', accepted: ['water', 'H2O'] },
          { kind: 'choice', options: ['solid', 'liquid', 'gas'], accepted: ['liquid'] },
        ],
      },
      length: { units: { units: [{ symbol: 'm', multiplier: 1 }], required: true } },
    };
    app.exams.put({
      ...exam,
      questions: exam.questions.map((q) => (fix[q.id] ? QuestionSchema.parse({ ...q, ...fix[q.id] }) : q)),
    });
    const regraded = await app.inject({
      method: 'POST',
      url: `/api/exams/${exam.id}/regrade?dryRun=false`,
      headers: owner,
    });
    expect(regraded.statusCode).toBe(200);
    expect(regraded.json()).toMatchObject({ changed: 1 });
    const after = await detailOf(resultId, owner);
    // Essay kept; true/false 1 → 0; ordering 2 → 3; matching 2 → 3; gaps 2 → 1 (only "water"); 12.5 cm no unit m → 0.
    expect(after.questionAnswers.map((q) => q.points)).toEqual([3.5, 0, 3, 3, 1, 0]);
    expect(after).toMatchObject({ score: 10.5, status: 'graded' });
    expect(after.questionAnswers[3]).toMatchObject({ parts: [true, true, true, false] });
    expect(after.questionAnswers[4]).toMatchObject({ parts: [false, true, false] });
  });

  it('groups structured answers by their readable form and marks a whole group at once', async () => {
    const exam = app.exams.put(kindsExam());
    const owner = creatorHeaders(app, exam.ownerId);
    const sit = (answers: Record<number, string>, n: number) =>
      sitExam(app, exam.id, answers, { name: `Candidate ${n}`, studentId: `KIND-${n}-${exam.id.slice(-6)}` });
    const same = encodeMatches(['Paris', 'Madrid', 'Rome', 'Lyon']);
    const a = await sit({ 3: same, 5: '12.5 cm' }, 1);
    const b = await sit({ 3: same, 5: '0.125m' }, 2);
    // One choice apart from the others: another answer, never merged as a typing slip.
    const c = await sit({ 3: encodeMatches(['Paris', 'Madrid', 'Rome', 'Lima']), 5: '12.6 cm' }, 3);
    const groupsOf = async (questionIndex: number) => {
      const response = await app.inject({
        method: 'GET',
        url: `/api/exams/${exam.id}/questions/${questionIndex}/answer-groups`,
        headers: owner,
      });
      expect(response.statusCode).toBe(200);
      return response.json<AnswerGroups>().groups;
    };
    const matching = await groupsOf(3);
    expect(matching.map((g) => g.resultIds)).toEqual([[a.resultId, b.resultId].sort(), [c.resultId]]);
    expect(matching[0]!.answer).toBe('France → Paris; Spain → Madrid; Italy → Rome; Peru → Lyon');
    const numeric = await groupsOf(5);
    expect(numeric.map((g) => [g.answer, g.resultIds])).toEqual([
      ['0.125 m', [a.resultId, b.resultId].sort()],
      ['0.126 m', [c.resultId]],
    ]);

    const marked = await app.inject({
      method: 'POST',
      url: `/api/exams/${exam.id}/questions/3/marks`,
      headers: owner,
      payload: { resultIds: matching[0]!.resultIds, points: 3.5, feedback: 'Lyon is close enough' },
    });
    expect(marked.statusCode).toBe(200);
    for (const { resultId } of [a, b])
      expect((await detailOf(resultId, owner)).questionAnswers[3]).toMatchObject({ points: 3.5, autoScored: false });
    expect((await detailOf(c.resultId, owner)).questionAnswers[3]).toMatchObject({ points: 4, autoScored: true });
  });

  it('lists an essay for a grader (AI suggestions possible) with the essay as its text, and keyed types as not', async () => {
    const exam = app.exams.put(kindsExam());
    const owner = creatorHeaders(app, exam.ownerId);
    await sitExam(app, exam.id, PARTIAL);
    const answersOf = async (questionIndex: number) =>
      (
        await app.inject({
          method: 'GET',
          url: `/api/exams/${exam.id}/questions/${questionIndex}/answers`,
          headers: owner,
        })
      ).json<QuestionAnswers>();
    const essay = await answersOf(0);
    expect(essay).toMatchObject({ type: 'essay', humanGraded: true, maxPoints: 4 });
    expect(essay.answers[0]).toMatchObject({ answer: ESSAY, answerValue: ESSAY, correctAnswer: null });
    const match = await answersOf(3);
    expect(match).toMatchObject({ type: 'matching', humanGraded: false });
    expect(match.answers[0]).toMatchObject({
      answer: 'France → Paris; Spain → Lyon; Italy → Rome; Peru → —',
      answerValue: PARTIAL[3],
      correctAnswer: 'France → Paris; Spain → Madrid; Italy → Rome; Peru → Lima',
    });
    expect(match.answers[0]).not.toHaveProperty('calculatedValues');
  });
});
