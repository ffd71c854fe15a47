import { TEST_SECRETS } from '@exam/server-kit/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dockerClient } from '../../engine/docker-client.ts';
import { buildTestApp, newAttempt } from '../../testing/app.ts';
import { containerOf, execIn } from '../../testing/docker.ts';

const socketPath = inject('dockerSocket');
const internal = { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN };

type Change = { at: string; content: string; source: string | null; deleted: boolean };

describe.skipIf(!socketPath)('snapshots of a running workspace on the Docker engine', () => {
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  const docker = dockerClient(socketPath ?? '');
  beforeAll(async () => {
    app = await buildTestApp({
      socketPath: socketPath!,
      instance: inject('workspaceInstance'),
      // Due again right after each look, so the test's own calls of the job decide when snapshots are taken.
      env: { WORKSPACE_HISTORY_INTERVAL_SECONDS: '0.001' },
    });
  });
  afterAll(() => app.close());

  async function changesOf(attemptId: string): Promise<Record<string, Change[]>> {
    const response = await app.inject({
      method: 'GET',
      url: `/internal/attempts/${attemptId}/file-history`,
      headers: internal,
    });
    expect(response.statusCode).toBe(200);
    const { files } = response.json() as { files: { path: string; changes: Change[] }[] };
    return Object.fromEntries(files.map((file) => [file.path, file.changes]));
  }

  it('records a file written in the editor, its second edit, its deletion, and ends at the collected files', async () => {
    const attempt = newAttempt(app);
    const attemptId = attempt.claims.sub;
    const session = (
      await app.inject({ method: 'POST', url: '/api/session/create', headers: attempt.headers, payload: {} })
    ).json();
    const containerId = await containerOf(docker, session.sessionId);
    const run = async (script: string) =>
      expect((await execIn(docker, containerId, ['sh', '-c', `cd /home/coder/workspace && ${script}`])).exitCode).toBe(
        0,
      );

    await run(
      'printf "def add(a, b):\\n    return a + b\\n" > solution.py && mkdir -p node_modules/x && echo 1 > node_modules/x/i.js',
    );
    await app.jobs.snapshotFiles();
    expect(await changesOf(attemptId)).toEqual({
      'solution.py': [
        expect.objectContaining({ content: 'def add(a, b):\n    return a + b\n', deleted: false, source: null }),
      ],
    });

    await run('printf "def add(a, b):\\n    return b + a  # é\\n" > solution.py');
    await app.jobs.snapshotFiles();
    const edited = (await changesOf(attemptId))['solution.py']!;
    expect(edited.map((change) => change.content)).toEqual([
      'def add(a, b):\n    return a + b\n',
      'def add(a, b):\n    return b + a  # é\n',
    ]);
    expect(Date.parse(edited[1]!.at)).toBeGreaterThanOrEqual(Date.parse(edited[0]!.at));

    await run('rm solution.py && printf "print(42)\\n" > main.py');
    await app.jobs.snapshotFiles();
    const afterDelete = await changesOf(attemptId);
    expect(afterDelete['solution.py']!.at(-1)).toMatchObject({ deleted: true, content: '' });
    expect(afterDelete['solution.py']).toHaveLength(3);

    // No look of the job between this edit and the submit: the collection's own snapshot records it.
    await run('printf "print(43)\\n" > main.py');
    const collected = await app.inject({
      method: 'POST',
      url: `/internal/attempts/${attemptId}/collect`,
      headers: internal,
      payload: {},
    });
    expect(collected.statusCode).toBe(200);
    expect(collected.json().files['main.py'].content).toBe('print(43)\n');
    const final = await changesOf(attemptId);
    expect(final['main.py']!.map((change) => change.content)).toEqual(['print(42)\n', 'print(43)\n']);
    expect(Object.keys(final).sort()).toEqual(['main.py', 'solution.py']);
  });
});
