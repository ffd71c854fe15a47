import { createHash } from 'node:crypto';
import { buildInternalExam } from '@exam/domain/testing';
import { createIsolatedRunner } from '@exam/server-kit/isolated-worker';
import { minimalDocx, minimalPdf, pdfBomb } from '@exam/server-kit/testing/documents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../testing/app.ts';
import { createAnswerFileTexts, isolatedDocumentText } from './answer-file-texts.ts';
import { makeQuestionGradingExam, sitByExamIndex } from '../../testing/question-grading.ts';
import { createQuestionAnswersReader, textToGrade, type QuestionAnswersReader } from './question-answers.repository.ts';

describe('the reader of a question’s answers', () => {
  let app: TestApp;
  let reader: QuestionAnswersReader;
  const runner = createIsolatedRunner({ timeoutMs: 20_000, maxHeapMb: 256, concurrency: 1 });
  beforeAll(async () => {
    app = await buildTestApp();
    reader = createQuestionAnswersReader(
      app.database,
      { examSource: app.exams },
      createAnswerFileTexts(isolatedDocumentText(runner, 10 * 1024 * 1024)),
    );
  });
  afterAll(async () => {
    await app.close();
    await runner.close();
  });

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

  it('reads the text of PDF and Word answers through the shared extraction, and none from a broken or bomb file', async () => {
    const exam = app.exams.put(makeQuestionGradingExam());
    const upload = (name: string, content: Buffer, mime: string) =>
      sitByExamIndex(app, exam.id, {}, { files: { 2: { name, content, mime } } });
    await upload('essay.pdf', minimalPdf('Light scatters off molecules.'), 'application/pdf');
    await upload(
      'essay.docx',
      minimalDocx('Shorter wavelengths scatter more.'),
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    await upload('broken.pdf', Buffer.from('%PDF-1.4 not really'), 'application/pdf');
    await upload('bomb.pdf', pdfBomb(20 * 1024 * 1024), 'application/pdf');
    await upload('photo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe]), 'image/png');
    const read = await reader.listQuestionAnswers(exam.id, exam.ownerId, 2);
    expect(read.answers.map((a) => [a.file?.fileName, a.fileText])).toEqual([
      ['essay.pdf', 'Light scatters off molecules.'],
      ['essay.docx', 'Shorter wavelengths scatter more.'],
      ['broken.pdf', null],
      ['bomb.pdf', null],
      ['photo.png', null],
    ]);
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
