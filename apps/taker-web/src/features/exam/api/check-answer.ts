import { PracticeCheckSchema, type PracticeCheck } from '@exam/domain/practice';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { getTakerDb } from '../../../lib/taker-db.ts';

/**
 * Checks an answer of a practice exam (docs/product.md#practice-and-review). The server saves it first, as a save
 * would, with the seq this page's outbox holds for the question: never above it, so the outbox's next save of a
 * later change still wins and its edit operations still reach the server (they go out with the outbox's own save).
 */
export async function checkAnswer(
  attempt: { attemptId: string; token: string },
  questionIndex: number,
  answer: string,
): Promise<PracticeCheck> {
  const entry = await (await getTakerDb()).get('outbox', [attempt.attemptId, questionIndex]);
  return apiRequest(api.checkAnswer(attempt.attemptId, questionIndex), {
    method: 'POST',
    token: attempt.token,
    body: { answer, seq: entry?.seq ?? 0 },
    schema: PracticeCheckSchema,
  });
}
