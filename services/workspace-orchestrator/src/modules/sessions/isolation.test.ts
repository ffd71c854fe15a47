import { lookup } from 'node:dns/promises';
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dockerClient } from '../../engine/docker-client.ts';
import { WORKSPACE_DNS_SINK } from '../../engine/docker-containers.ts';
import { buildTestApp, newAttempt, type TestApp } from '../../testing/app.ts';
import { containerOf, execIn, stdoutOf } from '../../testing/docker.ts';
import { editorCookie, editorsBase, httpCall } from '../../testing/http.ts';

const socketPath = inject('dockerSocket');
const registryAddress = async () => (await lookup('registry.npmjs.org').catch(() => ({ address: '1.1.1.1' }))).address;
/** A model provider's address as the host resolves it (the host reaches it; a workspace must not). */
const providerAddress = async () =>
  (await lookup('api.openai.com').catch(() => ({ address: '162.159.140.245' }))).address;

/** llm-gateway's stand-in on the host: what reached its agent endpoint through the relay. */
const gatewaySeen: Array<{ url?: string; headers: IncomingHttpHeaders }> = [];
const gateway = createHttpServer((req, res) => {
  gatewaySeen.push({ url: req.url, headers: req.headers });
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[{"id":"gateway-model"}]}');
});

describe.skipIf(!socketPath)('workspace isolation (candidates run arbitrary code)', () => {
  let app: TestApp & Awaited<ReturnType<typeof buildTestApp>>;
  let base: string;
  const docker = dockerClient(socketPath ?? '');

  const start = async (settings = {}) => {
    const attempt = newAttempt(app, settings);
    const session = (
      await app.inject({ method: 'POST', url: '/api/session/create', headers: attempt.headers, payload: {} })
    ).json();
    expect(session.status).toBe('ready');
    const cookie = await editorCookie(app, attempt.headers, session.sessionId);
    return { attempt, session, cookie, containerId: await containerOf(docker, session.sessionId) };
  };
  const answers = async (s: Awaited<ReturnType<typeof start>>) =>
    (await httpCall(base, s.session.editorPath, { headers: s.cookie })).status;

  beforeAll(async () => {
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    app = await buildTestApp({
      socketPath: socketPath!,
      instance: inject('workspaceInstance'),
      env: { LLM_GATEWAY_URL: `http://127.0.0.1:${(gateway.address() as { port: number }).port}` },
    });
    base = await editorsBase(app);
  });
  afterAll(async () => {
    await app.close();
    await new Promise<void>((resolve) => gateway.close(() => resolve()));
  });

  it('kills a memory hog at the memory limit while another session keeps answering', async () => {
    const hog = await start();
    const bystander = await start();
    const result = await execIn(docker, hog.containerId, [
      'awk',
      'BEGIN { s = "xxxxxxxxxxxxxxxx"; while (1) s = s s }',
    ]);
    expect(result.exitCode).toBe(137);
    expect(await answers(bystander)).toBe(200);
    expect(await answers(hog)).toBe(200);
  });

  it('caps a fork bomb at the pids limit while another session keeps answering', async () => {
    const bomber = await start();
    const bystander = await start();
    const exec = await docker
      .getContainer(bomber.containerId)
      .exec({ Cmd: ['sh', '-c', 'bomb() { bomb | bomb & }; bomb'], User: '1000:1000' });
    await exec.start({ Detach: true });
    // Sampled for a few seconds: on a loaded machine the bomb's shells die of failed forks and respawn, so
    // one sample can land in a trough. The cap holds when no sample exceeds it and the bomb did reach it.
    const samples: number[] = [];
    for (const end = Date.now() + 5000; Date.now() < end;) {
      const stats = (await docker.getContainer(bomber.containerId).stats({ stream: false })) as {
        pids_stats?: { current?: number };
      };
      samples.push(stats.pids_stats?.current ?? 0);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(Math.max(...samples)).toBeGreaterThan(30);
    expect(Math.max(...samples)).toBeLessThanOrEqual(64);
    expect(await answers(bystander)).toBe(200);
    await app.inject({
      method: 'DELETE',
      url: `/api/session/${bomber.session.sessionId}`,
      headers: bomber.attempt.headers,
    });
  });

  describe('network', () => {
    let hostServer: Server;
    let hostPort = 0;
    let connections = 0;
    beforeAll(async () => {
      hostServer = createServer((socket) => {
        connections++;
        socket.end('host service\n');
      });
      await new Promise<void>((r) => hostServer.listen(0, '0.0.0.0', r));
      hostPort = (hostServer.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((r) => hostServer.close(() => r())));

    const tcp = async (containerId: string, host: string, port: number) =>
      execIn(docker, containerId, ['sh', '-c', `echo ping | nc -w 3 ${host} ${port}`], { timeoutMs: 10_000 });

    it('cannot reach the host, another workspace, or the outside', async () => {
      const a = await start();
      const b = await start();
      const networks = (await docker.getContainer(a.containerId).inspect()).NetworkSettings.Networks;
      const gateway = networks['exam-workspaces']!.Gateway;
      const peer = (await docker.getContainer(b.containerId).inspect()).NetworkSettings.Networks['exam-workspaces']!
        .IPAddress;

      expect((await tcp(a.containerId, gateway, hostPort)).exitCode).not.toBe(0);
      expect((await tcp(a.containerId, '127.0.0.1', hostPort)).exitCode).not.toBe(0);
      expect(connections).toBe(0);
      expect((await tcp(a.containerId, peer, 8080)).exitCode).not.toBe(0);
      // The npm registry is the one outside address this machine reaches, so it is the honest probe.
      expect((await tcp(a.containerId, await registryAddress(), 443)).exitCode).not.toBe(0);
      // The proxy on the host still reaches it.
      expect(await answers(a)).toBe(200);
    });

    it('puts an exam that allows package registries on the egress bridge, which has no route out either', async () => {
      const open = await start({ allowPackageRegistries: true });
      const info = await docker.getContainer(open.containerId).inspect();
      expect(Object.keys(info.NetworkSettings.Networks)).toEqual(['exam-workspaces-egress']);
      // Only the registry proxy gets out (egress.test.ts beside this file).
      expect((await tcp(open.containerId, await registryAddress(), 443)).exitCode).not.toBe(0);
      expect(
        (await tcp(open.containerId, info.NetworkSettings.Networks['exam-workspaces-egress']!.Gateway, hostPort))
          .exitCode,
      ).not.toBe(0);
      expect(connections).toBe(0);
    });

    it('resolves no outside name and reaches no resolver, with or without package registries', async () => {
      const hostResolvers = readFileSync('/etc/resolv.conf', 'utf8')
        .split('\n')
        .flatMap((line) => /^nameserver\s+(\S+)/.exec(line)?.[1] ?? [])
        .filter((address) => !address.startsWith('127.'));
      for (const settings of [{}, { allowPackageRegistries: true }]) {
        const s = await start(settings);
        const info = await docker.getContainer(s.containerId).inspect();
        // Docker's embedded resolver forwards to these and nowhere else: an address routed nowhere.
        expect(info.HostConfig.Dns).toEqual([WORKSPACE_DNS_SINK]);
        const gateway = Object.values(info.NetworkSettings.Networks)[0]!.Gateway;
        // A resolver on the host, at the bridge's gateway: the host firewall must drop the query.
        const queries: string[] = [];
        // reuseAddr: the PGlite and PostgreSQL suites run side by side on one engine and both listen here; a bind
        // that fails must fail the test at once, not leave it waiting for a callback that never comes.
        const resolver = createSocket({ type: 'udp4', reuseAddr: true }, (message) =>
          queries.push(message.toString('latin1')),
        );
        await new Promise<void>((resolve, reject) => {
          resolver.once('error', reject);
          resolver.bind(53, gateway, () => {
            resolver.off('error', reject);
            resolve();
          });
        });
        try {
          const lookups = [
            'nslookup registry.npmjs.org',
            `nslookup exfiltrate-${Date.now()}.example.com`,
            `nslookup leak.example.com ${gateway}`,
            ...hostResolvers.map((address) => `nslookup leak.example.com ${address}`),
          ];
          for (const command of lookups) {
            const result = await execIn(docker, s.containerId, ['sh', '-c', `${command} >/dev/null 2>&1`], {
              timeoutMs: 30_000,
            });
            expect(result.exitCode, command).not.toBe(0);
          }
        } finally {
          await new Promise<void>((r) => resolver.close(() => r()));
        }
        expect(queries).toEqual([]);
      }
    });

    describe('the AI relay: an agent reaches the gateway and no provider', () => {
      const agentExam = { ai: { mode: 'agent' as const, agent: 'claude-code' as const } };
      const startAgent = async (settings = {}) => {
        const attempt = newAttempt(app, { ...agentExam, ...settings });
        app.examDetails.set(attempt.claims.examId, {
          aiSettings: { enabled: true, provider: 'anthropic', model: 'claude-sonnet-4-5' },
        });
        const session = (
          await app.inject({ method: 'POST', url: '/api/session/create', headers: attempt.headers, payload: {} })
        ).json();
        expect(session.status).toBe('ready');
        return { attempt, containerId: await containerOf(docker, session.sessionId) };
      };
      const sh = async (containerId: string, script: string) => {
        const result = await execIn(docker, containerId, ['sh', '-c', `. /tmp/home/.exam-agent.env; ${script}`], {
          timeoutMs: 15_000,
        });
        return { exitCode: result.exitCode, stdout: stdoutOf(result.output), output: result.output };
      };

      it('answers from the gateway through exam-ai on both bridges, with the workspace token', async () => {
        for (const settings of [{}, { allowPackageRegistries: true }]) {
          const { containerId } = await startAgent(settings);
          const before = gatewaySeen.length;
          // The agents' HTTP clients skip the registry proxy for exam-ai by NO_PROXY; busybox's wget reads no NO_PROXY.
          const noProxy = (await docker.getContainer(containerId).inspect()).Config.Env.find((e) =>
            e.startsWith('NO_PROXY='),
          );
          if (noProxy) expect(noProxy.split(/[=,]/)).toContain('exam-ai');
          const answer = await sh(
            containerId,
            'wget -Y off -q -O - --header "x-api-key: $ANTHROPIC_API_KEY" "$ANTHROPIC_BASE_URL/v1/models"',
          );
          expect(answer.exitCode, answer.output).toBe(0);
          expect(answer.stdout).toContain('gateway-model');
          expect(gatewaySeen.length).toBe(before + 1);
          const seen = gatewaySeen.at(-1)!;
          expect(seen.url).toBe('/api/agent/v1/models');
          expect(app.jwt.verify<{ kind: string }>(String(seen.headers['x-api-key'])).kind).toBe('workspace-agent');
        }
      });

      it('refuses paths outside /v1 and proxy requests for a provider, passing none of them on', async () => {
        const { containerId } = await startAgent();
        const before = gatewaySeen.length;
        for (const script of [
          'wget -q -O - "$EXAM_AI_BASE_URL/internal/exams/x"',
          'wget -q -O - "$EXAM_AI_BASE_URL/api/llm/chat"',
          'wget -q -O - "$EXAM_AI_BASE_URL/v1/../internal/exams/x"',
          'http_proxy="$EXAM_AI_BASE_URL" wget -q -O - http://api.openai.com/v1/models',
        ]) {
          const result = await sh(containerId, script);
          // The relay answered, and said no: not a connection that failed on the way.
          expect(result.exitCode, script).not.toBe(0);
          expect(result.output, script).toContain('404 Not Found');
        }
        expect(gatewaySeen.length).toBe(before);
      });

      it('cannot reach a provider directly, by name or by address', async () => {
        const { containerId } = await startAgent();
        expect((await sh(containerId, 'wget -q -T 5 -O - https://api.anthropic.com/v1/models')).exitCode).not.toBe(0);
        expect((await tcp(containerId, await providerAddress(), 443)).exitCode).not.toBe(0);
        expect((await tcp(containerId, await providerAddress(), 80)).exitCode).not.toBe(0);
      });
    });
  });
});
