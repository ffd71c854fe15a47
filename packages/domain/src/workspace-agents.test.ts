import { describe, expect, it } from 'vitest';
import { QuestionSchema } from './question.ts';
import {
  agentEnvironment,
  agentsFor,
  agentWireFor,
  attributeAgentChanges,
  workspaceAiIssue,
  WorkspaceAgentClaimsSchema,
} from './workspace-agents.ts';

describe('which agent speaks to which provider', () => {
  it('offers each provider only the agents whose wire format it serves', () => {
    expect(agentsFor('openai')).toEqual(['codex', 'qwen-code', 'opencode']);
    expect(agentsFor('anthropic')).toEqual(['claude-code', 'opencode']);
    expect(agentsFor('groq')).toEqual(['qwen-code', 'opencode']);
    expect(agentsFor('google')).toEqual([]);
    expect(agentWireFor('opencode', 'anthropic')).toBe('anthropic-messages');
    expect(agentWireFor('opencode', 'openai')).toBe('openai-chat');
    expect(agentWireFor('codex', 'anthropic')).toBeNull();
  });

  it('refuses an agent the assistant cannot serve, naming the field and the agents that can', () => {
    const issue = workspaceAiIssue({
      codingWorkspace: { enabled: true, ai: { mode: 'agent', agent: 'codex' } },
      aiSettings: { enabled: true, provider: 'anthropic' },
    });
    expect(issue).toEqual({
      path: ['codingWorkspace', 'ai', 'agent'],
      message: "Codex CLI cannot use the assistant's provider (anthropic); choose Claude Code or opencode",
    });
    expect(
      workspaceAiIssue({
        codingWorkspace: { enabled: true, ai: { mode: 'agent', agent: null } },
        aiSettings: { enabled: true, provider: 'openai' },
      })?.message,
    ).toBe('Choose the agent candidates get in the workspace');
    expect(
      workspaceAiIssue({
        codingWorkspace: { enabled: true, ai: { mode: 'agent', agent: 'codex' } },
        aiSettings: { enabled: false, provider: 'openai' },
      })?.message,
    ).toMatch(/Turn the AI assistant on/);
    expect(
      workspaceAiIssue({
        codingWorkspace: { enabled: true, ai: { mode: 'agent', agent: 'claude-code' } },
        aiSettings: { enabled: true, provider: 'anthropic' },
      }),
    ).toBeNull();
  });
});

describe('the agent environment', () => {
  it('points every agent at the relay with the workspace token and never a provider key', () => {
    const env = agentEnvironment({
      relayBaseUrl: 'http://exam-ai:3140/',
      token: 'ws-token',
      agent: 'codex',
      provider: 'openai',
      model: 'gpt-4.1',
    });
    expect(env.OPENAI_BASE_URL).toBe('http://exam-ai:3140/v1');
    expect(env.ANTHROPIC_BASE_URL).toBe('http://exam-ai:3140');
    expect(env.OPENAI_API_KEY).toBe('ws-token');
    expect(env.ANTHROPIC_API_KEY).toBe('ws-token');
    expect(env.EXAM_AGENT_WIRE).toBe('openai-responses');
    expect(Object.values(env).some((v) => v.startsWith('sk-'))).toBe(false);
  });

  it('has a claims schema that a chat attempt token does not pass', () => {
    expect(
      WorkspaceAgentClaimsSchema.safeParse({ kind: 'attempt', sub: 'a', examId: 'e', sessionId: 's', agent: 'codex' })
        .success,
    ).toBe(false);
    expect(
      WorkspaceAgentClaimsSchema.safeParse({
        kind: 'workspace-agent',
        sub: 'a',
        examId: 'e',
        sessionId: 's',
        agent: 'codex',
      }).success,
    ).toBe(true);
  });
});

describe('which agent call made a workspace change', () => {
  const call = (id: string, start: number, end: number, tools: number) => ({
    id,
    startedAt: new Date(start).toISOString(),
    finishedAt: new Date(end).toISOString(),
    toolCalls: Array.from({ length: tools }, (_, i) => ({ id: `t${i}`, name: 'apply_patch', arguments: '' })),
  });
  const at = (ms: number) => ({ at: new Date(ms).toISOString() });

  it('gives a change made between a call that asked for tools and the next call to that call', () => {
    const calls = [call('c1', 50_300, 50_600, 1), call('c2', 50_900, 51_200, 0)];
    // The tool wrote at 50.7 s; the archive's time is cut to 50 s, before c1 started: still c1's.
    expect(attributeAgentChanges([at(50_000)], calls)).toEqual(['c1']);
    // Seconds after the agent's last call, or before any: the candidate's own.
    expect(attributeAgentChanges([at(54_000), at(10_000)], calls)).toEqual([null, null]);
  });

  it("does not wait for the call's recorded end: the agent may run its tool before the gateway stores it", () => {
    const calls = [call('c1', 1000, 5400, 1), call('c2', 5000, 6000, 0)];
    expect(attributeAgentChanges([at(4000)], calls)).toEqual(['c1']);
  });

  it('gives a change after the last call to it when that call asked for tools, within the trail', () => {
    const calls = [call('c1', 1000, 2000, 2)];
    expect(attributeAgentChanges([at(10_000), at(200_000)], calls)).toEqual(['c1', null]);
  });

  it('takes the later call when two calls with tools follow each other', () => {
    const calls = [call('c1', 1000, 1500, 1), call('c2', 3000, 3500, 1), call('c3', 6000, 6500, 0)];
    expect(attributeAgentChanges([at(2000), at(4000)], calls)).toEqual(['c1', 'c2']);
  });
});

describe('an agentic task', () => {
  const base = { id: 'q1', type: 'coding', title: 'Parser', content: 'Fix the parser', language: 'python', points: 1 };

  it('takes a starter repository and hidden files', () => {
    const q = QuestionSchema.parse({
      ...base,
      repository: {
        files: [{ path: 'parser.py', content: 'def parse(s):\n  pass\n' }],
        hiddenFiles: [{ path: 'main.py', content: 'import parser\n' }],
      },
    });
    expect(q.repository?.files.map((f) => f.path)).toEqual(['parser.py']);
  });

  it("refuses paths that leave the repository, repeat, or take the runner's own names", () => {
    const bad = (files: Array<{ path: string; content: string }>) =>
      QuestionSchema.safeParse({ ...base, repository: { files } }).error?.issues.map((i) => [
        i.path.join('.'),
        i.message,
      ]);
    expect(bad([{ path: '../etc/passwd', content: '' }])?.[0]?.[0]).toBe('repository.files.0.path');
    expect(bad([{ path: '/abs.py', content: '' }])?.[0]?.[0]).toBe('repository.files.0.path');
    expect(bad([{ path: 'tests/x.py', content: '' }])).toEqual([
      ['repository.files.0.path', '"tests" is kept for the test runner'],
    ]);
    expect(
      bad([
        { path: 'a.py', content: '' },
        { path: 'a.py', content: '' },
      ]),
    ).toEqual([['repository.files.1.path', 'Each file needs its own path']]);
    expect(
      QuestionSchema.safeParse({ ...base, type: 'short-answer', repository: { files: [] } }).error?.issues[0]?.message,
    ).toBe('Only coding questions have a repository');
  });
});
