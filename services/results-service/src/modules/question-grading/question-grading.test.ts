import { createHash, randomUUID } from 'node:crypto';
import { QuestionSchema } from '@exam/domain/question';
import type { InternalExam } from '@exam/domain/internal';
import { SuggestionMessages, type AnswerGroups, type QuestionAnswers } from '@exam/domain/question-grading';
import type { ResultDetail } from '@exam/domain/result';
import { buildInternalExam } from '@exam/domain/testing';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradeHistory, gradingSuggestions } from '../../db/schema.ts';
import { buildTestApp, creatorHeaders, type TestApp } from '../../testing/app.ts';
import { fakeClock } from '../../testing/fakes.ts';
import { makeQuestionGradingExam, sitByExamIndex } from '../../testing/question-grading.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('grading by question', () => {
  const clock = fakeClock(new Date('2034-03-01T09:00:00Z'));
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { clock } });
  });
  afterAll(() => app.close());

  /** An exam of makeQuestionGradingExam sat by candidates answering question 0 (the exam's numbering) as given. */
  async function cohort(answers: string[], exam: InternalExam = makeQuestionGradingExam()) {
    app.exams.put(exam);
    const owner = creatorHeaders(app, exam.ownerId);
    const results: string[] = [];
    for (const [i, answer] of answers.entries()) {
      clock.advance(1000);
      const { resultId } = await sitByExamIndex(
        app,
        exam.id,
        { 0: answer },
        { name: `Candidate Person${i}`, studentId: `STU-${i}-${randomUUID().slice(0, 6)}` },
      );
      results.push(resultId);
    }
    return { exam, owner, results };
  }

  const url = (examId: string, questionIndex: number, tail: string) =>
    `/api/exams/${examId}/questions/${questionIndex}/${tail}`;
  const answersOf = async (examId: string, questionIndex: number, headers: Record<string, string>, query = '') => {
    const response = await app.inject({ method: 'GET', url: url(examId, questionIndex, `answers${query}`), headers });
    expect(response.statusCode).toBe(200);
    return response.json<QuestionAnswers>();
  };
  const mark = (examId: string, questionIndex: number, payload: object, headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: url(examId, questionIndex, 'marks'), headers, payload });
  const detailOf = async (resultId: string, headers: Record<string, string>) =>
    (await app.inject({ method: 'GET', url: `/api/results/${resultId}`, headers })).json<ResultDetail>();
  const historyRows = (resultIds: string[]) =>
    app.db.select().from(gradeHistory).where(inArray(gradeHistory.resultId, resultIds));

  it('answers 404 to another creator on every route, as if the exam did not exist', async () => {
    const { exam, results } = await cohort(['Rayleigh scattering']);
    const stranger = creatorHeaders(app, 'another-creator');
    const responses = await Promise.all([
      app.inject({ method: 'GET', url: url(exam.id, 0, 'answers'), headers: stranger }),
      app.inject({ method: 'GET', url: url(exam.id, 0, 'answer-groups'), headers: stranger }),
      mark(exam.id, 0, { resultIds: results, points: 2 }, stranger),
      app.inject({
        method: 'POST',
        url: url(exam.id, 0, 'detachments'),
        headers: stranger,
        payload: { resultId: results[0], detached: true },
      }),
    ]);
    expect(responses.map((r) => r.statusCode)).toEqual([404, 404, 404, 404]);
    expect(await historyRows(results)).toEqual([]);
  });

  it('hides candidates by default (numbered in submission order) and names them with names=true', async () => {
    const { exam, owner, results } = await cohort(['Rayleigh scattering', 'Because of the ocean', '']);
    const hidden = await answersOf(exam.id, 0, owner);
    expect(hidden).toMatchObject({
      examTitle: exam.title,
      questionIndex: 0,
      questionCount: 4,
      title: 'Why is the sky blue?',
      type: 'short-answer',
      maxPoints: 2,
      humanGraded: true,
      progress: { marked: 0, total: 3 },
    });
    expect(hidden.answers.map((a) => [a.resultId, a.number, a.candidate, a.answer])).toEqual([
      [results[0], 1, null, 'Rayleigh scattering'],
      [results[1], 2, null, 'Because of the ocean'],
      [results[2], 3, null, ''],
    ]);
    expect(JSON.stringify(hidden)).not.toContain('Person0');
    const named = await answersOf(exam.id, 0, owner, '?names=true');
    expect(named.answers[0]!.candidate).toMatchObject({ name: 'Candidate Person0' });
    expect(named.answers[0]!.candidate!.studentId).toMatch(/^STU-0-/);
  });

  it('marks a group of identical answers with one action: one history row per answer, and the same mark twice changes nothing', async () => {
    const { exam, owner, results } = await cohort([
      'Rayleigh scattering',
      'rayleigh  scattering',
      'Rayleigh scattering ',
      'Rayleigh scatering',
      'RAYLEIGH SCATTERING',
      'The ocean reflects',
    ]);
    const before = await answersOf(exam.id, 0, owner);
    const group = before.groups[0]!;
    expect(group).toMatchObject({ answer: 'Rayleigh scattering', empty: false });
    expect(group.resultIds).toEqual([...results.slice(0, 5)].sort());
    expect(before.groups).toHaveLength(2);
    expect(before.answers.slice(0, 5).every((a) => a.groupId === group.groupId)).toBe(true);

    const payload = { resultIds: group.resultIds, points: 2, feedback: 'Right: shorter wavelengths scatter more.' };
    const first = await mark(exam.id, 0, payload, owner);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ marked: 5, unchanged: 0 });
    const rows = await historyRows(results);
    expect(rows).toHaveLength(5);
    expect(
      rows.every((r) => r.kind === 'grade' && r.questionIndex === 0 && r.by === `${exam.ownerId}@example.test`),
    ).toBe(true);
    expect(new Set(rows.map((r) => r.resultId))).toEqual(new Set(group.resultIds));

    clock.advance(1000);
    const again = await mark(exam.id, 0, payload, owner);
    expect(again.json()).toEqual({ marked: 0, unchanged: 5 });
    expect(await historyRows(results)).toHaveLength(5);

    const after = await answersOf(exam.id, 0, owner);
    expect(after.progress).toEqual({ marked: 5, total: 6 });
    expect(after.commentBank).toEqual([{ text: 'Right: shorter wavelengths scatter more.', uses: 5 }]);
    expect(after.answers[0]!.decision).toEqual({
      by: `${exam.ownerId}@example.test`,
      at: rows[0]!.at.toISOString(),
      suggestion: null,
    });
    const detail = await detailOf(results[0]!, owner);
    expect(detail.questionAnswers[0]).toMatchObject({
      points: 2,
      feedback: 'Right: shorter wavelengths scatter more.',
    });
  });

  it('takes an answer out of its group to mark it alone, and puts it back', async () => {
    const { exam, owner, results } = await cohort([
      'Rayleigh scattering',
      'Rayleigh scattering',
      'Rayleigh scattering',
    ]);
    const detached = await app.inject({
      method: 'POST',
      url: url(exam.id, 0, 'detachments'),
      headers: owner,
      payload: { resultId: results[1], detached: true },
    });
    expect(detached.statusCode).toBe(200);
    const groups = detached.json<AnswerGroups>().groups;
    expect(groups.map((g) => g.resultIds)).toEqual([[results[0], results[2]].sort(), [results[1]]]);

    const view = await answersOf(exam.id, 0, owner);
    expect(view.answers.map((a) => a.detached)).toEqual([false, true, false]);
    const shared = view.groups[0]!;
    expect((await mark(exam.id, 0, { resultIds: shared.resultIds, points: 2 }, owner)).json()).toEqual({
      marked: 2,
      unchanged: 0,
    });
    expect((await mark(exam.id, 0, { resultIds: [results[1]], points: 1, feedback: 'Half' }, owner)).json()).toEqual({
      marked: 1,
      unchanged: 0,
    });
    const marked = await answersOf(exam.id, 0, owner);
    expect(marked.answers.map((a) => a.points)).toEqual([2, 1, 2]);

    await app.inject({
      method: 'POST',
      url: url(exam.id, 0, 'detachments'),
      headers: owner,
      payload: { resultId: results[1], detached: false },
    });
    const together = await app.inject({ method: 'GET', url: url(exam.id, 0, 'answer-groups'), headers: owner });
    expect(together.json<AnswerGroups>().groups.map((g) => g.resultIds)).toEqual([[...results].sort()]);
  });

  it("groups a coding question's programs only when they are the same token for token, comments and layout aside", async () => {
    const exam = makeQuestionGradingExam({
      questions: [
        { id: 'sum', type: 'coding', title: 'Sum a list', points: 3, language: 'python', rubricId: 'code-rubric' },
      ],
      rubrics: [{ id: 'code-rubric', title: 'Code', criteria: [{ id: 'works', description: 'Works', points: 3 }] }],
    });
    const { owner, results } = await cohort(
      [
        'def total(xs):\n    return sum(xs)\n',
        'def total(xs):  # adds them\n  return sum( xs )',
        'def total(xs):\n    return max(xs)\n',
      ],
      exam,
    );
    const groups = await app.inject({ method: 'GET', url: url(exam.id, 0, 'answer-groups'), headers: owner });
    expect(groups.json<AnswerGroups>().groups.map((g) => g.resultIds)).toEqual([
      [results[0], results[1]].sort(),
      [results[2]],
    ]);
  });

  it("numbers questions as the exam does on a shuffled exam and marks each candidate's own question", async () => {
    const questions = Array.from({ length: 5 }, (_, i) => ({ id: `q${i}`, type: 'short-answer', title: `Q${i}` }));
    const exam = app.exams.put(buildInternalExam({ questions, shuffleQuestions: true }));
    const owner = creatorHeaders(app, exam.ownerId);
    const results: string[] = [];
    for (let c = 0; c < 6; c++)
      results.push(
        (await sitByExamIndex(app, exam.id, Object.fromEntries(questions.map((q, i) => [i, `${q.id} answer`]))))
          .resultId,
      );
    const view = await answersOf(exam.id, 3, owner);
    expect(view.title).toBe('Q3');
    expect(view.groups).toHaveLength(1);
    expect(view.groups[0]!.answer).toBe('q3 answer');
    expect((await mark(exam.id, 3, { resultIds: results, points: 1, feedback: 'Q3 ok' }, owner)).json()).toEqual({
      marked: 6,
      unchanged: 0,
    });
    for (const resultId of results) {
      const detail = await detailOf(resultId, owner);
      const own = detail.questionAnswers.find((q) => q.examQuestionIndex === 3)!;
      expect(own).toMatchObject({ question: 'Q3', points: 1, feedback: 'Q3 ok' });
      expect(detail.questionAnswers.filter((q) => q.points !== null)).toHaveLength(1);
      expect(detail.history.map((h) => h.questionIndex)).toEqual([own.questionIndex]);
    }
    const positions = new Set(
      (await Promise.all(results.map((id) => detailOf(id, owner)))).map(
        (d) => d.questionAnswers.find((q) => q.examQuestionIndex === 3)!.questionIndex,
      ),
    );
    expect(positions.size).toBeGreaterThan(1);
    expect((await answersOf(exam.id, 3, owner)).answers.every((a) => a.decision !== null)).toBe(true);
  });

  /** A stored suggestion for the result's answer to the exam's question 2 (the essay), as the suggestion job writes it. */
  async function suggest(
    resultId: string,
    exam: InternalExam,
    opts: { points: number; hash: string; uncertain?: boolean },
  ) {
    const id = randomUUID();
    await app.db.insert(gradingSuggestions).values({
      id,
      resultId,
      examId: exam.id,
      ownerId: exam.ownerId,
      questionIndex: 2,
      answerHash: opts.hash,
      points: opts.points,
      rubric: [
        { criterionId: 'thesis', points: 1.5 },
        { criterionId: 'sources', points: opts.points - 1.5 },
      ],
      rationale: 'States a thesis and cites one source.',
      quote: 'the sky is blue',
      uncertain: opts.uncertain ?? false,
      samplePoints: [opts.points, opts.points, opts.points],
      provider: 'openai',
      model: 'gpt-test',
      inputTokens: 500,
      outputTokens: 80,
      createdAt: clock.now(),
    });
    return id;
  }

  it('records whether the grader accepted or edited an AI suggestion, in the history of the result page too', async () => {
    const exam = app.exams.put(makeQuestionGradingExam());
    const owner = creatorHeaders(app, exam.ownerId);
    const essays = ['My thesis: the sky is blue. Source: Rayleigh (1871).', 'The sky is blue, I think.'];
    const results: string[] = [];
    for (const text of essays) {
      clock.advance(1000);
      results.push(
        (await sitByExamIndex(app, exam.id, {}, { files: { 2: { name: 'essay.txt', content: Buffer.from(text) } } }))
          .resultId,
      );
    }
    const accepted = await suggest(results[0]!, exam, { points: 4, hash: sha256(essays[0]!) });
    const edited = await suggest(results[1]!, exam, { points: 4, hash: sha256(essays[1]!), uncertain: true });

    const view = await answersOf(exam.id, 2, owner);
    expect(view.answers.map((a) => [a.fileText, a.suggestion?.current, a.flagged])).toEqual([
      [essays[0], true, false],
      [essays[1], true, true],
    ]);
    expect(view.answers[0]!.suggestion).toMatchObject({ id: accepted, points: 4, quote: 'the sky is blue' });

    const take = { resultIds: [results[0]], points: 4, criteria: ['thesis', 'sources'], suggestionId: accepted };
    expect((await mark(exam.id, 2, take, owner)).statusCode).toBe(200);
    const change = { resultIds: [results[1]], points: 1.5, criteria: ['thesis'], suggestionId: edited };
    expect((await mark(exam.id, 2, change, owner)).statusCode).toBe(200);

    const [first, second] = await Promise.all(results.map((id) => detailOf(id, owner)));
    expect(first!.history).toEqual([
      expect.objectContaining({ kind: 'grade', questionIndex: 2, suggestion: 'accepted' }),
    ]);
    expect(second!.history).toEqual([
      expect.objectContaining({ kind: 'grade', questionIndex: 2, suggestion: 'edited' }),
    ]);
    const rows = await historyRows(results);
    expect(rows.map((r) => [r.resultId, r.suggestionId]).sort()).toEqual(
      [
        [results[0], accepted],
        [results[1], edited],
      ].sort(),
    );
    const after = await answersOf(exam.id, 2, owner);
    expect(after.answers.map((a) => [a.decision?.suggestion, a.flagged])).toEqual([
      ['accepted', false],
      ['edited', false],
    ]);

    // A suggestion of another answer, or of another question, is no suggestion for this mark.
    const wrong = await mark(exam.id, 2, { resultIds: [results[1]], points: 4, suggestionId: accepted }, owner);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.issues).toEqual([expect.objectContaining({ path: 'suggestionId' })]);
    const otherQuestion = await mark(exam.id, 0, { resultIds: [results[0]], points: 1, suggestionId: accepted }, owner);
    expect(otherQuestion.statusCode).toBe(400);
  });

  it('refuses a bad mark with 400 naming the field, and an unknown result with 404, writing nothing', async () => {
    const { exam, owner, results } = await cohort(['Rayleigh scattering', 'Rayleigh scattering']);
    const other = await cohort(['Rayleigh scattering']);
    const cases: Array<[object, number, string | undefined]> = [
      [{ resultIds: results, points: 3 }, 400, 'points'],
      [{ resultIds: results, points: 1.234 }, 400, 'points'],
      [{ resultIds: results, points: -1 }, 400, 'points'],
      [{ resultIds: results, points: 1, criteria: ['thesis'] }, 400, 'criteria'],
      [{ resultIds: [], points: 1 }, 400, 'resultIds'],
      [{ resultIds: [...results, 'no-such-result'], points: 1 }, 404, undefined],
      [{ resultIds: [...results, other.results[0]], points: 1 }, 404, undefined],
    ];
    for (const [payload, status, field] of cases) {
      const response = await mark(exam.id, 0, payload, owner);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      if (field) expect(response.json().error.issues.map((i: { path: string }) => i.path)).toContain(field);
    }
    expect(await historyRows([...results, ...other.results])).toEqual([]);
    expect((await answersOf(exam.id, 0, owner)).progress.marked).toBe(0);
    const outOfRange = await app.inject({ method: 'GET', url: url(exam.id, 7, 'answers'), headers: owner });
    expect(outOfRange.statusCode).toBe(404);
    const badIndex = await app.inject({ method: 'GET', url: url(exam.id, -1, 'answers'), headers: owner });
    expect(badIndex.statusCode).toBe(400);
  });

  it('keeps working when llm-gateway cannot be reached: suggestions say so, and marks still save', async () => {
    const { exam, owner, results } = await cohort(['Rayleigh scattering']);
    app.gradingUsage.down = true;
    try {
      const view = await answersOf(exam.id, 0, owner);
      expect(view.suggestions).toEqual({
        available: false,
        reason: SuggestionMessages.gatewayDown,
        provider: null,
        model: null,
        budgetTokens: 0,
        usedTokens: 0,
      });
      expect(view.answers).toHaveLength(1);
      expect((await mark(exam.id, 0, { resultIds: results, points: 2 }, owner)).statusCode).toBe(200);
    } finally {
      app.gradingUsage.down = false;
    }
    const usage = {
      available: true,
      reason: null,
      provider: 'openai',
      model: 'gpt-test',
      budgetTokens: 400_000,
      usedTokens: 1200,
    };
    app.gradingUsage.put(exam.id, usage);
    expect((await answersOf(exam.id, 0, owner)).suggestions).toEqual(usage);
    // A question its key decides is not suggested for.
    expect((await answersOf(exam.id, 1, owner)).suggestions).toMatchObject({
      available: false,
      reason: SuggestionMessages.notHumanGraded,
    });
  });

  it('keeps marks through a regrade while the groups recompute from the current answers', async () => {
    const { exam, owner, results } = await cohort(['NaCl', 'nacl', 'NaCl']);
    const groups = async () =>
      (await app.inject({ method: 'GET', url: url(exam.id, 0, 'answer-groups'), headers: owner }))
        .json<AnswerGroups>()
        .groups.map((g) => g.resultIds);
    expect(await groups()).toEqual([[...results].sort()]);
    expect((await mark(exam.id, 0, { resultIds: results, points: 2, feedback: 'Yes' }, owner)).statusCode).toBe(200);

    // The creator makes the question case-sensitive and regrades: the answers now read as two different forms.
    app.exams.put({
      ...exam,
      questions: exam.questions.map((q, i) =>
        i === 0 ? QuestionSchema.parse({ ...q, matching: { caseSensitive: true, numeric: null } }) : q,
      ),
    });
    const regrade = await app.inject({
      method: 'POST',
      url: `/api/exams/${exam.id}/regrade?dryRun=false`,
      headers: owner,
    });
    expect(regrade.statusCode).toBe(200);
    expect(await groups()).toEqual([[results[0], results[2]].sort(), [results[1]]]);
    const view = await answersOf(exam.id, 0, owner);
    expect(view.answers.map((a) => [a.points, a.feedback])).toEqual([
      [2, 'Yes'],
      [2, 'Yes'],
      [2, 'Yes'],
    ]);

    // A changed answer (as a re-collected file would be) makes its suggestion stale.
    await app.db.insert(gradingSuggestions).values({
      id: randomUUID(),
      resultId: results[0]!,
      examId: exam.id,
      ownerId: exam.ownerId,
      questionIndex: 0,
      answerHash: sha256('an older answer'),
      points: 2,
      rubric: [],
      rationale: 'Correct.',
      quote: '',
      uncertain: true,
      samplePoints: [2, 0, 2],
      provider: 'openai',
      model: 'gpt-test',
      inputTokens: 1,
      outputTokens: 1,
      createdAt: clock.now(),
    });
    const stale = (await answersOf(exam.id, 0, owner)).answers[0]!;
    expect(stale.suggestion).toMatchObject({ current: false, uncertain: true });
    expect(stale.flagged).toBe(false);
  });

  it('lets two graders mark overlapping groups at once without a deadlock, each result marked once per change', async () => {
    const { exam, owner, results } = await cohort(Array.from({ length: 12 }, () => 'Rayleigh scattering'));
    const forward = [...results];
    const backward = [...results].reverse();
    const [a, b] = await Promise.all([
      mark(exam.id, 0, { resultIds: forward, points: 2, feedback: 'A' }, owner),
      mark(exam.id, 0, { resultIds: backward.slice(0, 8), points: 1, feedback: 'B' }, owner),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const rows = await app.db.select().from(gradeHistory).where(inArray(gradeHistory.resultId, results));
    expect(rows).toHaveLength(12 + 8);
    const view = await answersOf(exam.id, 0, owner);
    expect(view.progress.marked).toBe(12);
    // Whichever went second wins on the results both listed; every answer carries one whole mark, never half of each.
    expect(
      view.answers.every((a) => (a.points === 2 && a.feedback === 'A') || (a.points === 1 && a.feedback === 'B')),
    ).toBe(true);
    expect(view.answers.slice(0, 4).every((a) => a.feedback === 'A')).toBe(true);
    expect(await app.db.select().from(gradeHistory).where(eq(gradeHistory.resultId, results[0]!))).toHaveLength(1);
  });
});
