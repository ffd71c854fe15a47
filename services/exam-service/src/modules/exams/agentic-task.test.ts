import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, createExam, type TestApp } from '../../testing/app.ts';

type Creator = Awaited<ReturnType<typeof createCreator>>;

/** An agentic task: a starter repository, hidden files and hidden tests, each carrying a canary of its own. */
const agenticQuestion = {
  id: 'agentic',
  type: 'coding',
  title: 'Fix the parser',
  content: 'Make parse() accept negative numbers.',
  language: 'python',
  starterCode: '',
  tests: [
    { id: 't1', name: 'visible', stdin: '1', expected: '1', points: 1, visible: true },
    { id: 't2', name: 'hidden', stdin: 'HIDDEN-STDIN-CANARY', expected: 'HIDDEN-EXPECTED-CANARY', points: 2 },
  ],
  referenceSolution: 'REFERENCE-CANARY',
  repository: {
    files: [{ path: 'src/parser.py', content: 'STARTER-CONTENT-CANARY = 1\n' }],
    hiddenFiles: [{ path: 'main.py', content: 'HIDDEN-FILE-CANARY = 1\n' }],
  },
};

const agentOn = (agent: string) => ({
  enabled: true,
  saveFilesInResults: true,
  workspaceType: 'vscode',
  allowPackageRegistries: false,
  ai: { mode: 'agent', agent },
});

describe('agentic tasks and the workspace agent', () => {
  let app: TestApp;
  let owner: Creator;
  beforeAll(async () => {
    app = await buildTestApp();
    owner = await createCreator(app);
  });
  afterAll(() => app.close());

  const put = (id: string, payload: Record<string, unknown>, headers = owner.headers) =>
    app.inject({ method: 'PUT', url: `/api/exams/${id}`, headers, payload });
  const stored = async (id: string) =>
    (await app.inject({ method: 'GET', url: `/api/exams/${id}`, headers: owner.headers })).json();

  async function expectRefusedAgent(id: string, payload: Record<string, unknown>, reason: RegExp) {
    const before = await stored(id);
    const response = await put(id, payload);
    expect(response.statusCode).toBe(400);
    const issue = response.json().error.issues.find((i: { path: string }) => i.path === 'codingWorkspace.ai.agent');
    expect(issue?.message).toMatch(reason);
    expect(await stored(id)).toEqual(before);
  }

  it('refuses a new exam whose workspace agent cannot use its assistant, naming the field, and creates nothing', async () => {
    const before = (await app.inject({ method: 'GET', url: '/api/exams/auth_exams', headers: owner.headers })).json();
    const response = await app.inject({
      method: 'POST',
      url: '/api/exams',
      headers: owner.headers,
      payload: {
        title: 'Agent on the wrong provider',
        aiSettings: { enabled: true, provider: 'openai', model: 'gpt-4o-mini' },
        codingWorkspace: agentOn('claude-code'),
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.issues).toEqual([
      expect.objectContaining({
        path: 'codingWorkspace.ai.agent',
        message: expect.stringMatching(/Claude Code cannot use/),
      }),
    ]);
    const after = (await app.inject({ method: 'GET', url: '/api/exams/auth_exams', headers: owner.headers })).json();
    expect(after).toEqual(before);
  });

  it('refuses a workspace agent the stored provider cannot serve, when the update carries only the workspace', async () => {
    const exam = await createExam(app, owner.headers, { aiSettings: { enabled: true, provider: 'anthropic' } });
    await expectRefusedAgent(exam.id, { codingWorkspace: agentOn('codex') }, /Codex CLI cannot use .*anthropic/);
    await expectRefusedAgent(exam.id, { codingWorkspace: { ...agentOn('codex'), ai: { mode: 'agent' } } }, /Choose/);
  });

  it('refuses an assistant change that leaves the stored agent without a provider it speaks, or turns it off', async () => {
    const exam = await createExam(app, owner.headers, {
      aiSettings: { enabled: true, provider: 'anthropic' },
      codingWorkspace: agentOn('claude-code'),
    });
    expect(exam.codingWorkspace).toMatchObject({ ai: { mode: 'agent', agent: 'claude-code' } });
    await expectRefusedAgent(exam.id, { aiSettings: { enabled: true, provider: 'google' } }, /no agent can use/);
    await expectRefusedAgent(exam.id, { aiSettings: { enabled: false, provider: 'anthropic' } }, /Turn the AI/);
  });

  it('saves a workspace agent the stored provider serves, and a provider change the agent can follow', async () => {
    const exam = await createExam(app, owner.headers, { aiSettings: { enabled: true, provider: 'openai' } });
    const saved = await put(exam.id, { codingWorkspace: agentOn('opencode') });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().codingWorkspace.ai).toEqual({ mode: 'agent', agent: 'opencode' });
    const moved = await put(exam.id, { aiSettings: { enabled: true, provider: 'anthropic' } });
    expect(moved.statusCode).toBe(200);
    expect((await stored(exam.id)).aiSettings.provider).toBe('anthropic');
  });

  it('keeps an agentic question whole for its creator', async () => {
    const exam = await createExam(app, owner.headers, { questions: [agenticQuestion] });
    const [question] = (await stored(exam.id)).questions;
    expect(question.repository).toEqual(agenticQuestion.repository);
  });

  it('refuses a repository path kept for the runner, naming the field, and saves nothing', async () => {
    const exam = await createExam(app, owner.headers, { questions: [agenticQuestion] });
    const before = await stored(exam.id);
    const response = await put(exam.id, {
      questions: [{ ...agenticQuestion, repository: { files: [], hiddenFiles: [{ path: 'tests/x', content: '' }] } }],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.issues.map((i: { path: string }) => i.path)).toContain(
      'questions.0.repository.hiddenFiles.0.path',
    );
    expect(await stored(exam.id)).toEqual(before);
  });

  it("never gives the candidate's view the hidden files, the starter contents or the hidden tests", async () => {
    const exam = await createExam(app, owner.headers, { questions: [agenticQuestion], isDraft: false });
    const issued = await app.inject({
      method: 'POST',
      url: `/api/exams/${exam.id}/preview-token`,
      headers: owner.headers,
    });
    const preview = await app.inject({
      method: 'GET',
      url: `/api/public/exams/${exam.id}/preview`,
      headers: { authorization: `Bearer ${issued.json().token}` },
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().questions[0]).toMatchObject({ repositoryFiles: ['src/parser.py'], hiddenTestCount: 1 });
    await put(exam.id, { isLive: true });
    const summary = await app.inject({ method: 'GET', url: `/api/public/exams/${exam.id}` });
    expect(summary.statusCode).toBe(200);
    for (const body of [preview.body, summary.body]) {
      for (const secret of [
        'HIDDEN-FILE-CANARY',
        'STARTER-CONTENT-CANARY',
        'HIDDEN-STDIN-CANARY',
        'HIDDEN-EXPECTED-CANARY',
      ]) {
        expect(body).not.toContain(secret);
      }
      expect(body).not.toContain('REFERENCE-CANARY');
      expect(body).not.toContain('hiddenFiles');
      expect(body).not.toContain('main.py');
    }
  });

  it("does not let another creator read or change an exam's workspace agent", async () => {
    const other = await createCreator(app);
    const exam = await createExam(app, owner.headers, { aiSettings: { enabled: true, provider: 'openai' } });
    expect((await put(exam.id, { codingWorkspace: agentOn('codex') }, other.headers)).statusCode).toBe(404);
    expect((await stored(exam.id)).codingWorkspace.ai).toBeUndefined();
  });
});
