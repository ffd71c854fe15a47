import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { multipart } from '../../testing/multipart.ts';

describe('file-upload answers', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ env: { UPLOAD_MAX_BYTES: '2048' } });
  });
  afterAll(() => app.close());

  const upload = (
    attempt: { attemptId: string; headers: Record<string, string> },
    index: number,
    name: string,
    content: Buffer,
    mime?: string,
  ) => {
    const body = multipart(name, content, mime);
    return app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/files/${index}`,
      headers: { ...attempt.headers, ...body.headers },
      payload: body.payload,
    });
  };

  it('tells the page the configured size limit in the attempt state, so it can refuse a bigger file before queueing it', async () => {
    const exam = app.exams.put(makeExam());
    const attempt = await startAttempt(app, exam.id);
    const state = await app.inject({
      method: 'GET',
      url: `/api/attempts/${attempt.attemptId}`,
      headers: attempt.headers,
    });
    expect(state.json().uploadMaxBytes).toBe(2048);
  });

  it("stores the file, records 'File: name' above the stored seq and lets the exam's creator download it", async () => {
    const exam = app.exams.put(makeExam());
    const attempt = await startAttempt(app, exam.id);
    await app.inject({
      method: 'PUT',
      url: `/api/attempts/${attempt.attemptId}/answers/2`,
      headers: attempt.headers,
      payload: { answer: 'draft', seq: 7 },
    });
    const content = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x10]);
    const response = await upload(attempt, 2, 'lab report é.pdf', content, 'application/pdf');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      questionIndex: 2,
      fileName: 'lab report é.pdf',
      size: content.length,
      answer: 'File: lab report é.pdf',
    });
    const state = (
      await app.inject({ method: 'GET', url: `/api/attempts/${attempt.attemptId}`, headers: attempt.headers })
    ).json();
    expect(state.answers['2']).toEqual({ answer: 'File: lab report é.pdf', seq: 8, operations: 0 });

    const { resultId } = (
      await app.inject({ method: 'POST', url: `/api/attempts/${attempt.attemptId}/submit`, headers: attempt.headers })
    ).json();
    const owner = creatorHeaders(app, exam.ownerId);
    const detail = (await app.inject({ method: 'GET', url: `/api/results/${resultId}`, headers: owner })).json();
    expect(detail.questionAnswers[2]).toMatchObject({
      answer: 'File: lab report é.pdf',
      file: { fileName: 'lab report é.pdf', size: content.length },
      isGraded: false,
    });

    const download = await app.inject({ method: 'GET', url: `/api/results/${resultId}/files/2`, headers: owner });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(content)).toBe(true);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="lab report _.pdf"; filename*=UTF-8''lab%20report%20%C3%A9.pdf`,
    );

    const stranger = await app.inject({
      method: 'GET',
      url: `/api/results/${resultId}/files/2`,
      headers: creatorHeaders(app, 'someone-else'),
    });
    expect(stranger.statusCode).toBe(404);
    const missing = await app.inject({ method: 'GET', url: `/api/results/${resultId}/files/0`, headers: owner });
    expect(missing.statusCode).toBe(404);
  });

  it('does not give the creator a file the candidate removed (its answer set back to empty)', async () => {
    const exam = app.exams.put(makeExam());
    const attempt = await startAttempt(app, exam.id);
    expect((await upload(attempt, 2, 'wrong.pdf', Buffer.from('oops'))).statusCode).toBe(200);
    const removal = await app.inject({
      method: 'PUT',
      url: `/api/attempts/${attempt.attemptId}/answers/2`,
      headers: attempt.headers,
      payload: { answer: '', seq: 50 },
    });
    expect(removal.json()).toMatchObject({ applied: true });
    const { resultId } = (
      await app.inject({ method: 'POST', url: `/api/attempts/${attempt.attemptId}/submit`, headers: attempt.headers })
    ).json();
    const owner = creatorHeaders(app, exam.ownerId);
    const detail = (await app.inject({ method: 'GET', url: `/api/results/${resultId}`, headers: owner })).json();
    expect(detail.questionAnswers[2].answer).toBe('No answer provided');
    expect(detail.questionAnswers[2].file ?? null).toBeNull();
    const download = await app.inject({ method: 'GET', url: `/api/results/${resultId}/files/2`, headers: owner });
    expect(download.statusCode).toBe(404);
  });

  it('answers 413 with the limit in the message when the file is larger than UPLOAD_MAX_BYTES', async () => {
    const exam = app.exams.put(makeExam());
    const attempt = await startAttempt(app, exam.id);
    const response = await upload(attempt, 2, 'big.bin', Buffer.alloc(4096, 1));
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'The file is too large. The maximum size is 2 KB.',
    });
    const state = (
      await app.inject({ method: 'GET', url: `/api/attempts/${attempt.attemptId}`, headers: attempt.headers })
    ).json();
    expect(state.answers).toEqual({});
  });

  it('answers 400 when the question does not take a file', async () => {
    const exam = app.exams.put(makeExam());
    const attempt = await startAttempt(app, exam.id);
    const response = await upload(attempt, 0, 'a.txt', Buffer.from('x'));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe('This question does not take a file');
  });

  it('refuses an upload after submit with 409', async () => {
    const exam = app.exams.put(makeExam());
    const attempt = await startAttempt(app, exam.id);
    await app.inject({ method: 'POST', url: `/api/attempts/${attempt.attemptId}/submit`, headers: attempt.headers });
    const response = await upload(attempt, 2, 'late.txt', Buffer.from('late'));
    expect(response.statusCode).toBe(409);
  });
});
