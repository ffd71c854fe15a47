import { createHash } from 'node:crypto';
import { buildInternalExam } from '@exam/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../testing/app.ts';
import { makeQuestionGradingExam, sitByExamIndex } from '../../testing/question-grading.ts';
import { createAnswerFileTexts } from './answer-file-texts.ts';
import { createQuestionAnswersReader, textToGrade } from './question-answers.repository.ts';

describe('the reader of a question’s answers', () => {
  let app: TestApp;
  let reader: ReturnType<typeof createQuestionAnswersReader>;
  beforeAll(async () => {
    app = await buildTestApp();
    reader = createQuestionAnswersReader(app.database, { examSource: app.exams }, createAnswerFileTexts());
  });
  afterAll(() => app.close());

  it('reads every submitted answer in submission order with its grade, and the uploaded file’s text', async () => {
    const exam = app.exams.put(makeQuestionGradingExam());
    const first = await sitByExamIndex(
      app,
      exam.id,
      { 0: 'Rayleigh scattering' },
      { name: 'Ada Lovelace', studentId: 'S-1' },
    );
    const second = await sitByExamIndex(
      app,
      exam.id,
      { 0: '' },
      {
        name: 'Alan Turing',
        studentId: 'S-2',
        files: { 2: { name: 'essay.txt', content: Buffer.from('My thesis is that\r\nthe sky is blue.\n') } },
      },
    );
    const read = await reader.listQuestionAnswers(exam.id, exam.ownerId, 0);
    expect(read.answers.map((a) => [a.resultId, a.answer, a.candidate.name, a.grade.points])).toEqual([
      [first.resultId, 'Rayleigh scattering', 'Ada Lovelace', null],
      [second.resultId, '', 'Alan Turing', null],
    ]);
    expect(read).toMatchObject({ humanGraded: true, question: { id: 'why', points: 2 } });
    expect(read.answers[0]!.identifiers).toEqual(['Ada Lovelace', 'Ada', 'Lovelace', 'S-1']);

    const essays = await reader.listQuestionAnswers(exam.id, exam.ownerId, 2);
    expect(essays.rubric?.id).toBe('essay-rubric');
    const essay = essays.answers[1]!;
    expect(essay).toMatchObject({
      answer: 'File: essay.txt',
      file: { fileName: 'essay.txt', size: 36 },
      fileText: 'My thesis is that\nthe sky is blue.',
    });
    expect(textToGrade(essay)).toEqual({
      text: 'My thesis is that\nthe sky is blue.',
      answerHash: createHash('sha256').update('My thesis is that\nthe sky is blue.').digest('hex'),
    });
    expect(essays.answers[0]).toMatchObject({ file: null, fileText: null });
    expect(textToGrade(essays.answers[0]!).text).toBeNull();

    const one = await reader.findQuestionAnswer(second.resultId, exam.ownerId, 2);
    expect(one).toMatchObject({ resultId: second.resultId, fileText: 'My thesis is that\nthe sky is blue.' });
  });

  it('reads another creator’s exam and result as absent', async () => {
    const exam = app.exams.put(makeQuestionGradingExam());
    const { resultId } = await sitByExamIndex(app, exam.id, { 0: 'x' });
    await expect(reader.listQuestionAnswers(exam.id, 'someone-else', 0)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(reader.findQuestionAnswer(resultId, 'someone-else', 0)).resolves.toBeUndefined();
    await expect(reader.listQuestionAnswers(exam.id, exam.ownerId, 9)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('maps a shuffled exam’s question to each candidate’s own index', async () => {
    const questions = Array.from({ length: 6 }, (_, i) => ({ id: `q${i}`, type: 'short-answer', title: `Q${i}` }));
    const exam = app.exams.put(buildInternalExam({ questions, shuffleQuestions: true }));
    for (let c = 0; c < 6; c++)
      await sitByExamIndex(app, exam.id, Object.fromEntries(questions.map((q, i) => [i, `${q.id}-answer-${c}`])));
    const read = await reader.listQuestionAnswers(exam.id, exam.ownerId, 4);
    expect(read.answers.map((a) => a.answer)).toEqual([0, 1, 2, 3, 4, 5].map((c) => `q4-answer-${c}`));
    expect(read.answers.every((a) => a.question.id === 'q4')).toBe(true);
    expect(new Set(read.answers.map((a) => a.candidateIndex)).size).toBeGreaterThan(1);
  });
});
