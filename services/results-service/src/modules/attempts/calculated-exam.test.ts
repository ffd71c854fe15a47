import { TEST_SECRETS } from '@exam/server-kit/testing';
import { roundTo } from '@exam/domain/formula';
import { PublicExamSchema } from '@exam/domain/public-exam';
import { QuestionSchema } from '@exam/domain/question';
import type { QuestionAnswers } from '@exam/domain/question-grading';
import type { CandidateResult, ResultDetail } from '@exam/domain/result';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { sitExam } from '../../testing/sitting.ts';

/**
 * The key as a number on its own: a short key such as "0.28" is also a substring of timestamps and ids
 * ("…:10.285Z"), so only an occurrence not inside a longer number counts as the key being sent.
 */
function asNumber(key: string): RegExp {
  return new RegExp(`(?<![\\d.])${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\d])`);
}

/**
 * A calculated question (docs/product.md#question-types): each attempt gets its own values, the same ones on every
 * read, and the key computed from them is never in any response to the candidate.
 *
 * a in [1.01, 1.99] and b in [3, 7] make a² / b a number with decimals that nothing else in a response holds by
 * chance (no value, id or instant reads "0.4563"), so finding it is finding the key.
 */
const FORMULA = 'a ^ 2 / b';
const calculatedQuestion = {
  id: 'calc',
  type: 'calculated',
  title: 'Square {a} over {b}',
  content: 'Compute {a}² divided by {b}, in cm³.',
  points: 2,
  passageId: 'formulas',
  calculated: {
    formula: FORMULA,
    variables: [
      { name: 'a', min: 1.01, max: 1.99, decimals: 2 },
      { name: 'b', min: 3, max: 7, decimals: 0 },
    ],
    answerDecimals: 4,
  },
  units: { units: [{ symbol: 'cm³', multiplier: 1 }] },
  matching: { caseSensitive: false, numeric: { tolerance: 0.0001, mode: 'absolute' } },
};

function calculatedExam(overrides: Record<string, unknown> = {}) {
  return makeExam({
    releasePolicy: 'immediately',
    showAnswerKeys: false,
    passages: [
      { id: 'formulas', title: 'Formula sheet', content: 'Area: $a^2$' },
      { id: 'unused', title: 'Unused', content: 'Nobody refers to this' },
    ],
    questions: [calculatedQuestion, { id: 'other', type: 'short-answer', title: 'Name it', acceptedAnswers: ['x'] }],
    ...overrides,
  });
}

describe('a calculated question in an attempt', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  const owner = (exam: { ownerId: string }) => creatorHeaders(app, exam.ownerId);

  /** The creator's view of a submitted result: the candidate's values and key. */
  async function keyOf(resultId: string, exam: { ownerId: string }) {
    const detail = (
      await app.inject({ method: 'GET', url: `/api/results/${resultId}`, headers: owner(exam) })
    ).json<ResultDetail>();
    const q = detail.questionAnswers[0]!;
    return { values: q.calculatedValues!, key: q.correctAnswer!.replace(' ± 0.0001 cm³', ''), detail };
  }

  it('never sends the candidate the key, the formula, the ranges or the values as data', async () => {
    const exam = app.exams.put(calculatedExam());
    const responses: string[] = [];
    const attemptIds: string[] = [];
    for (let i = 0; i < 5; i++) {
      const started = await app.inject({
        method: 'POST',
        url: '/api/attempts',
        payload: { examId: exam.id, name: `Candidate ${i}`, studentId: `calc-${i}` },
      });
      expect(started.statusCode).toBe(201);
      responses.push(started.body);
      const { attemptId, token } = started.json<{ attemptId: string; token: string }>();
      attemptIds.push(attemptId);
      const headers = { authorization: `Bearer ${token}` };
      const call = async (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) => {
        const response = await app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
        expect(response.statusCode, url).toBeLessThan(300);
        responses.push(response.body);
        return response;
      };
      const view = PublicExamSchema.parse((await call('GET', `/api/attempts/${attemptId}/exam`)).json());
      expect(view.passages).toEqual([{ id: 'formulas', title: 'Formula sheet', content: 'Area: $a^2$' }]);
      expect(view.questions[0]).toMatchObject({ type: 'calculated', passageId: 'formulas', unitSymbols: ['cm³'] });
      expect(view.questions[0]!.title).toMatch(/^Square 1\.\d\d over [3-7]$/);
      await call('GET', `/api/attempts/${attemptId}`);
      await call('PUT', `/api/attempts/${attemptId}/answers/0`, { answer: '5 cm³', seq: 1 });
      const submitted = await call('POST', `/api/attempts/${attemptId}/submit`);
      // The result is shown at once (releasePolicy immediately) but without keys; it is not released.
      await call('GET', `/api/attempts/${attemptId}/result`);
      const internal = await app.inject({
        method: 'GET',
        url: `/internal/attempts/${attemptId}`,
        headers: { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN },
      });

      const { key, values, detail } = await keyOf(submitted.json<{ resultId: string }>().resultId, exam);
      expect(detail.status).toBe('graded');
      expect(detail.questionAnswers[0]).toMatchObject({ points: 0, passageTitle: 'Formula sheet' });
      expect(key).toMatch(/^[01]\.\d{1,4}$/);
      expect(Number(key)).toBeCloseTo(roundTo(values.a! ** 2 / values.b!, 4), 9);
      const mine = responses.join('\n');
      expect(mine).not.toMatch(asNumber(key));
      expect(mine).toContain(`Square ${values.a!.toFixed(2)} over ${values.b}`);
      for (const secret of [FORMULA, '"formula"', '"variables"', '"calculatedValues"', '"answerDecimals"', '"values"'])
        expect(mine).not.toContain(secret);
      expect(mine).not.toContain('Nobody refers to this');
      // The internal route answers services (the internal token), never the candidate: llm-gateway's answer guard
      // is given this attempt's key there, and nothing it could compute other keys from.
      expect(internal.json<{ calculatedKeys: Array<{ key: string }> }>().calculatedKeys).toMatchObject([{ key }]);
      for (const secret of [FORMULA, '"formula"', '"variables"']) expect(internal.body).not.toContain(secret);
      responses.length = 0;
    }
    expect(new Set(attemptIds).size).toBe(5);
  });

  it('gives an attempt the same values on every read and resume, and each attempt its own', async () => {
    const exam = app.exams.put(calculatedExam());
    const first = await startAttempt(app, exam.id, { studentId: 'same-1' });
    const title = async (attempt: { attemptId: string; headers: Record<string, string> }) =>
      PublicExamSchema.parse(
        (
          await app.inject({ method: 'GET', url: `/api/attempts/${attempt.attemptId}/exam`, headers: attempt.headers })
        ).json(),
      ).questions[0]!.title;
    const seen = await title(first);
    expect(await title(first)).toBe(seen);
    const resumed = await startAttempt(app, exam.id, { studentId: 'same-1', resumeSecret: first.resumeSecret });
    expect(resumed.attemptId).toBe(first.attemptId);
    expect(await title(resumed)).toBe(seen);
    const titles = new Set([seen]);
    for (let i = 0; i < 8; i++) titles.add(await title(await startAttempt(app, exam.id, { studentId: `other-${i}` })));
    // 99 × 5 value pairs: nine attempts all drawing one pair would be a broken draw.
    expect(titles.size).toBeGreaterThan(1);
  });

  it('scores the candidate’s own key, and keeps their values through a regrade of a corrected formula and a release', async () => {
    const exam = app.exams.put(calculatedExam());
    const started = await startAttempt(app, exam.id, { studentId: 'right' });
    const submit = async (answer: string) => {
      await app.inject({
        method: 'PUT',
        url: `/api/attempts/${started.attemptId}/answers/0`,
        headers: started.headers,
        payload: { answer, seq: 1 },
      });
      return (
        await app.inject({ method: 'POST', url: `/api/attempts/${started.attemptId}/submit`, headers: started.headers })
      ).json<{ resultId: string }>().resultId;
    };
    // The creator reads the key this attempt was given; the candidate answers with it, in the unit.
    const view = PublicExamSchema.parse(
      (
        await app.inject({ method: 'GET', url: `/api/attempts/${started.attemptId}/exam`, headers: started.headers })
      ).json(),
    );
    const [, a, b] = /^Square (\S+) over (\d)$/.exec(view.questions[0]!.title)!;
    const expected = roundTo(Number(a) ** 2 / Number(b), 4);
    const resultId = await submit(`${expected} cm³`);
    const before = await keyOf(resultId, exam);
    expect(before.values).toEqual({ a: Number(a), b: Number(b) });
    expect(before.detail.questionAnswers[0]).toMatchObject({
      points: 2,
      maxPoints: 2,
      calculatedValues: before.values,
    });
    expect(before.detail.questionAnswers[0]!.correctAnswer).toBe(`${expected} ± 0.0001 cm³`);

    // The creator corrects the formula and narrows the ranges so that no value the candidate had could be drawn.
    app.exams.put({
      ...exam,
      questions: [
        QuestionSchema.parse({
          ...calculatedQuestion,
          calculated: {
            ...calculatedQuestion.calculated,
            formula: 'a ^ 2 / b * 2',
            variables: [
              { name: 'a', min: 5, max: 6, decimals: 0 },
              { name: 'b', min: 8, max: 9, decimals: 0 },
            ],
          },
        }),
        exam.questions[1]!,
      ],
    });
    const regraded = await app.inject({
      method: 'POST',
      url: `/api/exams/${exam.id}/regrade?dryRun=false`,
      headers: owner(exam),
    });
    expect(regraded.statusCode).toBe(200);
    const after = await keyOf(resultId, exam);
    expect(after.values).toEqual(before.values);
    expect(Number(after.key)).toBeCloseTo(roundTo((Number(a) ** 2 / Number(b)) * 2, 4), 9);
    expect(after.detail.questionAnswers[0]).toMatchObject({ points: 0 });
    expect(after.detail.questionAnswers[0]!.question).toBe(view.questions[0]!.title);

    const released = await app.inject({
      method: 'POST',
      url: `/api/results/${resultId}/release`,
      headers: owner(exam),
      payload: { released: true },
    });
    expect(released.statusCode).toBe(200);
    const kept = await keyOf(resultId, exam);
    expect(kept.values).toEqual(before.values);
    expect(kept.key).toBe(after.key);
  });

  it('gives grading by question each candidate’s own key and values, and the candidate the key only when shown', async () => {
    const exam = app.exams.put(calculatedExam({ releasePolicy: 'on-release' }));
    const sat = [];
    for (let i = 0; i < 3; i++) {
      const { resultId, attempt } = await sitExam(app, exam.id, { 0: '1 cm³' }, { studentId: `by-question-${i}` });
      sat.push({ resultId, attempt, ...(await keyOf(resultId, exam)) });
    }
    const response = await app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/questions/0/answers`,
      headers: owner(exam),
    });
    expect(response.statusCode).toBe(200);
    const rows = response.json<QuestionAnswers>().answers;
    expect(rows.map((r) => [r.resultId, r.correctAnswer, r.calculatedValues, r.answerValue])).toEqual(
      sat.map((s) => [s.resultId, `${s.key} ± 0.0001 cm³`, s.values, '1 cm³']),
    );
    // The other question of the exam has no values to show.
    const other = await app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/questions/1/answers`,
      headers: owner(exam),
    });
    expect(other.json<QuestionAnswers>().answers[0]).toMatchObject({ correctAnswer: 'x' });
    expect(other.json<QuestionAnswers>().answers[0]).not.toHaveProperty('calculatedValues');

    const { resultId, attempt, key } = sat[0]!;
    await app.inject({
      method: 'POST',
      url: `/api/results/${resultId}/release`,
      headers: owner(exam),
      payload: { released: true },
    });
    const candidateView = async () => {
      const result = await app.inject({
        method: 'GET',
        url: `/api/attempts/${attempt.attemptId}/result`,
        headers: attempt.headers,
      });
      expect(result.statusCode).toBe(200);
      return result;
    };
    const hidden = await candidateView();
    expect(hidden.json<CandidateResult>().questions[0]).toMatchObject({ answer: '1 cm³', correctAnswer: null });
    for (const field of ['"calculatedValues"', '"answerValue"']) expect(hidden.body).not.toContain(field);
    expect(hidden.body).not.toMatch(asNumber(key));

    app.exams.put({ ...exam, showAnswerKeys: true });
    const shown = await candidateView();
    expect(shown.json<CandidateResult>().questions[0]).toMatchObject({ correctAnswer: `${key} ± 0.0001 cm³` });
    for (const field of ['"calculatedValues"', '"answerValue"']) expect(shown.body).not.toContain(field);
  });

  it('refuses a result before release without a key in the refusal', async () => {
    const exam = app.exams.put(calculatedExam({ releasePolicy: 'on-release', showAnswerKeys: true }));
    const started = await startAttempt(app, exam.id);
    await app.inject({
      method: 'POST',
      url: `/api/attempts/${started.attemptId}/submit`,
      headers: started.headers,
    });
    const result = await app.inject({
      method: 'GET',
      url: `/api/attempts/${started.attemptId}/result`,
      headers: started.headers,
    });
    expect(result.statusCode).toBe(403);
    expect(result.body).not.toContain(FORMULA);
    expect(result.body).not.toMatch(/[01]\.\d{3,4}/);
  });
});
