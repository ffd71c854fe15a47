import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InternalWorkspaceHistory, TranscriptMessage } from '@exam/domain/internal';
import type { AgentCall } from '@exam/domain/workspace-agents';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHttpAttemptTranscripts } from './attempt-transcript.ts';
import { createHttpWorkspaceHistory } from './workspace-history.ts';

const message = (id: string, role: 'user' | 'assistant', content: string, extra: object = {}): TranscriptMessage => ({
  id,
  role,
  content,
  questionIndex: 0,
  isError: false,
  files: [],
  createdAt: '2031-01-01T10:00:00.000Z',
  ...extra,
});

const history: InternalWorkspaceHistory = {
  capped: false,
  files: [
    {
      path: 'src/main.py',
      changes: [
        { at: '2031-01-01T10:01:00.000Z', content: 'print(1)\n', source: 'typed', deleted: false },
        { at: '2031-01-01T10:02:00.000Z', content: '', source: null, deleted: true },
      ],
    },
  ],
};

const agentCall = (attemptId: string): AgentCall => ({
  id: 'call-1',
  kind: 'agent',
  attemptId,
  agent: 'claude-code',
  wire: 'anthropic-messages',
  model: 'claude-test',
  status: 'withheld',
  reason: 'The reply was about to give away an answer key',
  input: 'fix the tests',
  toolResults: [{ callId: 'toolu_0', output: '2 passed' }],
  reply: 'I will edit app.py',
  toolCalls: [{ id: 'toolu_1', name: 'Edit', arguments: '{"file_path":"app.py"}' }],
  inputTokens: 120,
  outputTokens: 30,
  startedAt: '2031-01-01T10:03:00.000Z',
  finishedAt: '2031-01-01T10:03:05.000Z',
});

/** llm-gateway's and workspace-orchestrator's internal routes as their contracts have them; anything else 404s. */
function upstream() {
  const seen: { method: string; url: string; token: string | undefined }[] = [];
  const state = { status: 200, body: undefined as unknown };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', token: req.headers['x-internal-token'] as string });
    const json = (status: number, payload: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
    if (req.headers['x-internal-token'] !== TEST_SECRETS.INTERNAL_TOKEN)
      return json(401, { error: { code: 'UNAUTHENTICATED', message: 'Bad internal token' } });
    const transcript = /^\/internal\/attempts\/([^/]+)\/transcript$/.exec(req.url ?? '');
    if (transcript && state.status === 200 && state.body === undefined) {
      const attemptId = decodeURIComponent(transcript[1]!);
      return json(200, { attemptId, messages: [message('m1', 'user', 'hi'), message('m2', 'assistant', 'hello')] });
    }
    const agentCalls = /^\/internal\/attempts\/([^/]+)\/agent-calls$/.exec(req.url ?? '');
    if (agentCalls && state.status === 200 && state.body === undefined)
      return json(200, { calls: [agentCall(decodeURIComponent(agentCalls[1]!))] });
    const files = /^\/internal\/attempts\/([^/]+)\/file-history$/.exec(req.url ?? '');
    if (files && state.status === 200 && state.body === undefined) {
      if (files[1] === 'no-workspace') return json(404, { error: { code: 'NOT_FOUND', message: 'No workspace' } });
      return json(200, history);
    }
    if (transcript || files || agentCalls) return json(state.status, state.body);
    json(404, { error: { code: 'NOT_FOUND', message: 'Not found' } });
  });
  return { server, seen, state };
}

describe("the timeline's reads of llm-gateway and workspace-orchestrator over HTTP", () => {
  const { server, seen, state } = upstream();
  let base = '';
  let transcripts: ReturnType<typeof createHttpAttemptTranscripts>;
  let workspace: ReturnType<typeof createHttpWorkspaceHistory>;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    transcripts = createHttpAttemptTranscripts(base, TEST_SECRETS.INTERNAL_TOKEN, { timeoutMs: 2000 });
    workspace = createHttpWorkspaceHistory(base, TEST_SECRETS.INTERNAL_TOKEN, { timeoutMs: 2000 });
  });
  afterAll(async () => {
    transcripts.close();
    workspace.close();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    seen.length = 0;
    state.status = 200;
    state.body = undefined;
  });

  it("reads one attempt's transcript with the internal token, the id escaped in the path", async () => {
    const messages = await transcripts.findAttemptTranscript('attempt 1/x');
    expect(messages.map((m) => [m.id, m.role, m.content])).toEqual([
      ['m1', 'user', 'hi'],
      ['m2', 'assistant', 'hello'],
    ]);
    expect(seen).toEqual([
      { method: 'GET', url: '/internal/attempts/attempt%201%2Fx/transcript', token: TEST_SECRETS.INTERNAL_TOKEN },
    ]);
  });

  it("reads one attempt's agent calls from llm-gateway with the internal token", async () => {
    expect(await transcripts.findAgentCalls('attempt 2/y')).toEqual([agentCall('attempt 2/y')]);
    expect(seen).toEqual([
      { method: 'GET', url: '/internal/attempts/attempt%202%2Fy/agent-calls', token: TEST_SECRETS.INTERNAL_TOKEN },
    ]);
  });

  it("reads one attempt's file history, and an empty one when the orchestrator never had a workspace for it", async () => {
    expect(await workspace.fileHistory('attempt-1')).toEqual(history);
    expect(seen[0]).toEqual({
      method: 'GET',
      url: '/internal/attempts/attempt-1/file-history',
      token: TEST_SECRETS.INTERNAL_TOKEN,
    });
    expect(await workspace.fileHistory('no-workspace')).toEqual({ files: [], capped: false });
  });

  it('fails as UPSTREAM on an unexpected status or a body off the contract', async () => {
    state.status = 500;
    state.body = { error: { code: 'INTERNAL', message: 'boom' } };
    await expect(transcripts.findAttemptTranscript('a')).rejects.toMatchObject({ code: 'UPSTREAM' });
    await expect(transcripts.findAgentCalls('a')).rejects.toMatchObject({ code: 'UPSTREAM' });
    await expect(workspace.fileHistory('a')).rejects.toMatchObject({ code: 'UPSTREAM' });
    state.status = 200;
    state.body = { calls: [{ id: 'x', kind: 'chat' }] };
    await expect(transcripts.findAgentCalls('a')).rejects.toMatchObject({ code: 'UPSTREAM' });
    state.body = { messages: 'nope' };
    await expect(transcripts.findAttemptTranscript('a')).rejects.toMatchObject({ code: 'UPSTREAM' });
    state.body = { files: [{ path: 'x' }], capped: false };
    await expect(workspace.fileHistory('a')).rejects.toMatchObject({ code: 'UPSTREAM' });
  });

  it('fails as UNAVAILABLE when the service cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const offTranscripts = createHttpAttemptTranscripts(`http://127.0.0.1:${port}`, 'x', { timeoutMs: 500 });
    const offWorkspace = createHttpWorkspaceHistory(`http://127.0.0.1:${port}`, 'x', { timeoutMs: 500 });
    try {
      await expect(offTranscripts.findAttemptTranscript('a')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
      await expect(offTranscripts.findAgentCalls('a')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
      await expect(offWorkspace.fileHistory('a')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    } finally {
      offTranscripts.close();
      offWorkspace.close();
    }
  });
});
