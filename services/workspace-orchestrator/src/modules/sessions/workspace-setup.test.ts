import { QuestionSchema } from '@exam/domain/question';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import type { WorkspaceAgentClaims } from '@exam/domain/workspace-agents';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dockerClient } from '../../engine/docker-client.ts';
import { buildTestApp, newAttempt } from '../../testing/app.ts';
import { containerOf, execIn, stdoutOf } from '../../testing/docker.ts';
import { agentEnvFile, agentTokenExpiry, starterFiles } from './workspace-setup.ts';

const socketPath = inject('dockerSocket');

let n = 0;
const buildQuestion = (fields: Record<string, unknown>) =>
  QuestionSchema.parse({ id: `q${++n}`, title: 'A question', ...fields });
const repositoryQuestion = (
  files: Array<{ path: string; content: string }>,
  hidden = [{ path: 'grader.py', content: 'secret' }],
) => buildQuestion({ type: 'coding', language: 'python', repository: { files, hiddenFiles: hidden } });
const sqlQuestion = (setupScript: string) => buildQuestion({ type: 'coding', language: 'sql', setupScript });
const vscode = {
  enabled: true,
  saveFilesInResults: true,
  workspaceType: 'vscode' as const,
  allowPackageRegistries: false,
};

describe('starter files', () => {
  it('puts one question’s repository at the workspace root, never its hidden files', () => {
    const files = starterFiles({
      codingWorkspace: vscode,
      questions: [buildQuestion({ type: 'short-answer' }), repositoryQuestion([{ path: 'src/app.py', content: 'x' }])],
    });
    expect(files).toEqual([{ path: 'src/app.py', content: 'x' }]);
  });

  it('puts each repository under q<N>/ (the exam’s numbering) when several questions have one, and a SQL setup at the root only on oracle-sql', () => {
    const questions = [
      repositoryQuestion([{ path: 'a.py', content: 'a' }]),
      buildQuestion({ type: 'short-answer' }),
      sqlQuestion('CREATE TABLE t (id int);'),
    ];
    const sqlFile = { path: 'q3-a-question/main.sql', content: '' };
    expect(starterFiles({ codingWorkspace: vscode, questions })).toEqual([{ path: 'a.py', content: 'a' }, sqlFile]);
    expect(starterFiles({ codingWorkspace: { ...vscode, workspaceType: 'oracle-sql' }, questions })).toEqual([
      { path: 'a.py', content: 'a' },
      sqlFile,
      { path: 'setup.sql', content: 'CREATE TABLE t (id int);' },
    ]);
    const two = [...questions, repositoryQuestion([{ path: 'b.py', content: 'b' }])];
    expect(starterFiles({ codingWorkspace: vscode, questions: two })).toEqual([
      { path: 'q1/a.py', content: 'a' },
      { path: 'q4/b.py', content: 'b' },
      sqlFile,
    ]);
  });

  it("seeds each coding question's file with its starter code, one per language the candidate may choose", () => {
    const questions = [
      buildQuestion({ type: 'short-answer' }),
      buildQuestion({ type: 'coding', title: 'Sum two numbers', language: 'python', starterCode: 'print(0)' }),
      buildQuestion({
        type: 'coding',
        title: 'Echo',
        language: 'python',
        languages: ['python', 'javascript'],
        starterCode: '# echo',
        starterCodes: { javascript: '// echo' },
      }),
      buildQuestion({ type: 'coding', title: 'Own path', language: 'cpp', workspaceFile: 'src/answer.cpp' }),
    ];
    expect(starterFiles({ codingWorkspace: vscode, questions })).toEqual([
      { path: 'q2-sum-two-numbers/main.py', content: 'print(0)' },
      { path: 'q3-echo/main.py', content: '# echo' },
      { path: 'q3-echo/main.js', content: '// echo' },
      { path: 'src/answer.cpp', content: '' },
    ]);
    // An agentic task's source file comes from its repository, or from its starter code when the repository has none.
    const task = repositoryQuestion([{ path: 'main.py', content: 'from repo' }]);
    expect(starterFiles({ codingWorkspace: vscode, questions: [task] })).toEqual([
      { path: 'main.py', content: 'from repo' },
    ]);
    const bare = { ...repositoryQuestion([{ path: 'lib.py', content: 'x' }]), starterCode: 'print(1)' };
    expect(starterFiles({ codingWorkspace: vscode, questions: [bare] })).toEqual([
      { path: 'lib.py', content: 'x' },
      { path: 'main.py', content: 'print(1)' },
    ]);
  });

  it('writes shell-safe KEY=value lines, quoting only what needs it', () => {
    expect(agentEnvFile({ A: 'http://exam-ai:3140/v1', B: "it's a model" })).toBe(
      "A=http://exam-ai:3140/v1\nB='it'\\''s a model'\n",
    );
  });

  it('lets an agent token expire 15 minutes after the deadline, and never later than 12 hours from now', () => {
    const now = new Date('2026-01-01T10:00:00Z');
    expect(agentTokenExpiry(now, '2026-01-01T11:00:00Z').toISOString()).toBe('2026-01-01T11:15:00.000Z');
    expect(agentTokenExpiry(now, '2026-01-03T11:00:00Z').toISOString()).toBe('2026-01-01T22:00:00.000Z');
    expect(agentTokenExpiry(now, null).toISOString()).toBe('2026-01-01T22:00:00.000Z');
  });
});

describe.skipIf(!socketPath)('a workspace handed to an attempt (real engine)', () => {
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  const docker = dockerClient(socketPath ?? '');
  const agentExam = { ai: { mode: 'agent' as const, agent: 'codex' as const } };
  const aiSettings = { enabled: true, provider: 'openai' as const, model: 'gpt-4.1-mini' };

  beforeAll(async () => {
    app = await buildTestApp({
      socketPath: socketPath!,
      instance: inject('workspaceInstance'),
      // oracle-sql on the small test image too; a host of its own, so no other suite claims this one's warm editors.
      env: { WORKSPACE_IMAGE_OVERRIDES: 'vscode=test,oracle-sql=test', WORKSPACE_HOST_ID: `setup-${Date.now()}` },
    });
  });
  afterAll(() => app.close());

  const create = async (attempt: ReturnType<typeof newAttempt>) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/session/create',
      headers: attempt.headers,
      payload: {},
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ sessionId: string; warm: boolean }>();
  };
  const read = async (sessionId: string, path: string) => {
    const result = await execIn(docker, await containerOf(docker, sessionId), ['cat', path]);
    return { exitCode: result.exitCode, output: stdoutOf(result.output) };
  };
  const envOf = (text: string) =>
    Object.fromEntries(
      text
        .trim()
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );

  it("gives an agent exam's workspace the agent's settings with a token for the attempt, never the creator's key", async () => {
    const attempt = newAttempt(app, agentExam);
    const deadline = new Date(Date.now() + 3600_000).toISOString();
    app.examDetails.set(attempt.claims.examId, { aiSettings });
    app.deadlines.set(attempt.claims.sub, deadline);
    const session = await create(attempt);
    const file = await read(session.sessionId, '/tmp/home/.exam-agent.env');
    expect(file.exitCode).toBe(0);
    const env = envOf(file.output);
    expect(env).toMatchObject({
      EXAM_AGENT: 'codex',
      EXAM_AGENT_WIRE: 'openai-responses',
      EXAM_AI_MODEL: 'gpt-4.1-mini',
      OPENAI_BASE_URL: expect.stringMatching(/^http:\/\/exam-ai:314[0-4]\/v1$/),
    });
    const claims = app.jwt.verify<WorkspaceAgentClaims & { exp: number }>(env.OPENAI_API_KEY!);
    expect(claims).toMatchObject({
      kind: 'workspace-agent',
      sub: attempt.claims.sub,
      examId: attempt.claims.examId,
      sessionId: session.sessionId,
      agent: 'codex',
    });
    expect(claims.exp * 1000).toBeLessThanOrEqual(Date.parse(deadline) + 15 * 60_000 + 1000);
    expect(claims.exp * 1000).toBeGreaterThan(Date.parse(deadline));
    const mode = await execIn(docker, await containerOf(docker, session.sessionId), [
      'stat',
      '-c',
      '%a %u',
      '/tmp/home/.exam-agent.env',
    ]);
    expect(stdoutOf(mode.output).trim()).toBe('600 1000');
  });

  it('writes no agent settings for an exam whose workspace AI is the chat assistant', async () => {
    const attempt = newAttempt(app);
    app.examDetails.set(attempt.claims.examId, { aiSettings });
    const session = await create(attempt);
    expect((await read(session.sessionId, '/tmp/home/.exam-agent.env')).exitCode).not.toBe(0);
  });

  it('copies the starter repository on the first start only: a restarted workspace keeps the candidate’s files', async () => {
    const attempt = newAttempt(app);
    app.examDetails.set(attempt.claims.examId, {
      questions: [
        repositoryQuestion([
          { path: 'src/app.py', content: 'print("start")\n' },
          { path: 'README.md', content: 'task' },
        ]),
      ],
    });
    const first = await create(attempt);
    expect((await read(first.sessionId, '/home/coder/workspace/src/app.py')).output).toBe('print("start")\n');
    expect((await read(first.sessionId, '/home/coder/workspace/grader.py')).exitCode).not.toBe(0);
    const owner = await execIn(docker, await containerOf(docker, first.sessionId), [
      'stat',
      '-c',
      '%u',
      '/home/coder/workspace/src/app.py',
    ]);
    expect(stdoutOf(owner.output).trim()).toBe('1000');
    await execIn(docker, await containerOf(docker, first.sessionId), [
      'sh',
      '-c',
      'echo mine > /home/coder/workspace/src/app.py && rm /home/coder/workspace/README.md',
    ]);
    await app.inject({ method: 'DELETE', url: `/api/session/${first.sessionId}`, headers: attempt.headers });
    const again = await create(attempt);
    expect(again.sessionId).not.toBe(first.sessionId);
    expect((await read(again.sessionId, '/home/coder/workspace/src/app.py')).output).toBe('mine\n');
    expect((await read(again.sessionId, '/home/coder/workspace/README.md')).exitCode).not.toBe(0);
  });

  it("puts several questions' repositories under q<N>/ and a SQL question's setup script at the root on oracle-sql", async () => {
    const attempt = newAttempt(app, { workspaceType: 'oracle-sql' });
    app.examDetails.set(attempt.claims.examId, {
      questions: [
        repositoryQuestion([{ path: 'a.py', content: 'a' }]),
        sqlQuestion('CREATE TABLE t (id int);'),
        repositoryQuestion([{ path: 'b.py', content: 'b' }]),
      ],
    });
    const session = await create(attempt);
    expect((await read(session.sessionId, '/home/coder/workspace/q1/a.py')).output).toBe('a');
    expect((await read(session.sessionId, '/home/coder/workspace/q3/b.py')).output).toBe('b');
    expect((await read(session.sessionId, '/home/coder/workspace/setup.sql')).output).toBe('CREATE TABLE t (id int);');
  });

  it("seeds each coding question's file, which the collect on submit returns as the candidate left it", async () => {
    const attempt = newAttempt(app);
    app.examDetails.set(attempt.claims.examId, {
      questions: [
        buildQuestion({ type: 'short-answer' }),
        buildQuestion({ type: 'coding', title: 'Sum two numbers', language: 'python', starterCode: 'print(0)\n' }),
      ],
    });
    const session = await create(attempt);
    const path = '/home/coder/workspace/q2-sum-two-numbers/main.py';
    expect((await read(session.sessionId, path)).output).toBe('print(0)\n');
    await execIn(docker, await containerOf(docker, session.sessionId), ['sh', '-c', `echo 'print(1 + 2)' > ${path}`]);
    const collected = await app.inject({
      method: 'POST',
      url: `/internal/attempts/${attempt.claims.sub}/collect`,
      headers: { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN },
      payload: { priorityFiles: ['q2-sum-two-numbers/main.py'] },
    });
    expect(collected.statusCode, collected.body).toBe(200);
    expect(collected.json().files['q2-sum-two-numbers/main.py']).toMatchObject({
      content: 'print(1 + 2)\n',
      isBinary: false,
    });
  });

  it('gives a warm editor claimed by an agent exam its starter files and agent settings', async () => {
    const pooled = await buildTestApp({
      socketPath: socketPath!,
      instance: inject('workspaceInstance'),
      env: { WARM_POOL_SIZE: '1', WORKSPACE_HOST_ID: `setup-warm-${Date.now()}` },
    });
    try {
      await pooled.jobs.refill();
      const attempt = newAttempt(pooled, agentExam);
      pooled.examDetails.set(attempt.claims.examId, {
        aiSettings,
        questions: [repositoryQuestion([{ path: 'main.py', content: 'pass\n' }])],
      });
      const response = await pooled.inject({
        method: 'POST',
        url: '/api/session/create',
        headers: attempt.headers,
        payload: {},
      });
      const session = response.json<{ sessionId: string; warm: boolean }>();
      expect(session.warm).toBe(true);
      const id = await containerOf(docker, session.sessionId);
      expect(stdoutOf((await execIn(docker, id, ['cat', '/home/coder/workspace/main.py'])).output)).toBe('pass\n');
      const env = envOf(stdoutOf((await execIn(docker, id, ['cat', '/tmp/home/.exam-agent.env'])).output));
      expect(pooled.jwt.verify<WorkspaceAgentClaims>(env.ANTHROPIC_API_KEY!)).toMatchObject({
        sub: attempt.claims.sub,
        sessionId: session.sessionId,
      });
    } finally {
      await pooled.close();
    }
  });

  describe('a snapshot on demand (POST /internal/attempts/:attemptId/workspace-snapshot)', () => {
    const internal = { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN };
    it("answers 202 and stores the running workspace's files in the attempt's history", async () => {
      const attempt = newAttempt(app);
      const session = await create(attempt);
      await execIn(docker, await containerOf(docker, session.sessionId), [
        'sh',
        '-c',
        'echo "x = 1" > /home/coder/workspace/agent.py',
      ]);
      const response = await app.inject({
        method: 'POST',
        url: `/internal/attempts/${attempt.claims.sub}/workspace-snapshot`,
        headers: internal,
      });
      expect(response.statusCode).toBe(202);
      expect(response.json()).toEqual({ sessionId: session.sessionId });
      let history = await app.workspaces.history.read(attempt.claims.sub);
      for (let i = 0; i < 50 && !history.files.length; i++) {
        await new Promise((r) => setTimeout(r, 100));
        history = await app.workspaces.history.read(attempt.claims.sub);
      }
      expect(history.files.find((f) => f.path === 'agent.py')?.changes[0]?.content).toBe('x = 1\n');
    });

    it('answers 404 for an attempt without a running workspace, and 401 without the internal token', async () => {
      const missing = await app.inject({
        method: 'POST',
        url: '/internal/attempts/no-such-attempt/workspace-snapshot',
        headers: internal,
      });
      expect(missing.statusCode).toBe(404);
      const anonymous = await app.inject({ method: 'POST', url: '/internal/attempts/x/workspace-snapshot' });
      expect(anonymous.statusCode).toBe(401);
    });
  });
});
