import { randomUUID } from 'node:crypto';
import type { InternalExam } from '@exam/domain/internal';
import { LlmMessages } from '@exam/domain/llm';
import { instantiateQuestion } from '@exam/domain/calculated';
import { QuestionSchema, toPublicQuestion } from '@exam/domain/question';
import type { AgentCall, WorkspaceAgent } from '@exam/domain/workspace-agents';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  anthropicToolUseFrames,
  openAiChatToolFrames,
  relayedEvents,
  responsesFrames,
} from '../../testing/agent-provider-mocks.ts';
import { buildTestApp, creatorHeaders, startAttempt, TEST_ENDPOINTS, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { errorBodies, recordingHandler, sseResponse, type RecordedCall } from '../../testing/provider-mocks.ts';

const ORCHESTRATOR = 'http://orchestrator.test';
const OPENAI_CHAT = `${TEST_ENDPOINTS.openai}/chat/completions`;
const OPENAI_RESPONSES = `${TEST_ENDPOINTS.openai}/responses`;
const ANTHROPIC = `${TEST_ENDPOINTS.anthropic}/v1/messages`;
const server = setupServer();
const calls: RecordedCall[] = [];
const snapshots: string[] = [];

/** An exam whose workspace gives candidates `agent`, on the given provider (the assistant's settings). */
function agentExam(agent: WorkspaceAgent, opts: Parameters<typeof makeExam>[0] = {}): InternalExam {
  const exam = makeExam(opts);
  return { ...exam, codingWorkspace: { ...exam.codingWorkspace, enabled: true, ai: { mode: 'agent', agent } } };
}

describe('the agent endpoint', () => {
  let app: TestApp;
  beforeAll(async () => {
    server.listen({ onUnhandledRequest: 'error' });
    app = await buildTestApp({ env: { WORKSPACE_ORCHESTRATOR_URL: ORCHESTRATOR } });
  });
  afterEach(() => {
    server.resetHandlers();
    calls.length = 0;
    snapshots.length = 0;
  });
  afterAll(async () => {
    await app.close();
    server.close();
  });

  const snapshotsAnswered = () =>
    server.use(
      http.post(`${ORCHESTRATOR}/internal/attempts/:attemptId/workspace-snapshot`, ({ params, request }) => {
        expect(request.headers.get('x-internal-token')).toBeTruthy();
        snapshots.push(String(params.attemptId));
        return HttpResponse.json({ ok: true }, { status: 202 });
      }),
    );
  const provider = (url: string, frames: string[]) => {
    snapshotsAnswered();
    server.use(recordingHandler(url, calls, () => sseResponse(frames)));
  };
  /** An open attempt on the exam and its workspace's agent token (the orchestrator signs the same claims). */
  const workspace = (exam: InternalExam, agent: WorkspaceAgent, opts: Parameters<typeof startAttempt>[2] = {}) => {
    const { attemptId, headers: attemptHeaders } = startAttempt(app, exam, opts);
    const token = app.jwt.sign({ kind: 'workspace-agent', sub: attemptId, examId: exam.id, sessionId: 'ws-1', agent });
    return { attemptId, token, attemptHeaders };
  };
  const post = (url: string, headers: Record<string, string>, payload: unknown) =>
    app.inject({ method: 'POST', url, headers, payload: payload as Record<string, unknown> });
  const callsOf = async (exam: InternalExam, attemptId: string): Promise<AgentCall[]> => {
    const response = await app.inject({
      url: `/api/llm/attempts/${attemptId}/agent-calls`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    expect(response.statusCode).toBe(200);
    return response.json().calls;
  };
  const examUsage = async (exam: InternalExam) =>
    (await app.inject({ url: `/api/llm/exams/${exam.id}/usage`, headers: creatorHeaders(app, exam.ownerId) })).json()
      .lastHour as { requests: number; tokens: number };
  const chatBody = (content: string, extra: Record<string, unknown> = {}) => ({
    model: 'gpt-5-codex',
    stream: true,
    messages: [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content },
    ],
    tools: [{ type: 'function', function: { name: 'write_file', parameters: { type: 'object' } } }],
    ...extra,
  });

  it('relays an OpenAI chat stream with tool calls unchanged and in order, with the exam model and key, and stores the call', async () => {
    const frames = openAiChatToolFrames(['I will ', 'write it.'], {
      id: 'call_1',
      name: 'write_file',
      argumentPieces: ['{"path":"a.py",', '"content":"print(1)\\n"}'],
    });
    provider(OPENAI_CHAT, frames);
    const exam = agentExam('qwen-code');
    const { attemptId, token } = workspace(exam, 'qwen-code');
    const response = await post(
      '/api/agent/v1/chat/completions',
      { authorization: `Bearer ${token}` },
      chatBody('Add a test'),
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/event-stream');
    expect(response.payload).toBe(frames.join(''));

    const sent = calls[0]!;
    expect(sent.body.model).toBe('gpt-4o-mini');
    expect(sent.body.tools).toEqual(chatBody('').tools);
    expect(sent.body.stream_options).toEqual({ include_usage: true });
    expect(sent.headers.authorization).toBe(`Bearer sk-creator-${exam.id}`);
    expect(JSON.stringify(sent)).not.toContain(token);

    const [stored] = await callsOf(exam, attemptId);
    expect(stored).toMatchObject({
      kind: 'agent',
      agent: 'qwen-code',
      wire: 'openai-chat',
      model: 'gpt-4o-mini',
      status: 'ok',
      input: 'Add a test',
      reply: 'I will write it.',
      toolCalls: [{ id: 'call_1', name: 'write_file', arguments: '{"path":"a.py","content":"print(1)\\n"}' }],
      inputTokens: 300,
      outputTokens: 50,
    });
    expect(stored!.finishedAt).not.toBeNull();
    expect(await examUsage(exam)).toMatchObject({ requests: 1, tokens: 350 });
    expect(snapshots).toEqual([attemptId]);
  });

  it("relays the Responses API's events (Codex CLI) and stores the tool results it carried back", async () => {
    const frames = responsesFrames(['Done, ', 'tests pass.'], {
      id: 'call_77',
      name: 'shell',
      argumentPieces: ['{"command":["pytest"', ',"-q"]}'],
    });
    provider(OPENAI_RESPONSES, frames);
    const exam = agentExam('codex');
    const { attemptId, token } = workspace(exam, 'codex');
    const response = await post(
      '/api/agent/v1/responses',
      { authorization: `Bearer ${token}` },
      {
        model: 'gpt-5-codex',
        stream: true,
        store: false,
        instructions: 'You are Codex.',
        input: [
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix parse()' }] },
          { type: 'function_call', call_id: 'call_76', name: 'shell', arguments: '{"command":["cat","a.py"]}' },
          { type: 'function_call_output', call_id: 'call_76', output: 'def parse(): pass' },
        ],
        tools: [{ type: 'function', name: 'shell', parameters: { type: 'object' } }],
      },
    );
    expect(response.statusCode).toBe(200);
    expect(response.payload).toBe(frames.join(''));
    expect(relayedEvents(response.payload).at(-1)?.name).toBe('response.completed');
    expect(calls[0]!.body.model).toBe('gpt-4o-mini');

    const [stored] = await callsOf(exam, attemptId);
    expect(stored).toMatchObject({
      wire: 'openai-responses',
      status: 'ok',
      input: 'def parse(): pass',
      toolResults: [{ callId: 'call_76', output: 'def parse(): pass' }],
      reply: 'Done, tests pass.',
      toolCalls: [{ id: 'call_77', name: 'shell', arguments: '{"command":["pytest","-q"]}' }],
      inputTokens: 400,
      outputTokens: 60,
    });
  });

  it('relays an Anthropic stream (Claude Code: x-api-key, ?beta=true) with the exam key in place of the token', async () => {
    const frames = anthropicToolUseFrames(
      ['Reading the file.'],
      {
        id: 'toolu_1',
        name: 'Read',
        argumentPieces: ['{"file_path":', '"/home/coder/a.py"}'],
      },
      { input: 500, output: 70, cacheRead: 1000 },
    );
    provider(ANTHROPIC, frames);
    const exam = agentExam('claude-code', { provider: 'anthropic', model: 'claude-sonnet-4' });
    const { attemptId, token } = workspace(exam, 'claude-code');
    const response = await post(
      '/api/agent/v1/messages?beta=true',
      { 'x-api-key': token, 'anthropic-version': '2023-06-01', 'anthropic-beta': 'claude-code-20250219' },
      {
        model: 'claude-opus-4-1',
        max_tokens: 32000,
        stream: true,
        system: [{ type: 'text', text: 'You are Claude Code.' }],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'What does a.py do?' }] }],
        tools: [{ name: 'Read', input_schema: { type: 'object' } }],
      },
    );
    expect(response.statusCode).toBe(200);
    expect(response.payload).toBe(frames.join(''));
    const sent = calls[0]!;
    expect(sent.headers['x-api-key']).toBe(`sk-creator-${exam.id}`);
    expect(sent.headers['anthropic-beta']).toBe('claude-code-20250219');
    expect(sent.body.model).toBe('claude-sonnet-4');

    const [stored] = await callsOf(exam, attemptId);
    expect(stored).toMatchObject({
      wire: 'anthropic-messages',
      status: 'ok',
      input: 'What does a.py do?',
      reply: 'Reading the file.',
      toolCalls: [{ id: 'toolu_1', name: 'Read', arguments: '{"file_path":"/home/coder/a.py"}' }],
      inputTokens: 1500,
      outputTokens: 70,
    });
  });

  it('answers a call without stream as the provider answered it, and stores it', async () => {
    snapshotsAnswered();
    const completion = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-4o-mini',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'ls', arguments: '{}' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 },
    };
    server.use(recordingHandler(OPENAI_CHAT, calls, () => HttpResponse.json(completion)));
    const exam = agentExam('opencode');
    const { attemptId, token } = workspace(exam, 'opencode');
    const response = await post(
      '/api/agent/v1/chat/completions',
      { authorization: `Bearer ${token}` },
      chatBody('List', { stream: false }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(completion);
    expect(calls[0]!.body.stream_options).toBeUndefined();
    const [stored] = await callsOf(exam, attemptId);
    expect(stored).toMatchObject({
      status: 'ok',
      toolCalls: [{ id: 'call_9', name: 'ls', arguments: '{}' }],
      inputTokens: 20,
    });
  });

  it("counts every call against the attempt's tokens and refuses once they are spent (429, no retry), stored as refused", async () => {
    provider(OPENAI_CHAT, openAiChatToolFrames(['ok'], undefined, { input: 900, output: 200 }));
    const exam = agentExam('qwen-code', {
      ai: { budget: { ...makeExam().aiSettings.budget, tokensPerAttempt: 1000 } },
    });
    const { attemptId, token } = workspace(exam, 'qwen-code');
    const headers = { authorization: `Bearer ${token}` };
    expect((await post('/api/agent/v1/chat/completions', headers, chatBody('one'))).statusCode).toBe(200);
    const refused = await post('/api/agent/v1/chat/completions', headers, chatBody('two'));
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['x-should-retry']).toBe('false');
    expect(refused.json()).toEqual({
      error: { message: LlmMessages.tokenLimit, type: 'insufficient_quota', param: null, code: 'insufficient_quota' },
    });
    expect(calls).toHaveLength(1);
    const stored = await callsOf(exam, attemptId);
    expect(stored.map((c) => [c.status, c.input])).toEqual([
      ['ok', 'one'],
      ['refused', 'two'],
    ]);
    expect(stored[1]!.reason).toBe('tokens');
  });

  it("refuses a call over the exam's hourly requests with 429 and Retry-After, counting chat messages and agent calls together", async () => {
    provider(OPENAI_CHAT, openAiChatToolFrames(['ok']));
    server.use(http.post(OPENAI_CHAT, () => sseResponse(openAiChatToolFrames(['chat reply']))));
    const exam = agentExam('qwen-code', {
      ai: { budget: { ...makeExam().aiSettings.budget, examRequestsPerHour: 2 } },
    });
    const { token, attemptHeaders } = workspace(exam, 'qwen-code');
    // One chat message of the candidate and one agent call fill the exam's hour.
    const chat = await app.inject({
      method: 'POST',
      url: '/api/llm/chat',
      headers: attemptHeaders,
      payload: { message: 'hi', questionIndex: null },
    });
    expect(chat.statusCode).toBe(200);
    const headers = { authorization: `Bearer ${token}` };
    expect((await post('/api/agent/v1/chat/completions', headers, chatBody('one'))).statusCode).toBe(200);
    const refused = await post('/api/agent/v1/chat/completions', headers, chatBody('two'));
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().error).toMatchObject({ type: 'requests', code: 'rate_limit_exceeded' });
    expect(await examUsage(exam)).toMatchObject({ requests: 2 });
  });

  describe('with "stop solutions" on', () => {
    const guarded = (agent: WorkspaceAgent, provider: 'openai' | 'anthropic' = 'openai') =>
      agentExam(agent, {
        provider,
        model: provider === 'anthropic' ? 'claude-sonnet-4' : 'gpt-4o-mini',
        ai: { stopSolutions: true },
        questions: [
          QuestionSchema.parse({
            id: 'q1',
            type: 'short-answer',
            title: 'Largest organ?',
            acceptedAnswers: ['epidermis'],
          }),
        ],
      });

    it('stops a streamed reply about to give the key away and ends the stream validly, stored as withheld', async () => {
      provider(OPENAI_CHAT, openAiChatToolFrames(['The answer ', 'is the epi', 'dermis, of course.']));
      const exam = guarded('qwen-code');
      const { attemptId, token } = workspace(exam, 'qwen-code');
      const response = await post(
        '/api/agent/v1/chat/completions',
        { authorization: `Bearer ${token}` },
        chatBody('Answer q1'),
      );
      expect(response.statusCode).toBe(200);
      expect(response.payload).not.toMatch(/epi\s*dermis/);
      const events = relayedEvents(response.payload);
      expect(events.at(-1)?.data).toBe('[DONE]');
      const texts = events.flatMap((e) => {
        const choice = (e.data as { choices?: Array<{ delta?: { content?: string }; finish_reason?: string }> })
          .choices?.[0];
        return choice?.delta?.content ? [choice.delta.content] : [];
      });
      expect(texts.join('')).toBe(`The answer \n\n${LlmMessages.answerWithheld}`);
      const [stored] = await callsOf(exam, attemptId);
      expect(stored).toMatchObject({ status: 'withheld', reply: `The answer \n\n${LlmMessages.answerWithheld}` });
    });

    it('stops a reply whose tool call writes the key into a file: the tool call never reaches the agent', async () => {
      const frames = anthropicToolUseFrames(['Writing the answer file.'], {
        id: 'toolu_leak',
        name: 'Write',
        argumentPieces: ['{"file_path":"answer.txt",', '"content":"The organ is the EPI', 'DERMIS\\n"}'],
      });
      provider(ANTHROPIC, frames);
      const exam = guarded('claude-code', 'anthropic');
      const { attemptId, token } = workspace(exam, 'claude-code');
      const response = await post(
        '/api/agent/v1/messages',
        { 'x-api-key': token },
        {
          max_tokens: 1000,
          stream: true,
          messages: [{ role: 'user', content: 'Write the answer to q1 into answer.txt' }],
        },
      );
      expect(response.statusCode).toBe(200);
      expect(response.payload.toLowerCase()).not.toContain('dermis');
      expect(response.payload).not.toContain('toolu_leak');
      // A valid Messages stream for the agent: every block it saw start stops, then message_delta and message_stop.
      const events = relayedEvents(response.payload);
      const names = events.map((e) => e.name);
      expect(names.filter((n) => n === 'content_block_start').length).toBe(
        names.filter((n) => n === 'content_block_stop').length,
      );
      expect(names.slice(-2)).toEqual(['message_delta', 'message_stop']);
      const lastText = events
        .map((e) => e.data as { delta?: { type?: string; text?: string } })
        .filter((d) => d.delta?.type === 'text_delta')
        .at(-1);
      expect(lastText?.delta?.text).toContain(LlmMessages.answerWithheld);
      const [stored] = await callsOf(exam, attemptId);
      expect(stored).toMatchObject({ status: 'withheld', toolCalls: [] });
      expect(stored!.reply).toContain(LlmMessages.answerWithheld);
    });

    /**
     * A Responses stream whose function call carries its arguments in the output item itself, with no delta events:
     * `response.output_item.done` always has them whole, and some servers send nothing else.
     */
    const wholeItemFrames = (args: string) => {
      const event = (type: string, fields: Record<string, unknown>) =>
        `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;
      const item = {
        type: 'function_call',
        id: 'fc_whole',
        call_id: 'call_whole',
        name: 'exec_command',
        arguments: args,
      };
      const response = {
        id: 'resp_whole',
        object: 'response',
        model: 'gpt-4o-mini',
        status: 'completed',
        output: [item],
      };
      return [
        event('response.created', { response: { ...response, status: 'in_progress', output: [] } }),
        event('response.output_item.added', { output_index: 0, item }),
        event('response.output_item.done', { output_index: 0, item }),
        event('response.completed', { response: { ...response, usage: { input_tokens: 10, output_tokens: 5 } } }),
      ];
    };

    it('reads a tool call whose arguments come whole in the output item (no deltas): stored, and guarded', async () => {
      provider(OPENAI_RESPONSES, wholeItemFrames(JSON.stringify({ cmd: 'ls > listing.txt' })));
      const plain = guarded('codex');
      const first = workspace(plain, 'codex');
      const ok = await post(
        '/api/agent/v1/responses',
        { authorization: `Bearer ${first.token}` },
        { stream: true, input: 'list' },
      );
      expect(ok.statusCode).toBe(200);
      const [stored] = await callsOf(plain, first.attemptId);
      expect(stored).toMatchObject({ status: 'ok', toolCalls: [{ id: 'call_whole', name: 'exec_command' }] });
      expect(stored!.toolCalls[0]!.arguments).toContain('listing.txt');

      provider(OPENAI_RESPONSES, wholeItemFrames(JSON.stringify({ cmd: 'echo The organ is the EPIDERMIS > a.txt' })));
      const leaking = guarded('codex');
      const second = workspace(leaking, 'codex');
      const stopped = await post(
        '/api/agent/v1/responses',
        { authorization: `Bearer ${second.token}` },
        { stream: true, input: 'write the answer' },
      );
      expect(stopped.payload.toLowerCase()).not.toContain('dermis');
      const [withheld] = await callsOf(leaking, second.attemptId);
      expect(withheld).toMatchObject({ status: 'withheld', toolCalls: [] });
    });

    it("stops a reply stating the candidate's own calculated key, which only their attempt knows", async () => {
      const calculated = QuestionSchema.parse({
        id: 'calc',
        type: 'calculated',
        title: 'Speed over {d} m in {t} s?',
        calculated: {
          formula: 'd / t',
          variables: [
            { name: 'd', min: 100, max: 200 },
            { name: 't', min: 9, max: 12, decimals: 1 },
          ],
          answerDecimals: 2,
        },
        units: { units: [{ symbol: 'm/s', multiplier: 1 }] },
      });
      const mine = instantiateQuestion(calculated, 'agent-attempt');
      const key = mine.acceptedAnswers[0]!;
      const exam = agentExam('qwen-code', { ai: { stopSolutions: true }, questions: [calculated] });
      const { attemptId, token } = workspace(exam, 'qwen-code', {
        questions: [toPublicQuestion(mine)],
        calculatedKeys: [{ questionIndex: 0, questionId: 'calc', key, tolerance: null, units: mine.units }],
      });
      provider(OPENAI_CHAT, openAiChatToolFrames(['Divide them: ', `${key} m/s.`]));
      const response = await post(
        '/api/agent/v1/chat/completions',
        { authorization: `Bearer ${token}` },
        chatBody('Q1?'),
      );
      expect(response.payload).not.toContain(key);
      const [stored] = await callsOf(exam, attemptId);
      expect(stored).toMatchObject({ status: 'withheld' });
    });

    it('lets a reply with no key through unchanged', async () => {
      const frames = responsesFrames(['Tests written.'], {
        id: 'c1',
        name: 'shell',
        argumentPieces: ['{"command":["ls"]}'],
      });
      provider(OPENAI_RESPONSES, frames);
      const exam = guarded('codex');
      const { token } = workspace(exam, 'codex');
      const response = await post(
        '/api/agent/v1/responses',
        { authorization: `Bearer ${token}` },
        {
          stream: true,
          input: 'Write tests',
        },
      );
      expect(response.payload).toBe(frames.join(''));
    });
  });

  it('refuses a call once the attempt is closed, in the wire format, stored as refused, with no provider call', async () => {
    provider(ANTHROPIC, anthropicToolUseFrames(['never']));
    const exam = agentExam('claude-code', { provider: 'anthropic', model: 'claude-sonnet-4' });
    const { attemptId, token } = workspace(exam, 'claude-code', { isOpen: false });
    const response = await post(
      '/api/agent/v1/messages',
      { 'x-api-key': token },
      {
        max_tokens: 10,
        messages: [{ role: 'user', content: 'hi' }],
      },
    );
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      type: 'error',
      error: { type: 'permission_error', message: LlmMessages.attemptClosed },
    });
    expect(calls).toHaveLength(0);
    expect((await callsOf(exam, attemptId)).map((c) => [c.status, c.reason])).toEqual([
      ['refused', LlmMessages.attemptClosed],
    ]);
  });

  it('refuses creator and attempt tokens (403) and a missing or forged token (401), in the wire format', async () => {
    const exam = agentExam('codex');
    const { token, attemptHeaders } = workspace(exam, 'codex');
    const body = { stream: true, input: 'hi' };
    const asCreator = await post('/api/agent/v1/responses', creatorHeaders(app, exam.ownerId), body);
    expect(asCreator.statusCode).toBe(403);
    expect(asCreator.json().error).toMatchObject({ type: 'permission_error' });
    expect((await post('/api/agent/v1/responses', attemptHeaders, body)).statusCode).toBe(403);
    const anthropicAttempt = await post(
      '/api/agent/v1/messages',
      { 'x-api-key': attemptHeaders.authorization.slice(7) },
      {},
    );
    expect(anthropicAttempt.statusCode).toBe(403);
    expect(anthropicAttempt.json().type).toBe('error');
    const missing = await post('/api/agent/v1/responses', {}, body);
    expect(missing.statusCode).toBe(401);
    expect(missing.json().error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_api_key' });
    const forged = await post('/api/agent/v1/messages', { 'x-api-key': token.replace(/\.[^.]+$/, '.c2ln') }, {});
    expect(forged.statusCode).toBe(401);
    expect(forged.json().error.type).toBe('authentication_error');
    // And the agent token opens nothing else.
    expect(
      (await app.inject({ url: '/api/llm/transcript', headers: { authorization: `Bearer ${token}` } })).statusCode,
    ).toBe(403);
  });

  it('refuses a token for an agent the exam does not offer, and an exam whose workspace AI is not an agent (403)', async () => {
    const exam = agentExam('claude-code', { provider: 'anthropic', model: 'claude-sonnet-4' });
    const { attemptId, token } = workspace(exam, 'codex');
    const response = await post('/api/agent/v1/responses', { authorization: `Bearer ${token}` }, { input: 'hi' });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.message).toContain('Claude Code');
    expect((await callsOf(exam, attemptId))[0]).toMatchObject({ status: 'refused' });

    const chatOnly = makeExam();
    const other = workspace(chatOnly, 'codex');
    const refused = await post('/api/agent/v1/responses', { authorization: `Bearer ${other.token}` }, { input: 'hi' });
    expect(refused.statusCode).toBe(403);
  });

  it("refuses a wire format the exam's provider does not serve (Responses on Groq)", async () => {
    const exam = agentExam('opencode', { provider: 'groq', model: 'llama-3.3-70b-versatile' });
    const { token } = workspace(exam, 'opencode');
    const response = await post('/api/agent/v1/responses', { authorization: `Bearer ${token}` }, { input: 'hi' });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.message).toContain('openai-responses');
  });

  it('answers a bad body with 400 naming the field, stored as refused, nothing counted', async () => {
    const exam = agentExam('claude-code', { provider: 'anthropic', model: 'claude-sonnet-4' });
    const { attemptId, token } = workspace(exam, 'claude-code');
    const response = await post(
      '/api/agent/v1/messages',
      { 'x-api-key': token },
      { messages: [{ role: 'user', content: 'x' }] },
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(response.json().error.message).toContain('max_tokens');
    expect((await callsOf(exam, attemptId))[0]).toMatchObject({ status: 'refused' });
    expect(await examUsage(exam)).toMatchObject({ requests: 0, tokens: 0 });
  });

  it("maps a provider's failure to the wire format: its 400 as such, a refused key or a 500 as 502; stored as error", async () => {
    snapshotsAnswered();
    const exam = agentExam('claude-code', { provider: 'anthropic', model: 'claude-sonnet-4' });
    const { attemptId, token } = workspace(exam, 'claude-code');
    const body = { max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] };
    server.use(http.post(ANTHROPIC, () => errorBodies.anthropic(500)));
    const failed = await post('/api/agent/v1/messages', { 'x-api-key': token }, body);
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    server.use(http.post(ANTHROPIC, () => errorBodies.anthropic(401)));
    expect((await post('/api/agent/v1/messages', { 'x-api-key': token }, body)).statusCode).toBe(502);
    server.use(
      http.post(ANTHROPIC, () =>
        HttpResponse.json(
          { type: 'error', error: { type: 'invalid_request_error', message: 'tools.0.input_schema: Field required' } },
          { status: 400 },
        ),
      ),
    );
    const bad = await post('/api/agent/v1/messages', { 'x-api-key': token }, body);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('tools.0.input_schema: Field required');
    const stored = await callsOf(exam, attemptId);
    expect(stored.map((c) => c.status)).toEqual(['error', 'error', 'error']);
    expect(stored[0]!.reason).toContain('500');
    expect(JSON.stringify(stored)).not.toContain(`sk-creator-${exam.id}`);
  });

  it("shows the calls to the exam's owner only: agent-calls and the transcript; never in the candidate's own transcript", async () => {
    provider(OPENAI_CHAT, openAiChatToolFrames(['ok']));
    const exam = agentExam('qwen-code');
    const { attemptId, token, attemptHeaders } = workspace(exam, 'qwen-code');
    await post('/api/agent/v1/chat/completions', { authorization: `Bearer ${token}` }, chatBody('hello'));
    const owner = creatorHeaders(app, exam.ownerId);
    const transcript = await app.inject({ url: `/api/llm/attempts/${attemptId}/transcript`, headers: owner });
    expect(transcript.json().agentCalls.map((c: AgentCall) => c.input)).toEqual(['hello']);
    const someoneElse = creatorHeaders(app, randomUUID());
    expect(
      (await app.inject({ url: `/api/llm/attempts/${attemptId}/agent-calls`, headers: someoneElse })).statusCode,
    ).toBe(404);
    expect(
      (await app.inject({ url: `/api/llm/attempts/${attemptId}/transcript`, headers: someoneElse })).statusCode,
    ).toBe(404);
    const own = await app.inject({ url: '/api/llm/transcript', headers: attemptHeaders });
    expect(own.json().agentCalls).toBeUndefined();
    const internal = await app.inject({
      url: `/internal/attempts/${attemptId}/agent-calls`,
      headers: { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN },
    });
    expect(internal.json().calls).toHaveLength(1);
    expect((await app.inject({ url: `/internal/attempts/${attemptId}/agent-calls` })).statusCode).toBe(401);
    // An attempt whose agent made no call: its owner gets an empty list.
    const quiet = workspace(exam, 'qwen-code');
    expect(await callsOf(exam, quiet.attemptId)).toEqual([]);
  });

  it('a workspace snapshot that fails never fails the call', async () => {
    server.use(
      http.post(
        `${ORCHESTRATOR}/internal/attempts/:attemptId/workspace-snapshot`,
        () => new HttpResponse(null, { status: 404 }),
      ),
      recordingHandler(OPENAI_CHAT, calls, () => sseResponse(openAiChatToolFrames(['fine']))),
    );
    const exam = agentExam('qwen-code');
    const { token } = workspace(exam, 'qwen-code');
    const response = await post('/api/agent/v1/chat/completions', { authorization: `Bearer ${token}` }, chatBody('hi'));
    expect(response.statusCode).toBe(200);
    expect(relayedEvents(response.payload).at(-1)?.data).toBe('[DONE]');
  });

  it("counts tokens locally and lists only the exam's model, calling no provider", async () => {
    const exam = agentExam('claude-code', { provider: 'anthropic', model: 'claude-sonnet-4' });
    const { token } = workspace(exam, 'claude-code');
    const counted = await post(
      '/api/agent/v1/messages/count_tokens?beta=true',
      { 'x-api-key': token },
      {
        model: 'claude-opus-4-1',
        messages: [{ role: 'user', content: 'x'.repeat(400) }],
      },
    );
    expect(counted.statusCode).toBe(200);
    expect(counted.json().input_tokens).toBeGreaterThanOrEqual(100);
    const models = await app.inject({ url: '/api/agent/v1/models', headers: { 'x-api-key': token } });
    expect(models.json().data.map((m: { id: string }) => m.id)).toEqual(['claude-sonnet-4']);
    expect(calls).toHaveLength(0);
  });
});
