import type { SharedRole } from '@exam/domain/roles';
import type { TestApp } from './app.ts';

/** The owner shares the exam with an e-mail in a role through the API; throws unless the share was made. */
export async function shareExam(
  app: TestApp,
  ownerHeaders: Record<string, string>,
  examId: string,
  member: { email: string; role: SharedRole; mayRelease?: boolean },
) {
  const response = await app.inject({
    method: 'POST',
    url: `/api/exams/${examId}/members`,
    headers: ownerHeaders,
    payload: member,
  });
  if (response.statusCode !== 201) throw new Error(`share failed: ${response.statusCode} ${response.body}`);
  return response.json() as { kind: 'member' | 'invite' };
}
