import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { quantityBytes } from '../../engine/docker-engine.ts';
import { buildTestApp, creatorToken, newAttempt } from '../../testing/app.ts';
import { dockerClient } from '../../engine/docker-client.ts';

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
    const attempt = newAttempt(app);
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
    expect(failure.json().failure.reason).toContain('cannot limit the size of workspace volumes');
    const { Volumes } = await dockerClient(socketPath!).listVolumes({
      filters: { label: [`exam.attempt-id=${attempt.claims.sub}`] },
    });
    expect(Volumes ?? []).toEqual([]);
  });
});
