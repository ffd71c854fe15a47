import { createServer } from 'node:net';
import type Docker from 'dockerode';
import { extract } from 'tar-stream';
import { dockerClient } from '../engine/docker-client.ts';
import { newAttempt, type buildTestApp } from './app.ts';

const BUILD_HINT = 'DOCKER_HOST=unix:///tmp/exam-docker-test/docker.sock scripts/build-workspace-images.sh';

/** The catalogue's own entries (no test-image override) and the production limits, as the real-image suites run. */
export const REAL_IMAGE_ENV = {
  WORKSPACE_IMAGE_OVERRIDES: '',
  WORKSPACE_MEMORY_MB: '1024',
  WORKSPACE_CPUS: '1',
  WORKSPACE_PIDS_LIMIT: '512',
  START_TIMEOUT_SECONDS: '60',
};

/** The engine named by the global setup, and a loud failure when the image is not built there (never a skip). */
export async function engineWith(socketPath: string | null | undefined, image: string): Promise<Docker> {
  if (!socketPath) throw new Error('The real-image test needs the private Docker engine; it cannot be skipped.');
  const docker = dockerClient(socketPath);
  await docker
    .getImage(image)
    .inspect()
    .catch(() => {
      throw new Error(
        `The image ${image} is not built on the engine at ${socketPath}. Build it first:\n  ${BUILD_HINT}`,
      );
    });
  return docker;
}

/** A free port on loopback, so a test can give the editors' listener an origin a real browser can open. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export type RealApp = Awaited<ReturnType<typeof buildTestApp>>;

/** POST /api/session/create for a fresh attempt of `workspaceType`, timed from the request to the ready answer. */
export async function createTimedSession(app: RealApp, workspaceType: 'excel' | 'oracle-sql') {
  const attempt = newAttempt(app, { workspaceType });
  const started = performance.now();
  const created = await app.inject({
    method: 'POST',
    url: '/api/session/create',
    headers: attempt.headers,
    payload: {},
  });
  const createToReadyMs = performance.now() - started;
  if (created.statusCode !== 200) throw new Error(`create answered ${created.statusCode}: ${created.body}`);
  const session = created.json<{ sessionId: string; editorPath: string; status: string; warm: boolean }>();
  return { attempt, session, createToReadyMs };
}

/** One file's bytes from a container, through the engine's archive API (the tar that collection reads). */
export async function fileFromContainer(docker: Docker, containerId: string, path: string): Promise<Buffer> {
  const archive = await docker.getContainer(containerId).getArchive({ path });
  const tar = extract();
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    tar.on('entry', (_header, stream, next) => {
      stream.on('data', (chunk) => chunks.push(chunk as Buffer));
      stream.on('end', next);
      stream.resume();
    });
    tar.on('finish', resolve);
    tar.on('error', reject);
    archive.pipe(tar);
  });
  return Buffer.concat(chunks);
}
