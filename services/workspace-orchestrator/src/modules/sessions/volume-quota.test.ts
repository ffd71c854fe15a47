import { plainWorkspaceUnavailable } from '@exam/domain/service-status';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { quantityBytes } from '../../engine/docker-engine.ts';
import { buildTestApp, creatorToken, newAttempt } from '../../testing/app.ts';
import { dockerClient } from '../../engine/docker-client.ts';
import { containerOf, execIn } from '../../testing/docker.ts';

const socketPath = inject('dockerSocket');

describe('the workspace volume quota', () => {
  it('reads WORKSPACE_VOLUME_SIZE in bytes, with Kubernetes units', () => {
    expect(quantityBytes('2Gi')).toBe(2 * 1024 ** 3);
    expect(quantityBytes('512Mi')).toBe(512 * 1024 ** 2);
    expect(quantityBytes('1.5G')).toBe(1.5e9);
    expect(quantityBytes('4096')).toBe(4096);
  });
});

// This machine's kernel has no XFS quota support, so its test engine cannot limit volumes: the required quota
// must refuse to start a workspace rather than start it on an unlimited volume (infra/workspaces/README.md).
describe.skipIf(!socketPath)('a required volume quota on an engine that cannot limit volumes', () => {
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    app = await buildTestApp({
      socketPath: socketPath!,
      // An instance of its own: a warm editor of the shared instance (on an unlimited volume) is never handed out here.
      instance: `${inject('workspaceInstance')}-quota`,
      env: { WORKSPACE_VOLUME_QUOTA: 'required', WORKSPACE_VOLUME_SIZE: '64Mi', WARM_POOL_SIZE: '0' },
    });
  });
  afterAll(() => app.close());

  it('refuses the start and says why, leaving no unlimited volume behind', async () => {
    // Package registries allowed: such an exam always cold-starts, so a warm editor another test file's app left in
    // the PostgreSQL suite's shared database (warm rows are claimed by host, not by instance) is never handed out.
    const attempt = newAttempt(app, { allowPackageRegistries: true });
    const response = await app.inject({
      method: 'POST',
      url: '/api/session/create',
      headers: attempt.headers,
      payload: {},
    });
    expect(response.statusCode).toBe(503);
    // The candidate gets the bare 503; the exam's creator reads why.
    const failure = await app.inject({
      method: 'GET',
      url: `/api/session/attempts/${attempt.claims.sub}/start-failure`,
      headers: creatorToken(app, attempt.claims.ownerId),
    });
    expect(failure.json().failure.reason).toBe(plainWorkspaceUnavailable('not-configured'));
    expect(failure.body).not.toMatch(/XFS|WORKSPACE_VOLUME_QUOTA/);
    const { Volumes } = await dockerClient(socketPath!).listVolumes({
      filters: { label: [`exam.attempt-id=${attempt.claims.sub}`] },
    });
    expect(Volumes ?? []).toEqual([]);
  });
});

/** The loop devices whose backing file is this volume's image (the kernel's record, whatever path it was given). */
function loopDevicesOf(volume: string): string[] {
  return readdirSync('/sys/block')
    .filter((d) => d.startsWith('loop'))
    .filter((d) => {
      try {
        return readFileSync(`/sys/block/${d}/loop/backing_file`, 'utf8').includes(`${volume}.img`);
      } catch {
        return false; // not attached
      }
    });
}

// WORKSPACE_VOLUME_QUOTA=loop needs only the loop driver, so this engine enforces it: a fixed-size filesystem.
describe.skipIf(!socketPath)('a loop volume quota (a filesystem of fixed size per workspace)', () => {
  const MiB = 1024 ** 2;
  const docker = dockerClient(socketPath ?? '');
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  let hostDir: string;
  beforeAll(async () => {
    // The test engine runs on this host, so a folder here is a folder on the engine's host.
    hostDir = mkdtempSync(join(tmpdir(), 'exam-loop-volumes-'));
    app = await buildTestApp({
      socketPath: socketPath!,
      instance: `${inject('workspaceInstance')}-loop`,
      env: {
        WORKSPACE_VOLUME_QUOTA: 'loop',
        WORKSPACE_VOLUME_SIZE: '64Mi',
        WORKSPACE_VOLUME_DIR: hostDir,
        WARM_POOL_SIZE: '0',
      },
    });
  });
  afterAll(async () => {
    await app.close();
    // A failed run leaves its workspace behind: remove it, so the engine unmounts (and the kernel frees) the device.
    const label = `exam.orchestrator=${inject('workspaceInstance')}-loop`;
    for (const c of await docker.listContainers({ all: true, filters: { label: [label] } }))
      await docker.getContainer(c.Id).remove({ force: true });
    for (const v of (await docker.listVolumes({ filters: { label: [label] } })).Volumes ?? []) {
      await docker.getVolume(v.Name).remove();
      for (const device of loopDevicesOf(v.Name)) execFileSync('losetup', ['-d', `/dev/${device}`]);
    }
    rmSync(hostDir, { recursive: true, force: true });
  });

  const create = async (attempt: ReturnType<typeof newAttempt>) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/session/create',
      headers: attempt.headers,
      payload: {},
    });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { sessionId: string }).sessionId;
  };
  const sh = async (sessionId: string, script: string) =>
    execIn(docker, await containerOf(docker, sessionId), ['sh', '-c', script], { timeoutMs: 60_000 });
  const freeBytes = () => {
    const s = statfsSync(hostDir);
    return s.bavail * s.bsize;
  };
  /**
   * The host's free space is one figure for every process on this machine: `pnpm test` runs this file in the PGlite
   * and the PostgreSQL suites at once, and two 64 MiB floods measured together read as 128 MiB. The measured part
   * holds a lock directory (mkdir is atomic) that the other suite waits for; one left by a killed run expires.
   */
  const FLOOD_LOCK = join(tmpdir(), 'exam-volume-quota-flood.lock');
  async function measuredAlone<T>(work: () => Promise<T>): Promise<T> {
    for (;;) {
      try {
        mkdirSync(FLOOD_LOCK);
        break;
      } catch {
        if (Date.now() - (statSync(FLOOD_LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 120_000)
          rmSync(FLOOD_LOCK, { recursive: true, force: true });
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    try {
      return await work();
    } finally {
      rmSync(FLOOD_LOCK, { recursive: true, force: true });
    }
  }

  it('fails a write past the quota with ENOSPC, costs the host at most the quota, keeps the files for the next session (re-attached after a reboot) and deletes them with the volume', async () => {
    // Always a cold start (see the required-quota test): never a warm editor another app left on this engine.
    const attempt = newAttempt(app, { allowPackageRegistries: true });
    const first = await create(attempt);
    const [volume] =
      (await docker.listVolumes({ filters: { label: [`exam.attempt-id=${attempt.claims.sub}`] } })).Volumes ?? [];
    expect(volume?.Options).toMatchObject({ type: 'ext2' });
    const image = join(hostDir, `${volume!.Name}.img`);
    expect(statSync(image).size).toBe(64 * MiB);

    await sh(first, 'echo kept > /home/coder/workspace/solution.py');
    const storage = async () =>
      (await app.inject({ method: 'GET', url: '/api/sessions', headers: attempt.headers })).json().sessions[0]?.storage;
    expect(await storage()).toMatchObject({ full: false });
    await measuredAlone(async () => {
      const before = freeBytes();
      // 200 MiB into a 64 MiB workspace, as the candidate would from the editor's terminal.
      const flood = await sh(first, 'dd if=/dev/zero of=/home/coder/workspace/big bs=1M count=200; sync');
      expect(flood.output).toContain('No space left on device');
      // The candidate's page reads the session list: it now says the workspace is full.
      const full = await storage();
      expect(full).toMatchObject({ full: true });
      expect(full.availableBytes).toBeLessThan(1024 ** 2);
      expect(full.sizeBytes).toBeGreaterThan(60 * MiB);
      expect(full.sizeBytes).toBeLessThanOrEqual(64 * MiB);
      const du = (await sh(first, 'echo "kib=$(du -k /home/coder/workspace/big | cut -f1)"')).output;
      const written = Number(/kib=([0-9]+)/.exec(du)?.[1]) * 1024;
      expect(written).toBeGreaterThan(50 * MiB);
      expect(written).toBeLessThanOrEqual(64 * MiB);
      // The host lost what the image file holds and no more (other writers share this disk: a margin of 16 MiB).
      expect(before - freeBytes()).toBeLessThanOrEqual(64 * MiB + 16 * MiB);
      expect(statSync(image).blocks * 512).toBeLessThanOrEqual(64 * MiB);
    });

    // The session ends (a page close); the next one mounts the same filesystem, files kept.
    await app.inject({ method: 'DELETE', url: `/api/session/${first}`, headers: attempt.headers });
    // As after a reboot: the loop device is gone (the engine unmounted it with the last container).
    for (const device of loopDevicesOf(volume!.Name)) execFileSync('losetup', ['-d', `/dev/${device}`]);
    expect(loopDevicesOf(volume!.Name)).toEqual([]);
    const second = await create(attempt);
    expect(second).not.toBe(first);
    expect((await sh(second, 'cat /home/coder/workspace/solution.py')).output).toContain('kept');
    expect(loopDevicesOf(volume!.Name)).toHaveLength(1);

    // Closed and collected, the attempt's volume goes, and with it the loop device and the image file.
    const collected = await app.inject({
      method: 'POST',
      url: `/internal/attempts/${attempt.claims.sub}/collect`,
      headers: { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN },
      payload: {},
    });
    expect(collected.json().files['solution.py']).toMatchObject({ content: 'kept\n' });
    app.closedAttempts.add(attempt.claims.sub);
    await app.jobs.reap();
    expect((await docker.listVolumes({ filters: { name: [volume!.Name] } })).Volumes ?? []).toEqual([]);
    expect(existsSync(image)).toBe(false);
    expect(loopDevicesOf(volume!.Name)).toEqual([]);
  });
});
