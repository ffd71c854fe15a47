import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dockerClient } from '../engine/docker-client.ts';
import { buildTestApp, newAttempt, WORKSPACE_ORIGIN, type TestApp } from './app.ts';
import { containerOf, execIn } from './docker.ts';
import { editorCookie, editorsBase, httpCall } from './http.ts';
import { vscodeHandshake } from './vscode-websocket.ts';

// The real code-server image through the orchestrator: the editor candidates actually get. Run by `pnpm --filter
// @exam/workspace-orchestrator test:real-image`, not by `pnpm test`: the image takes many minutes to
// build. A missing engine or image fails the run; this test is never skipped.
const IMAGE = 'exam/workspace-vscode';
const BUILD_HINT = 'DOCKER_HOST=unix:///tmp/exam-docker-test/docker.sock scripts/build-workspace-images.sh';
const socketPath = inject('dockerSocket');
// The catalogue's own entries (no test-image override) and the production limits: code-server needs
// far more than the 64 MB the small test image runs in.
const REAL_IMAGE_ENV = {
  WORKSPACE_IMAGE_OVERRIDES: '',
  WORKSPACE_MEMORY_MB: '1024',
  WORKSPACE_CPUS: '1',
  WORKSPACE_PIDS_LIMIT: '512',
  START_TIMEOUT_SECONDS: '60',
};

/** The engine named by the global setup, and a loud failure when an image is not built there. */
async function engineWith(image: string): Promise<Docker> {
  if (!socketPath)
    throw new Error(
      'The real-image test needs the private Docker engine; it cannot be skipped (WORKSPACE_TESTS=skip does not apply).',
    );
  const docker = dockerClient(socketPath);
  try {
    await docker.getImage(image).inspect();
  } catch {
    throw new Error(
      `The image ${image} is not built on the engine at ${socketPath}. Build the workspace images first (about 5 minutes):\n  ${BUILD_HINT}`,
    );
  }
  return docker;
}

describe(`the real code-server image (${IMAGE}) through the orchestrator`, () => {
  let app: TestApp & Awaited<ReturnType<typeof buildTestApp>>;
  let base: string;
  let docker: Docker;
  let attempt: ReturnType<typeof newAttempt>;
  let session: { sessionId: string; editorPath: string; status: string; warm: boolean };
  let containerId: string;
  let createToReadyMs = 0;

  beforeAll(async () => {
    docker = await engineWith(IMAGE);
    app = await buildTestApp({ socketPath: socketPath!, instance: inject('workspaceInstance'), env: REAL_IMAGE_ENV });
    base = await editorsBase(app);
    attempt = newAttempt(app);
    const started = performance.now();
    const created = await app.inject({
      method: 'POST',
      url: '/api/session/create',
      headers: attempt.headers,
      payload: {},
    });
    createToReadyMs = performance.now() - started;
    if (created.statusCode !== 200) throw new Error(`create answered ${created.statusCode}: ${created.body}`);
    session = created.json();
    containerId = await containerOf(docker, session.sessionId);
  });
  afterAll(async () => {
    if (session)
      await app.inject({ method: 'DELETE', url: `/api/session/${session.sessionId}`, headers: attempt.headers });
    await app?.close();
  });

  it('becomes ready (health check answered, editor password accepted) from a cold start', () => {
    expect(session).toMatchObject({ status: 'ready', warm: false, editorPath: `/workspace/${session.sessionId}/` });
    console.info(`[real-image] create → ready (cold, one session): ${Math.round(createToReadyMs)} ms`);
  });

  it('runs code-server locked down: read-only root, non-root, no capabilities, internal network, no published port', async () => {
    const info = await docker.getContainer(containerId).inspect();
    expect(info.Config.Image).toBe(IMAGE);
    expect(info.State.Running).toBe(true);
    expect(info.Config.User).toBe('1000:1000');
    expect(info.HostConfig.ReadonlyRootfs).toBe(true);
    expect(info.HostConfig.CapDrop).toEqual(['ALL']);
    expect(info.HostConfig.CapAdd ?? []).toEqual([]);
    expect(info.HostConfig.Privileged).toBe(false);
    expect(info.HostConfig.SecurityOpt).toEqual(['no-new-privileges']);
    expect(info.HostConfig.NetworkMode).toBe('exam-workspaces');
    expect(Object.keys(info.NetworkSettings.Networks)).toEqual(['exam-workspaces']);
    expect((await docker.getNetwork('exam-workspaces').inspect()).Internal).toBe(true);
    expect(
      Object.values(info.NetworkSettings.Ports ?? {})
        .flat()
        .filter(Boolean),
    ).toEqual([]);
    expect(Object.keys(info.HostConfig.Tmpfs ?? {})).toEqual(['/tmp']);
    expect(info.Mounts.map((m) => [m.Type, m.Destination, m.RW])).toEqual([['volume', '/home/coder/workspace', true]]);
    expect(info.HostConfig.Memory).toBe(1024 * 1024 * 1024);
    // The editor gets its password's SHA-256 only (cheap cookie checks); the password itself never enters the container.
    expect(info.Config.Env.filter((e) => /^(HASHED_)?PASSWORD=/.test(e)).map((e) => e.split('=')[0])).toEqual([
      'HASHED_PASSWORD',
    ]);

    // Inside: code-server runs as uid 1000 with no effective capabilities; only /tmp and the workspace take writes.
    const processes = await execIn(docker, containerId, ['ps', '-eo', 'uid=,args=']);
    expect(processes.output).toMatch(/^\s*1000 .*code-server/m);
    expect(processes.output).not.toMatch(/^\s*0 /m);
    const caps = await execIn(docker, containerId, ['sh', '-c', 'grep CapEff /proc/1/status']);
    expect(caps.output).toMatch(/CapEff:\s+0+\s*$/);
    expect((await execIn(docker, containerId, ['sh', '-c', 'touch /etc/probe'])).exitCode).not.toBe(0);
    expect((await execIn(docker, containerId, ['sh', '-c', 'touch /opt/code-server/probe'])).exitCode).not.toBe(0);
    expect(
      (
        await execIn(docker, containerId, [
          'sh',
          '-c',
          'touch /tmp/probe && echo "print(42)" > /home/coder/workspace/probe.py',
        ])
      ).exitCode,
    ).toBe(0);
    // The exam's editor defaults were seeded into the writable HOME: among them, VS Code's own AI chat is off.
    const settings = await execIn(docker, containerId, [
      'cat',
      '/tmp/home/.local/share/code-server/User/settings.json',
    ]);
    expect(JSON.parse(settings.output.slice(settings.output.indexOf('{')))).toMatchObject({
      'chat.disableAIFeatures': true,
      'workbench.startupEditor': 'none',
    });
    // No route out, not even to the npm registry this machine itself reaches (its address looked up here: the container has no DNS).
    const registry = (await lookup('registry.npmjs.org').catch(() => ({ address: '1.1.1.1' }))).address;
    const out = await execIn(docker, containerId, [
      'node',
      '-e',
      `require('net').connect(443, '${registry}').on('connect', () => process.exit(0)).on('error', () => process.exit(3)).setTimeout(3000, () => process.exit(4))`,
    ]);
    expect(out.exitCode).not.toBe(0);
    // The file written above is collected from the real image's container, as at submit.
    const files = await app.inject({
      method: 'GET',
      url: `/api/session/${session.sessionId}/files`,
      headers: attempt.headers,
    });
    expect(files.json().workspaceFiles['probe.py']).toMatchObject({ content: 'print(42)\n' });
  });

  it("serves code-server's workbench page and its assets through /workspace/{sessionId}/", async () => {
    const { cookie } = await editorCookie(app, attempt.headers, session.sessionId);
    // code-server sends the bare editor path on to the folder it was started with, by a relative redirect.
    const root = await httpCall(base, session.editorPath, { headers: { cookie } });
    expect(root.status).toBe(302);
    expect(root.headers.location).toBe('./?folder=/home/coder/workspace');
    const editorUrl = new URL(root.headers.location as string, new URL(session.editorPath, base));
    expect(editorUrl.pathname).toBe(session.editorPath);
    const pageStarted = performance.now();
    const page = await httpCall(base, `${editorUrl.pathname}${editorUrl.search}`, { headers: { cookie } });
    console.info(`[real-image] workbench page through the proxy: ${Math.round(performance.now() - pageStarted)} ms`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('vscode-workbench-web-configuration');
    expect(page.body).toMatch(/workbench\.js/);
    // The editor's session cookie is the proxy's business; the browser never receives it.
    expect(page.headers['set-cookie']).toBeUndefined();
    // Asset URLs are relative, so they resolve under the session's path and pass the same proxy.
    const script = /<script[^>]* src="([^"]*\/workbench\.js)"/.exec(page.body)?.[1];
    expect(script).toMatch(/^[a-z]/);
    // A browser sends Origin with module scripts; the page's origin is WORKSPACE_ORIGIN (the editors' own).
    const asset = await httpCall(base, `${session.editorPath}${script}`, {
      headers: { cookie, origin: WORKSPACE_ORIGIN },
    });
    expect(asset.status).toBe(200);
    expect(asset.body.length).toBeGreaterThan(100_000);
  });

  it("upgrades VS Code's WebSocket through the proxy, and VS Code's server answers on it", async () => {
    const path = `${session.editorPath}?reconnectionToken=${randomBytes(8).toString('hex')}&reconnection=false&skipWebSocketFrames=false`;
    const ws = await vscodeHandshake(base, path, {
      ...(await editorCookie(app, attempt.headers, session.sessionId)),
      origin: WORKSPACE_ORIGIN,
    });
    expect(ws.status).toBe(101);
    expect(ws.accept).toBe(ws.expectedAccept);
    expect(ws.reply).toMatchObject({ type: 'sign' });
  });
});

/**
 * The types built on the vscode image, each with tools of its own that the candidate's terminal runs. excel and
 * oracle-sql are apps of their own (excel-image.real-image.ts, sql-image.real-image.ts).
 */
const DERIVED = [
  { type: 'r-studio', image: 'exam/workspace-r', tool: ['Rscript', '-e', 'cat(6 * 7)'], prints: ['42'] },
] as const;

describe('the workspace images built on the vscode image', () => {
  let app: TestApp & Awaited<ReturnType<typeof buildTestApp>>;
  let base: string;

  beforeAll(async () => {
    await engineWith(IMAGE);
    app = await buildTestApp({ socketPath: socketPath!, instance: inject('workspaceInstance'), env: REAL_IMAGE_ENV });
    base = await editorsBase(app);
  });
  afterAll(() => app?.close());

  it.each(DERIVED)(
    '$type ($image) starts locked down, serves the workbench through the proxy and runs its tools',
    async ({ type, image, tool, prints }) => {
      const docker = await engineWith(image);
      const attempt = newAttempt(app, { workspaceType: type });
      const created = await app.inject({
        method: 'POST',
        url: '/api/session/create',
        headers: attempt.headers,
        payload: {},
      });
      expect(created.statusCode, created.body).toBe(200);
      const session = created.json();
      try {
        expect(session).toMatchObject({ status: 'ready', workspaceType: type });
        const containerId = await containerOf(docker, session.sessionId);
        const info = await docker.getContainer(containerId).inspect();
        expect(info.Config.Image).toBe(image);
        expect([
          info.Config.User,
          info.HostConfig.ReadonlyRootfs,
          info.HostConfig.CapDrop,
          info.HostConfig.NetworkMode,
        ]).toEqual(['1000:1000', true, ['ALL'], 'exam-workspaces']);
        const page = await httpCall(base, `${session.editorPath}?folder=%2Fhome%2Fcoder%2Fworkspace`, {
          headers: await editorCookie(app, attempt.headers, session.sessionId),
        });
        expect(page.status).toBe(200);
        expect(page.body).toContain('vscode-workbench-web-configuration');
        const run = await execIn(docker, containerId, [...tool]);
        expect(run.exitCode, run.output).toBe(0);
        for (const text of prints) expect(run.output).toContain(text);
      } finally {
        await app.inject({ method: 'DELETE', url: `/api/session/${session.sessionId}`, headers: attempt.headers });
      }
    },
  );
});
