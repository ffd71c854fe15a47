import type { TestApp } from './app.ts';
import { startAttempt } from './app.ts';

/** Starts an attempt, saves the answers and submits it; returns the result id and the candidate's attempt. */
export async function sitExam(
  app: TestApp,
  examId: string,
  answers: Record<number, string>,
  candidate: { name?: string; studentId?: string } = {},
) {
  const attempt = await startAttempt(app, examId, candidate);
  for (const [index, answer] of Object.entries(answers)) {
    const saved = await app.inject({
      method: 'PUT',
      url: `/api/attempts/${attempt.attemptId}/answers/${index}`,
      headers: attempt.headers,
      payload: { answer, seq: 1 },
    });
    if (saved.statusCode !== 200) throw new Error(`save failed: ${saved.statusCode} ${saved.body}`);
  }
  const submitted = await app.inject({
    method: 'POST',
    url: `/api/attempts/${attempt.attemptId}/submit`,
    headers: attempt.headers,
  });
  if (submitted.statusCode !== 200) throw new Error(`submit failed: ${submitted.statusCode} ${submitted.body}`);
  return { resultId: submitted.json<{ resultId: string }>().resultId, attempt };
}
