import { BankQuestionEnvelopeSchema, BankQuestionListSchema, type BankQuestion } from '@exam/domain/bank';
import { ExamEnvelopeSchema, ExamSchema } from '@exam/domain/exam';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, createExam, type TestApp } from '../../testing/app.ts';

type Creator = Awaited<ReturnType<typeof createCreator>>;

const typed = (title: string, topic = 'cells') => ({
  id: 'draft',
  type: 'short-answer',
  title,
  topic,
  acceptedAnswers: ['mitochondria'],
  points: 2,
});

describe('question bank', () => {
  let app: TestApp;
  let owner: Creator;
  let other: Creator;
  beforeAll(async () => {
    app = await buildTestApp();
    owner = await createCreator(app);
    other = await createCreator(app);
  });
  afterAll(() => app.close());

  const save = async (creator: Creator, payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/api/bank/questions', headers: creator.headers, payload });
  const saved = async (creator: Creator, payload: Record<string, unknown>): Promise<BankQuestion> => {
    const response = await save(creator, payload);
    expect(response.statusCode).toBe(201);
    return BankQuestionEnvelopeSchema.parse(response.json()).bankQuestion;
  };
  const list = async (creator: Creator, query = '') => {
    const response = await app.inject({ method: 'GET', url: `/api/bank/questions${query}`, headers: creator.headers });
    expect(response.statusCode).toBe(200);
    return BankQuestionListSchema.parse(response.json()).questions;
  };

  it('saves a typed question and one of an exam (without its rubric, pool or section), and lists them by text and topic', async () => {
    const first = await saved(owner, { question: typed('Powerhouse of the cell') });
    expect(first.question).toMatchObject({
      title: 'Powerhouse of the cell',
      points: 2,
      acceptedAnswers: ['mitochondria'],
    });
    const exam = await createExam(app, owner.headers, {
      pools: [{ id: 'p', title: 'Plants', draw: 1, points: 1 }],
      sections: [{ id: 's', title: 'Biology', assistant: false, timeLimitMinutes: null }],
      questions: [
        { id: 'q9', type: 'short-answer', title: 'Name the pigment', topic: 'Plants', poolId: 'p', sectionId: 's' },
      ],
    });
    const fromExam = await saved(owner, { examId: exam.id, questionId: 'q9' });
    expect(fromExam.question).toMatchObject({
      title: 'Name the pigment',
      topic: 'Plants',
      poolId: null,
      rubricId: null,
      sectionId: null,
    });

    expect((await list(owner)).map((b) => b.id)).toEqual([fromExam.id, first.id]);
    expect((await list(owner, '?search=POWERHOUSE')).map((b) => b.id)).toEqual([first.id]);
    expect((await list(owner, '?search=plant')).map((b) => b.id)).toEqual([fromExam.id]);
    expect((await list(owner, '?topic=plants')).map((b) => b.id)).toEqual([fromExam.id]);
    expect(await list(owner, '?search=100%25')).toEqual([]);
  });

  it('edits and deletes a question; another creator gets 404 for each and never sees it', async () => {
    const mine = await saved(owner, { question: typed('Edit me') });
    const edit = (creator: Creator, title: string) =>
      app.inject({
        method: 'PUT',
        url: `/api/bank/questions/${mine.id}`,
        headers: creator.headers,
        payload: { question: typed(title) },
      });
    expect((await edit(other, 'Stolen')).statusCode).toBe(404);
    const edited = await edit(owner, 'Edited');
    expect(edited.statusCode).toBe(200);
    expect(BankQuestionEnvelopeSchema.parse(edited.json()).bankQuestion.question.title).toBe('Edited');
    expect((await list(other)).some((b) => b.id === mine.id)).toBe(false);

    const remove = (creator: Creator) =>
      app.inject({ method: 'DELETE', url: `/api/bank/questions/${mine.id}`, headers: creator.headers });
    expect((await remove(other)).statusCode).toBe(404);
    expect((await remove(owner)).statusCode).toBe(200);
    expect((await remove(owner)).statusCode).toBe(404);
    expect((await list(owner)).some((b) => b.id === mine.id)).toBe(false);
  });

  it('copies bank questions into an exam, so later bank edits leave the exam alone', async () => {
    const bank = await saved(owner, { question: typed('Copied question') });
    const exam = await createExam(app, owner.headers);
    const copied = await app.inject({
      method: 'POST',
      url: '/api/bank/questions/copy',
      headers: owner.headers,
      payload: { examId: exam.id, ids: [bank.id] },
    });
    expect(copied.statusCode).toBe(200);
    const after = ExamEnvelopeSchema.parse(copied.json()).exam;
    expect(after.questions).toHaveLength(4);
    const copy = after.questions[3]!;
    expect(copy).toMatchObject({ title: 'Copied question', acceptedAnswers: ['mitochondria'], points: 2 });
    expect(copy.id).not.toBe(bank.question.id);

    await app.inject({
      method: 'PUT',
      url: `/api/bank/questions/${bank.id}`,
      headers: owner.headers,
      payload: { question: typed('Changed in the bank') },
    });
    const reread = await app.inject({ method: 'GET', url: `/api/exams/${exam.id}`, headers: owner.headers });
    expect(ExamSchema.parse(reread.json()).questions[3]!.title).toBe('Copied question');
  });

  it('refuses to copy into another creator’s exam, or another creator’s bank question, with 404', async () => {
    const mine = await saved(owner, { question: typed('Mine') });
    const theirs = await saved(other, { question: typed('Theirs') });
    const ownExam = await createExam(app, owner.headers);
    const otherExam = await createExam(app, other.headers);
    const copy = (examId: string, ids: string[]) =>
      app.inject({
        method: 'POST',
        url: '/api/bank/questions/copy',
        headers: owner.headers,
        payload: { examId, ids },
      });
    expect((await copy(otherExam.id, [mine.id])).statusCode).toBe(404);
    const foreign = await copy(ownExam.id, [mine.id, theirs.id]);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.issues?.[0]?.path).toBe('ids.1');
    // Saving from another creator's exam is 404 as well.
    expect((await save(owner, { examId: otherExam.id, questionId: 'q1' })).statusCode).toBe(404);
  });

  it('answers 400 naming the field for a bad question, a missing source or an empty copy', async () => {
    const bad = await save(owner, { question: { id: 'x', type: 'mcq', title: 'One option', options: ['a'] } });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('options');
    const none = await save(owner, {});
    expect(none.statusCode).toBe(400);
    expect(JSON.stringify(none.json())).toContain('question');
    const empty = await app.inject({
      method: 'POST',
      url: '/api/bank/questions/copy',
      headers: owner.headers,
      payload: { examId: 'e', ids: [] },
    });
    expect(empty.statusCode).toBe(400);
    expect(JSON.stringify(empty.json())).toContain('ids');
  });

  it('requires a creator', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/bank/questions' })).statusCode).toBe(401);
  });
});
