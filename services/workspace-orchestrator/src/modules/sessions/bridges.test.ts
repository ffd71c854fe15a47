import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dockerClient, isNotFound } from '../../engine/docker-client.ts';
import { bridgeName } from '../../engine/docker-networks.ts';
import { buildTestApp, newAttempt } from '../../testing/app.ts';

const socketPath = inject('dockerSocket');

describe.skipIf(!socketPath)('workspace bridges are the engine’s own', () => {
  const docker = dockerClient(socketPath ?? '');
  const suffix = `${process.pid}-${Date.now().toString(36)}`;
  // Two deployments' networks on one engine stand for two engines on one host: before, both asked the
  // kernel for the bridge `exam-ws0`, and the second was refused.
  const networks = [`bridges-a-${suffix}`, `bridges-b-${suffix}`];
  const apps: Awaited<ReturnType<typeof buildTestApp>>[] = [];

  beforeAll(async () => {
    for (const network of networks)
      apps.push(
        await buildTestApp({
          socketPath: socketPath!,
          // An instance of its own: a warm editor of the shared instance (on its network) is never handed out here.
          instance: `${inject('workspaceInstance')}-${network}`,
          // A host of its own too: the suites share one database, and a warm editor is handed out by engine host,
          // so on the shared engine's ID a warm editor of another suite (on its network) was claimed here.
          env: {
            WORKSPACE_NETWORK: network,
            WORKSPACE_EGRESS_NETWORK: `${network}-egress`,
            WORKSPACE_HOST_ID: `bridges-${network}`,
          },
        }),
      );
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const name of networks.flatMap((n) => [n, `${n}-egress`])) {
      const network = docker.getNetwork(name);
      const info = (await network.inspect().catch(() => undefined)) as
        { Containers?: Record<string, unknown> } | undefined;
      for (const id of Object.keys(info?.Containers ?? {}))
        await docker
          .getContainer(id)
          .remove({ force: true })
          .catch(() => undefined);
      await network.remove().catch((err: unknown) => {
        if (!isNotFound(err)) throw err;
      });
    }
    for (const network of networks) {
      const { Volumes } = await docker.listVolumes({
        filters: { label: [`exam.orchestrator=${inject('workspaceInstance')}-${network}`] },
      });
      for (const volume of Volumes ?? []) await docker.getVolume(volume.Name).remove({ force: true });
    }
  });

  it('starts workspaces of two deployments side by side, each on a bridge named for its engine and network', async () => {
    const { ID } = (await docker.info()) as { ID: string };
    const bridges: string[] = [];
    for (const [i, app] of apps.entries()) {
      const attempt = newAttempt(app);
      const response = await app.inject({
        method: 'POST',
        url: '/api/session/create',
        headers: attempt.headers,
        payload: {},
      });
      expect(response.json()).toMatchObject({ status: 'ready' });
      const info = (await docker.getNetwork(networks[i]!).inspect()) as { Options: Record<string, string> };
      const bridge = info.Options['com.docker.network.bridge.name']!;
      expect(bridge).toBe(bridgeName('internal', ID, networks[i]!));
      expect(bridge).toMatch(/^exam-ws0-[0-9a-f]{6}$/);
      // The kernel has it under that name (15 characters at most, IFNAMSIZ).
      expect(spawnSync('ip', ['link', 'show', bridge]).status).toBe(0);
      bridges.push(bridge);
    }
    expect(new Set(bridges).size).toBe(2);
  });

  it('names the bridges of another engine differently', () => {
    expect(bridgeName('internal', 'ENGINE-A', 'exam-workspaces')).not.toBe(
      bridgeName('internal', 'ENGINE-B', 'exam-workspaces'),
    );
    expect(bridgeName('egress', 'ENGINE-A', 'exam-workspaces-egress')).toMatch(/^exam-ws1-[0-9a-f]{6}$/);
  });
});
