import { agentEnvironment, WORKSPACE_AGENTS, type WorkspaceAgent } from '@exam/domain/workspace-agents';
import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dockerClient } from '../engine/docker-client.ts';
import { buildTestApp, newAttempt, type TestApp } from './app.ts';
import { containerOf, execIn } from './docker.ts';

// The coding agents of the real vscode image (issue 35; infra/workspaces/vscode/agents), in a workspace the
// orchestrator started: read-only root, uid 1000, HOME on the /tmp tmpfs, no route out. Each agent runs through its
// wrapper to --version; Codex CLI and Claude Code, pointed by $HOME/.exam-agent.env (agentEnvironment(), as the
// orchestrator writes it at claim time) at a fake provider started inside the same container, make real requests
// in their real wire formats (Responses and Messages streaming, one tool call each) and apply the edit the fake
// asks for. Run by `pnpm --filter @exam/workspace-orchestrator test:real-image`, not by `pnpm test`.
const IMAGE = 'exam/workspace-vscode';
const socketPath = inject('dockerSocket');
const REAL_IMAGE_ENV = {
  WORKSPACE_IMAGE_OVERRIDES: '',
  WORKSPACE_MEMORY_MB: '1024',
  WORKSPACE_CPUS: '1',
  WORKSPACE_PIDS_LIMIT: '512',
  START_TIMEOUT_SECONDS: '60',
};
const FAKE_PORT = 4010;
const ENV_FILE = '/tmp/home/.exam-agent.env';
const TOKEN = 'workspace-agent-token.abc123.signature';

/**
 * A provider stand-in speaking OpenAI's Responses API and Anthropic's Messages API as the real ones do (server-sent
 * events, a tool call first, text once the tool's result comes back), run with `node -e` inside the workspace. It
 * appends one JSON line per request to /tmp/fake-provider.log.
 */
const FAKE_PROVIDER = String.raw`
const http = require('node:http');
const fs = require('node:fs');
const sse = (res, events) => {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [event, data] of events) res.write('event: ' + event + '\ndata: ' + JSON.stringify(data) + '\n\n');
  res.end();
};
let n = 0;
http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    n++;
    const j = body ? JSON.parse(body) : {};
    const log = { path: req.url, auth: req.headers.authorization ?? req.headers['x-api-key'] ?? null, model: j.model ?? null, stream: j.stream ?? null, toolResult: null };
    if (req.url.startsWith('/v1/responses')) {
      const output = (j.input ?? []).find((i) => i.type === 'function_call_output');
      log.toolResult = output ? output.call_id : null;
      const item = output
        ? { type: 'message', id: 'msg_' + n, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done: the file is written.', annotations: [] }] }
        : { type: 'function_call', id: 'fc_' + n, call_id: 'call_' + n, name: 'exec_command', arguments: JSON.stringify({ cmd: 'printf "written by codex\\n" > notes/codex.txt' }) };
      const response = { id: 'resp_' + n, object: 'response', model: j.model, status: 'completed', output: [item], usage: { input_tokens: 12, output_tokens: 7, total_tokens: 19, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } } };
      sse(res, [
        ['response.created', { type: 'response.created', response: { ...response, status: 'in_progress', output: [] } }],
        ['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item }],
        ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }],
        ['response.completed', { type: 'response.completed', response }],
      ]);
    } else if (req.url.startsWith('/v1/messages') && !req.url.includes('count_tokens')) {
      const last = (j.messages ?? []).at(-1);
      const result = Array.isArray(last?.content) ? last.content.find((b) => b.type === 'tool_result') : undefined;
      log.toolResult = result ? result.tool_use_id : null;
      const canWrite = (j.tools ?? []).some((t) => t.name === 'Write');
      const events = [['message_start', { type: 'message_start', message: { id: 'msg_' + n, type: 'message', role: 'assistant', model: j.model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 0 } } }]];
      if (canWrite && !result) {
        const input = JSON.stringify({ file_path: '/home/coder/workspace/notes/claude.txt', content: 'written by claude\n' });
        events.push(
          ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_' + n, name: 'Write', input: {} } }],
          ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: input.slice(0, 25) } }],
          ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: input.slice(25) } }],
          ['content_block_stop', { type: 'content_block_stop', index: 0 }],
          ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 9 } }],
        );
      } else {
        events.push(
          ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
          ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Done: the file is written.' } }],
          ['content_block_stop', { type: 'content_block_stop', index: 0 }],
          ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 6 } }],
        );
      }
      events.push(['message_stop', { type: 'message_stop' }]);
      sse(res, events);
    } else {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'no route ' + req.url } }));
    }
    fs.appendFileSync('/tmp/fake-provider.log', JSON.stringify(log) + '\n');
  });
}).listen(${FAKE_PORT}, '127.0.0.1', () => fs.writeFileSync('/tmp/fake-provider.ready', ''));
`;

type Request = {
  path: string;
  auth: string | null;
  model: string | null;
  stream: boolean | null;
  toolResult: string | null;
};

/** execIn's output is Docker's multiplexed stream (8-byte frame headers, latin1): the text the process wrote. */
function plain(output: string): string {
  const bytes = Buffer.from(output, 'latin1');
  const parts: Buffer[] = [];
  for (let at = 0; at + 8 <= bytes.length;) {
    const size = bytes.readUInt32BE(at + 4);
    parts.push(bytes.subarray(at + 8, at + 8 + size));
    at += 8 + size;
  }
  return Buffer.concat(parts).toString('utf8');
}

/** Starts a process in the container and leaves it running (the fake provider). */
async function startIn(docker: Docker, containerId: string, cmd: string[]) {
  const exec = await docker.getContainer(containerId).exec({ Cmd: cmd, User: '1000:1000' });
  await exec.start({ Detach: true });
}

/** Writes the exam's agent settings as the orchestrator does at claim time (KEY=value lines). */
async function writeAgentEnv(docker: Docker, containerId: string, env: Record<string, string> | null) {
  if (!env) return execIn(docker, containerId, ['rm', '-f', ENV_FILE]);
  const text = Object.entries(env)
    .map(([k, v]) => `${k}=${v}\n`)
    .join('');
  return execIn(docker, containerId, [
    'sh',
    '-c',
    `echo ${Buffer.from(text).toString('base64')} | base64 -d > ${ENV_FILE}`,
  ]);
}

describe(`the coding agents in the real vscode image (${IMAGE})`, () => {
  let app: TestApp & Awaited<ReturnType<typeof buildTestApp>>;
  let docker: Docker;
  let attempt: ReturnType<typeof newAttempt>;
  let sessionId: string;
  let containerId: string;
  const sh = async (script: string, timeoutMs = 20_000) => {
    const run = await execIn(docker, containerId, ['sh', '-c', script], { timeoutMs });
    return { exitCode: run.exitCode, output: plain(run.output) };
  };
  const requests = async (): Promise<Request[]> =>
    (await sh('cat /tmp/fake-provider.log 2>/dev/null; true')).output
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Request);

  beforeAll(async () => {
    if (!socketPath) throw new Error('The real-image test needs the private Docker engine; it is never skipped.');
    docker = dockerClient(socketPath);
    await docker.getImage(IMAGE).inspect();
    app = await buildTestApp({ socketPath, instance: inject('workspaceInstance'), env: REAL_IMAGE_ENV });
    attempt = newAttempt(app);
    const started = performance.now();
    const created = await app.inject({
      method: 'POST',
      url: '/api/session/create',
      headers: attempt.headers,
      payload: {},
    });
    if (created.statusCode !== 200) throw new Error(`create answered ${created.statusCode}: ${created.body}`);
    console.info(
      `[real-image] vscode with agents: create → ready (cold): ${Math.round(performance.now() - started)} ms`,
    );
    sessionId = created.json().sessionId;
    containerId = await containerOf(docker, sessionId);
  });
  afterAll(async () => {
    if (sessionId) await app.inject({ method: 'DELETE', url: `/api/session/${sessionId}`, headers: attempt.headers });
    await app?.close();
  });

  it('runs in the run-time lockdown: read-only root, uid 1000, HOME on the /tmp tmpfs, no route out', async () => {
    const info = await docker.getContainer(containerId).inspect();
    expect([info.Config.User, info.HostConfig.ReadonlyRootfs, info.HostConfig.CapDrop]).toEqual([
      '1000:1000',
      true,
      ['ALL'],
    ]);
    expect(Object.keys(info.HostConfig.Tmpfs ?? {})).toEqual(['/tmp']);
    expect((await docker.getNetwork(info.HostConfig.NetworkMode!).inspect()).Internal).toBe(true);
    const probe = await sh('echo "$HOME $(id -u)"; touch /opt/agents/probe');
    expect(probe.output).toContain('/tmp/home 1000');
    expect(probe.output).toContain('Read-only file system');
  });

  it('says plainly that the exam has no agent when there are no agent settings, for every agent', async () => {
    await writeAgentEnv(docker, containerId, null);
    for (const { command } of Object.values(WORKSPACE_AGENTS)) {
      const run = await sh(`cd /home/coder/workspace && ${command} exec "do it" </dev/null`);
      expect(run.exitCode, `${command}: ${run.output}`).toBe(1);
      expect(run.output).toContain(`${command}: no AI agent is enabled in this exam.`);
    }
  });

  it('runs every installed agent through its wrapper, at the version the image pins', async () => {
    const expected: Record<WorkspaceAgent, RegExp> = {
      codex: /codex-cli 0\.171\.0/,
      'claude-code': /2\.1\.332 \(Claude Code\)/,
      'qwen-code': /\b0\.24\.4\b/,
      opencode: /\b1\.18\.33\b/,
    };
    for (const agent of Object.keys(WORKSPACE_AGENTS) as WorkspaceAgent[]) {
      await writeAgentEnv(
        docker,
        containerId,
        agentEnvironment({
          relayBaseUrl: 'http://127.0.0.1:1',
          token: TOKEN,
          agent,
          provider: agent === 'claude-code' ? 'anthropic' : 'openai',
          model: 'm',
        }),
      );
      const { command } = WORKSPACE_AGENTS[agent];
      const run = await sh(`${command} --version </dev/null`, 60_000);
      expect(run.exitCode, `${command}: ${run.output}`).toBe(0);
      expect(run.output).toMatch(expected[agent]);
    }
    // Another agent than the exam's is refused, naming the exam's.
    const other = await sh('claude --version </dev/null');
    expect(other.exitCode).toBe(1);
    expect(other.output).toContain("claude: this exam's agent is opencode; start it with `opencode`.");
  });

  it("gives code-server's terminal (interactive bash) the exam's agent settings", async () => {
    await writeAgentEnv(
      docker,
      containerId,
      agentEnvironment({
        relayBaseUrl: 'http://exam-ai:8480',
        token: TOKEN,
        agent: 'codex',
        provider: 'openai',
        model: 'gpt-x',
      }),
    );
    const run = await execIn(docker, containerId, [
      'bash',
      '-ic',
      'echo "$EXAM_AGENT $OPENAI_BASE_URL $EXAM_AI_MODEL"',
    ]);
    expect(run.output).toContain('codex http://exam-ai:8480/v1 gpt-x');
  });

  it('lets Codex CLI (`codex exec`) call the exam endpoint over the Responses API and apply the edit it asks for', async () => {
    await startIn(docker, containerId, ['node', '-e', FAKE_PROVIDER]);
    await expect.poll(async () => (await sh('test -f /tmp/fake-provider.ready')).exitCode).toBe(0);
    await writeAgentEnv(
      docker,
      containerId,
      agentEnvironment({
        relayBaseUrl: `http://127.0.0.1:${FAKE_PORT}`,
        token: TOKEN,
        agent: 'codex',
        provider: 'openai',
        model: 'gpt-exam',
      }),
    );
    const started = performance.now();
    const run = await sh(
      'cd /home/coder/workspace && mkdir -p notes && codex exec --skip-git-repo-check "write the notes file" </dev/null',
      90_000,
    );
    console.info(`[real-image] codex exec, two calls and one tool call: ${Math.round(performance.now() - started)} ms`);
    expect(run.exitCode, run.output).toBe(0);
    expect(run.output).toContain('Done: the file is written.');
    expect((await sh('cat /home/coder/workspace/notes/codex.txt')).output).toBe('written by codex\n');
    const calls = (await requests()).filter((r) => r.path.startsWith('/v1/responses'));
    expect(calls).toHaveLength(2);
    for (const call of calls) expect(call).toMatchObject({ auth: `Bearer ${TOKEN}`, model: 'gpt-exam', stream: true });
    expect(calls.map((c) => c.toolResult)).toEqual([null, 'call_1']);
    // Its configuration came from the env file: our provider, the Responses wire, the key from OPENAI_API_KEY.
    const config = (await sh('cat /tmp/home/.codex/config.toml')).output;
    expect(config).toContain(`base_url = "http://127.0.0.1:${FAKE_PORT}/v1"`);
    expect(config).toContain('wire_api = "responses"');
    expect(config).toContain('env_key = "OPENAI_API_KEY"');
  });

  it('lets Claude Code (`claude -p`) call the exam endpoint over the Messages API and apply the edit it asks for', async () => {
    await writeAgentEnv(
      docker,
      containerId,
      agentEnvironment({
        relayBaseUrl: `http://127.0.0.1:${FAKE_PORT}`,
        token: TOKEN,
        agent: 'claude-code',
        provider: 'anthropic',
        model: 'claude-exam',
      }),
    );
    const before = (await requests()).length;
    const started = performance.now();
    const run = await sh(
      'cd /home/coder/workspace && claude -p --permission-mode acceptEdits "write the notes file" </dev/null',
      90_000,
    );
    console.info(`[real-image] claude -p, two calls and one tool call: ${Math.round(performance.now() - started)} ms`);
    expect(run.exitCode, run.output).toBe(0);
    expect(run.output).toContain('Done: the file is written.');
    expect((await sh('cat /home/coder/workspace/notes/claude.txt')).output).toBe('written by claude\n');
    const calls = (await requests()).slice(before);
    // Every request went to the exam endpoint (none elsewhere: there is no elsewhere to reach), with the token.
    expect(calls.length).toBeGreaterThanOrEqual(2);
    for (const call of calls) expect(call).toMatchObject({ auth: TOKEN, model: 'claude-exam' });
    expect(calls.map((c) => c.toolResult).filter(Boolean)).toHaveLength(1);
    // The edits are the candidate's workspace files, collected as at submit.
    const files = await app.inject({ method: 'GET', url: `/api/session/${sessionId}/files`, headers: attempt.headers });
    expect(files.json().workspaceFiles).toMatchObject({
      'notes/codex.txt': { content: 'written by codex\n' },
      'notes/claude.txt': { content: 'written by claude\n' },
    });
  });
});
