import type { InternalExam } from '@exam/domain/internal';
import { CAPABILITY_REFUSALS } from '@exam/domain/roles';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, creatorHeaders, startAttempt, TEST_ENDPOINTS, type TestApp } from '../testing/app.ts';
import { makeExam } from '../testing/exams.ts';
import { openAiFrames, recordingHandler, sseResponse, type RecordedCall } from '../testing/provider-mocks.ts';

const MEMBERS: InternalExam['members'] = [
  { creatorId: 'editor-1', email: 'editor-1@example.test', role: 'editor', mayRelease: false },
  { creatorId: 'grader-1', email: 'grader-1@example.test', role: 'grader', mayRelease: false },
  { creatorId: 'grader-r', email: 'grader-r@example.test', role: 'grader', mayRelease: true },
  { creatorId: 'proctor-1', email: 'proctor-1@example.test', role: 'proctor', mayRelease: false },
  { creatorId: 'viewer-1', email: 'viewer-1@example.test', role: 'viewer', mayRelease: false },
];
type Who = 'owner' | 'editor-1' | 'grader-1' | 'grader-r' | 'proctor-1' | 'viewer-1' | 'stranger';
const EVERYONE: Who[] = ['owner', 'editor-1', 'grader-1', 'grader-r', 'proctor-1', 'viewer-1', 'stranger'];

const server = setupServer();
const calls: RecordedCall[] = [];

describe('roles on a shared exam in llm-gateway', () => {
  let app: TestApp;
  beforeAll(async () => {
    server.listen({ onUnhandledRequest: 'error' });
    server.use(
      recordingHandler(`${TEST_ENDPOINTS.openai}/chat/completions`, calls, () =>
        sseResponse(openAiFrames(['Sure', '.'])),
      ),
    );
    app = await buildTestApp();
  });
  afterAll(async () => {
    await app.close();
    server.close();
  });

  function sharedExam() {
    const exam = makeExam({ members: MEMBERS });
    const attempt = startAttempt(app, exam);
    const headersOf = (who: Who) => creatorHeaders(app, who === 'owner' ? exam.ownerId : who);
    return { exam, ...attempt, headersOf };
  }

  async function statuses(request: (who: Who) => Promise<{ statusCode: number }>, who: Who[] = EVERYONE) {
    const out: Partial<Record<Who, number>> = {};
    for (const w of who) out[w] = (await request(w)).statusCode;
    return out;
  }

  it("gives a candidate's transcript and agent calls to the roles that read results, 403 to the others, 404 to strangers", async () => {
    const { attemptId, headers, headersOf } = sharedExam();
    await app.inject({
      method: 'POST',
      url: '/api/llm/chat',
      headers,
      payload: { message: 'Help me', questionIndex: 0 },
    });
    const transcript = (who: Who) =>
      app.inject({ method: 'GET', url: `/api/llm/attempts/${attemptId}/transcript`, headers: headersOf(who) });
    expect(await statuses(transcript)).toEqual({
      owner: 200,
      'editor-1': 200,
      'grader-1': 200,
      'grader-r': 200,
      'proctor-1': 403,
      'viewer-1': 403,
      stranger: 404,
    });
    const read = await transcript('grader-1');
    expect(read.json<{ messages: { content: string }[] }>().messages.map((m) => m.content)).toEqual([
      'Help me',
      'Sure.',
    ]);
    expect((await transcript('viewer-1')).json()).toMatchObject({
      error: { code: 'FORBIDDEN', message: CAPABILITY_REFUSALS['results:read'] },
    });
    const agentCalls = (who: Who) =>
      app.inject({ method: 'GET', url: `/api/llm/attempts/${attemptId}/agent-calls`, headers: headersOf(who) });
    expect(await statuses(agentCalls, ['grader-1', 'proctor-1', 'stranger'])).toEqual({
      'grader-1': 200,
      'proctor-1': 403,
      stranger: 404,
    });
  });

  it("gives the exam's AI usage to the roles that read insights only", async () => {
    const { exam, headersOf } = sharedExam();
    const usage = (who: Who) =>
      app.inject({ method: 'GET', url: `/api/llm/exams/${exam.id}/usage`, headers: headersOf(who) });
    expect(await statuses(usage)).toEqual({
      owner: 200,
      'editor-1': 200,
      'grader-1': 403,
      'grader-r': 403,
      'proctor-1': 403,
      'viewer-1': 200,
      stranger: 404,
    });
  });

  it('lets only the owner and editors probe the assistant (audits, solvability checks)', async () => {
    const { exam, headersOf } = sharedExam();
    const latestAudit = (who: Who) =>
      app.inject({ method: 'GET', url: `/api/exams/${exam.id}/assistant-audits/latest`, headers: headersOf(who) });
    expect(await statuses(latestAudit)).toEqual({
      owner: 200,
      'editor-1': 200,
      'grader-1': 403,
      'grader-r': 403,
      'proctor-1': 403,
      'viewer-1': 403,
      stranger: 404,
    });
    expect((await latestAudit('grader-1')).json()).toMatchObject({
      error: { code: 'FORBIDDEN', message: CAPABILITY_REFUSALS['exam:edit'] },
    });
    const latestCheck = (who: Who) =>
      app.inject({ method: 'GET', url: `/api/exams/${exam.id}/solvability-checks/latest`, headers: headersOf(who) });
    expect(await statuses(latestCheck, ['editor-1', 'proctor-1', 'viewer-1', 'stranger'])).toEqual({
      'editor-1': 200,
      'proctor-1': 403,
      'viewer-1': 403,
      stranger: 404,
    });
  });
});
