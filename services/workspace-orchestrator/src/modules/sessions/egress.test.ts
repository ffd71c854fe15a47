import { lookup } from 'node:dns/promises';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dockerClient } from '../../engine/docker-client.ts';
import { buildTestApp, newAttempt, type TestApp } from '../../testing/app.ts';
import { containerOf, execIn } from '../../testing/docker.ts';

const socketPath = inject('dockerSocket');
const registryAddress = async () => (await lookup('registry.npmjs.org').catch(() => ({ address: '1.1.1.1' }))).address;
/**
 * The fake registry listens on 127.0.0.2 of the host: inside a container that address is the container's
 * own loopback, where nothing listens, so the one way to it is the proxy (whose allowlist names it).
 */
const REGISTRY_HOST = '127.0.0.2';

describe.skipIf(!socketPath)('package registries through the egress proxy (real Docker engine)', () => {
  let app: TestApp & Awaited<ReturnType<typeof buildTestApp>>;
  let registry: Server;
  let registryPort = 0;
  const docker = dockerClient(socketPath ?? '');
  const refused: Record<string, unknown>[] = [];

  const start = async (settings = {}) => {
    const attempt = newAttempt(app, settings);
    const session = (
      await app.inject({ method: 'POST', url: '/api/session/create', headers: attempt.headers, payload: {} })
    ).json();
    expect(session.status).toBe('ready');
    const containerId = await containerOf(docker, session.sessionId);
    const info = await docker.getContainer(containerId).inspect();
    return { attempt, session, containerId, info };
  };
  const sh = (containerId: string, script: string) =>
    execIn(docker, containerId, ['sh', '-c', script], { timeoutMs: 15_000 });
  const proxyOf = (env: string[]) => env.find((e) => e.startsWith('http_proxy='))?.slice('http_proxy='.length);

  beforeAll(async () => {
    registry = createServer((req, res) => res.end(`fake registry: ${req.method} ${req.url}\n`));
    await new Promise<void>((r) => registry.listen(0, REGISTRY_HOST, r));
    registryPort = (registry.address() as { port: number }).port;
    app = await buildTestApp({
      socketPath: socketPath!,
      instance: inject('workspaceInstance'),
      env: { EGRESS_ALLOWED_HOSTS: `${REGISTRY_HOST}:${registryPort}` },
    });
    app.egressProxy.attach({ log: { info() {}, warn: (entry) => refused.push(entry as Record<string, unknown>) } });
  });
  afterAll(async () => {
    await app.close();
    await new Promise<void>((r) => registry.close(() => r()));
  });

  it('gives a registries workspace proxy variables for the proxy on its bridge gateway, and reaches an allowed registry through it', async () => {
    const open = await start({ allowPackageRegistries: true });
    const networks = open.info.NetworkSettings.Networks;
    expect(Object.keys(networks)).toEqual(['exam-workspaces-egress']);
    const gateway = networks['exam-workspaces-egress']!.Gateway;
    const proxy = proxyOf(open.info.Config.Env);
    expect(proxy).toMatch(new RegExp(`^http://${gateway.replace(/\./g, '\\.')}:31(29|3[0-2])$`));
    for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'https_proxy'])
      expect(open.info.Config.Env).toContain(`${name}=${proxy}`);

    // busybox wget honours http_proxy, as npm, pip and R do.
    const fetched = await sh(open.containerId, `wget -q -O - http://${REGISTRY_HOST}:${registryPort}/left-pad`);
    expect(fetched.output).toContain('fake registry: GET /left-pad');
    expect(fetched.exitCode).toBe(0);

    // HTTPS clients CONNECT; the tunnel carries whatever the client then speaks.
    const { hostname, port } = new URL(proxy!);
    const tunnel = await sh(
      open.containerId,
      `printf 'CONNECT ${REGISTRY_HOST}:${registryPort} HTTP/1.1\\r\\n\\r\\nGET /requests HTTP/1.0\\r\\n\\r\\n' | nc -w 3 ${hostname} ${port}`,
    );
    expect(tunnel.output).toContain('HTTP/1.1 200 Connection Established');
    expect(tunnel.output).toContain('fake registry: GET /requests');
  });

  it('answers 403 for a host that is not on the list, through either form', async () => {
    const open = await start({ allowPackageRegistries: true });
    const { hostname, port } = new URL(proxyOf(open.info.Config.Env)!);
    const plain = await sh(open.containerId, 'wget -q -O - http://chat.example.com/ 2>&1');
    expect(plain.exitCode).not.toBe(0);
    expect(plain.output).toMatch(/403/);
    const tunnel = await sh(
      open.containerId,
      `printf 'CONNECT chat.example.com:443 HTTP/1.1\\r\\n\\r\\n' | nc -w 3 ${hostname} ${port}`,
    );
    expect(tunnel.output).toContain('HTTP/1.1 403 Forbidden');
    expect(tunnel.output).toContain('chat.example.com:443 is not one of the package registries this exam allows');
    // The refusal is logged with the session and attempt behind the container's address.
    await expect
      .poll(() => refused.find((entry) => entry.host === 'chat.example.com' && entry.method === 'CONNECT'))
      .toMatchObject({
        source: open.info.NetworkSettings.Networks['exam-workspaces-egress']!.IPAddress,
        sessionId: open.session.sessionId,
        attemptId: open.attempt.claims.sub,
        port: 443,
      });
  });

  it('has no direct route: without the proxy neither the registry nor the outside is reachable', async () => {
    const open = await start({ allowPackageRegistries: true });
    const gateway = open.info.NetworkSettings.Networks['exam-workspaces-egress']!.Gateway;
    // -Y off: busybox wget ignores http_proxy, so it tries the address itself.
    const direct = await sh(
      open.containerId,
      `wget -Y off -q -T 3 -O - http://${REGISTRY_HOST}:${registryPort}/left-pad 2>&1`,
    );
    expect(direct.exitCode).not.toBe(0);
    expect(direct.output).not.toContain('fake registry');
    expect((await sh(open.containerId, `echo ping | nc -w 3 ${gateway} ${registryPort}`)).exitCode).not.toBe(0);
    // The npm registry is the one outside address this machine reaches, so it is the honest probe.
    expect((await sh(open.containerId, `echo ping | nc -w 3 ${await registryAddress()} 443`)).exitCode).not.toBe(0);
  });

  it('gives a workspace on the default network no proxy variables and no way to the proxy', async () => {
    const open = await start({ allowPackageRegistries: true });
    const proxy = new URL(proxyOf(open.info.Config.Env)!);
    const closed = await start();
    expect(Object.keys(closed.info.NetworkSettings.Networks)).toEqual(['exam-workspaces']);
    expect(closed.info.Config.Env.filter((e) => /^(https?_proxy|HTTPS?_PROXY|NO_PROXY|no_proxy)=/.test(e))).toEqual([]);
    expect((await sh(closed.containerId, 'env | grep -i _proxy')).output).toBe('');
    expect((await sh(closed.containerId, `echo ping | nc -w 3 ${proxy.hostname} ${proxy.port}`)).exitCode).not.toBe(0);
    expect(
      (await sh(closed.containerId, `wget -q -T 3 -O - http://${REGISTRY_HOST}:${registryPort}/ 2>&1`)).exitCode,
    ).not.toBe(0);
    expect((await sh(closed.containerId, `echo ping | nc -w 3 ${await registryAddress()} 443`)).exitCode).not.toBe(0);
  });
});
