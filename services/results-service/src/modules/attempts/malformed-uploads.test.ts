import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, startAttempt, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';

const TRUNCATED =
  '--b\r\nContent-Disposition: form-data; name="file"; filename="report.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF';

describe('malformed file-upload and JSON bodies', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ env: { UPLOAD_MAX_BYTES: '2048' } });
  });
  afterAll(() => app.close());

  async function attemptWithDraft() {
    const exam = app.exams.put(makeExam());
    const attempt = await startAttempt(app, exam.id);
    await app.inject({
      method: 'PUT',
      url: `/api/attempts/${attempt.attemptId}/answers/2`,
      headers: attempt.headers,
      payload: { answer: 'draft', seq: 1 },
    });
    return attempt;
  }
  const answers = async (attempt: { attemptId: string; headers: Record<string, string> }) =>
    (await app.inject({ method: 'GET', url: `/api/attempts/${attempt.attemptId}`, headers: attempt.headers })).json()
      .answers;

  for (const [condition, contentType, message] of [
    ['has no boundary', 'multipart/form-data', /boundary/i],
    ['ends before its closing boundary', 'multipart/form-data; boundary=b', /ended before its closing boundary/],
  ] as const) {
    it(`answers 400 with the reason when the upload ${condition}, and the answer stays as it was`, async () => {
      const attempt = await attemptWithDraft();
      const response = await app.inject({
        method: 'POST',
        url: `/api/attempts/${attempt.attemptId}/files/2`,
        headers: { ...attempt.headers, 'content-type': contentType },
        payload: TRUNCATED,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(message) });
      expect((await answers(attempt))['2']).toEqual({ answer: 'draft', seq: 1, operations: 0 });
    });
  }

  it('answers 413 with a JSON error when an answer body passes the body limit', async () => {
    const attempt = await attemptWithDraft();
    const response = await app.inject({
      method: 'PUT',
      url: `/api/attempts/${attempt.attemptId}/answers/2`,
      headers: { ...attempt.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ answer: 'x'.repeat(3_000_000), seq: 2 }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('PAYLOAD_TOO_LARGE');
    expect((await answers(attempt))['2']).toEqual({ answer: 'draft', seq: 1, operations: 0 });
  });
});
