import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ManagedWorkspace, WorkspaceEngine, WorkspaceSpec } from '../engine/engine.ts';

/**
 * A Docker-kind engine on a made-up host, for the tests of what several orchestrators on one database do
 * (pool refills racing, re-adoption and reaping beside another host). Each "container" is a small HTTP
 * server on 127.0.0.1 that answers the editor's health check and login as code-server does, so the
 * orchestrator's own start path (wait until healthy, log in) runs unchanged.
 */
export function fakeEngine(host: string) {
  const containers = new Map<string, { server: Server; spec: WorkspaceSpec }>();
  const volumes = new Set<string>();
  const started: WorkspaceSpec[] = [];
  let next = 0;

  const editor = (spec: WorkspaceSpec) =>
    createServer((req, res) => {
      if (req.url === spec.entry.healthPath) return void res.end('{"status":"alive"}');
      if (req.url?.startsWith(spec.entry.loginPath) && req.method === 'POST')
        return void res
          .writeHead(302, { location: './', 'set-cookie': `${spec.entry.sessionCookie}=fake; Path=/` })
          .end();
      res.end('editor');
    });

  const engine: WorkspaceEngine = {
    kind: 'docker',
    hostId: async () => host,
    unavailableReason: async () => undefined,
    entryUnavailableReason: async () => undefined,
    async start(spec) {
      started.push(spec);
      volumes.add(spec.volume.name);
      const server = editor(spec);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const handle = `${host}-container-${++next}`;
      containers.set(handle, { server, spec });
      return { handle, target: `127.0.0.1:${(server.address() as AddressInfo).port}` };
    },
    isRunning: async (handle) => containers.has(handle),
    async remove(handle) {
      const container = containers.get(handle);
      containers.delete(handle);
      await new Promise((resolve) => (container ? container.server.close(resolve) : resolve(undefined)));
    },
    async list(): Promise<ManagedWorkspace[]> {
      return [...containers].map(([handle, { spec }]) => ({
        id: spec.id,
        handle,
        running: true,
        labels: spec.labels,
      }));
    },
    archiveWorkspace: () => Promise.reject(new Error('the fake engine keeps no files')),
    archiveVolume: () => Promise.reject(new Error('the fake engine keeps no files')),
    async removeVolume(volume) {
      volumes.delete(volume);
    },
    listVolumes: async () => [...volumes],
    async close() {
      for (const handle of [...containers.keys()]) await engine.remove(handle);
    },
  };
  return { engine, started, containers, volumes };
}
