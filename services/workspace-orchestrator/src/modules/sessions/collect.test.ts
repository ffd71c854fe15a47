import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dockerClient } from '../../engine/docker-client.ts';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { buildTestApp, newAttempt, type TestApp } from '../../testing/app.ts';
import { containerOf, execIn } from '../../testing/docker.ts';

const socketPath = inject('dockerSocket');

describe.skipIf(!socketPath)('collecting a real workspace on submit', () => {
  let app: TestApp & Awaited<ReturnType<typeof buildTestApp>>;
  const docker = dockerClient(socketPath ?? '');
  beforeAll(async () => {
    app = await buildTestApp({
      socketPath: socketPath!,
      instance: inject('workspaceInstance'),
      env: { WORKSPACE_FILE_MAX_BYTES: '1000' },
    });
  });
  afterAll(() => app.close());

  it('returns the candidate files without following a symlink to /etc/passwd', async () => {
    const attempt = newAttempt(app);
    const session = (
      await app.inject({ method: 'POST', url: '/api/session/create', headers: attempt.headers, payload: {} })
    ).json();
    const containerId = await containerOf(docker, session.sessionId);
    const script = [
      'cd /home/coder/workspace',
      'mkdir -p src && printf "def add(a, b):\\n    return a + b\\n" > src/solution.py',
      'ln -s /etc/passwd passwd-link',
      'printf "\\000\\001\\002" > data.bin',
      'head -c 5000 /dev/zero | tr "\\000" a > big.txt',
    ].join(' && ');
    expect((await execIn(docker, containerId, ['sh', '-c', script])).exitCode).toBe(0);

    const viaApi = await app.inject({
      method: 'GET',
      url: `/api/session/${session.sessionId}/files`,
      headers: attempt.headers,
    });
    expect(Object.keys(viaApi.json().workspaceFiles).sort()).toEqual([
      'big.txt',
      'data.bin',
      'passwd-link',
      'src/solution.py',
    ]);

    const response = await app.inject({
      method: 'POST',
      url: `/internal/attempts/${attempt.claims.sub}/collect`,
      headers: { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN },
      payload: {},
    });
    expect(response.statusCode).toBe(200);
    const { files } = response.json();
    expect(files['src/solution.py']).toMatchObject({
      content: 'def add(a, b):\n    return a + b\n',
      type: 'text/x-python',
      isBinary: false,
    });
    expect(files['passwd-link']).toMatchObject({ type: 'symlink', content: '', size: 0 });
    expect(JSON.stringify(files)).not.toContain('root:x:0:0');
    expect(files['data.bin']).toMatchObject({ isBinary: true, content: '' });
    expect(files['big.txt']).toMatchObject({ size: 5000, truncated: true });
    expect(files['big.txt'].content).toHaveLength(1000);
    // Collected at submit: the session has ended (the volume stays until the attempt is closed).
    const after = await app.inject({
      method: 'GET',
      url: `/api/session/${session.sessionId}/files`,
      headers: attempt.headers,
    });
    expect(after.statusCode).toBe(409);
  });

  it('answers an empty map for an attempt without a workspace and refuses a call without the internal token', async () => {
    const none = await app.inject({
      method: 'POST',
      url: '/internal/attempts/no-such-attempt/collect',
      headers: { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN },
      payload: {},
    });
    expect(none.json()).toEqual({ files: {} });
    expect(
      (await app.inject({ method: 'POST', url: '/internal/attempts/no-such-attempt/collect', payload: {} })).statusCode,
    ).toBe(401);
  });

  it('collects solution.py and a file named __proto__ past a 2,100-file folder, and lists what it left out', async () => {
    const attempt = newAttempt(app);
    const session = (
      await app.inject({ method: 'POST', url: '/api/session/create', headers: attempt.headers, payload: {} })
    ).json();
    const containerId = await containerOf(docker, session.sessionId);
    const script = [
      'cd /home/coder/workspace',
      'mkdir -p aaa-data node_modules/pkg',
      'i=0; while [ $i -lt 2100 ]; do echo $i > aaa-data/f$i.dat; i=$((i+1)); done',
      'echo x > node_modules/pkg/index.js',
      'printf "print(42)\\n" > solution.py',
      'printf "proto" > __proto__',
    ].join(' && ');
    expect((await execIn(docker, containerId, ['sh', '-c', script])).exitCode).toBe(0);

    const response = await app.inject({
      method: 'POST',
      url: `/internal/attempts/${attempt.claims.sub}/collect`,
      headers: { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN },
      payload: { priorityFiles: ['solution.py'] },
    });
    expect(response.statusCode).toBe(200);
    const { files } = JSON.parse(response.body) as { files: Record<string, { content: string; omitted?: unknown }> };
    expect(files['solution.py']).toMatchObject({ content: 'print(42)\n' });
    expect(Object.getOwnPropertyDescriptor(files, '__proto__')?.value).toMatchObject({ content: 'proto' });
    expect(files['node_modules/']).toMatchObject({ omitted: { reason: 'dependency-folder', files: 1 } });
    expect(files['aaa-data/']).toMatchObject({ omitted: { reason: 'file-limit', files: 102 } });
    expect(Object.keys(files).filter((name) => !name.endsWith('/'))).toHaveLength(2000);
  });

  it('refuses a collect request whose priority files are not a list of paths', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/internal/attempts/no-such-attempt/collect',
      headers: { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN },
      payload: { priorityFiles: 'solution.py' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('priorityFiles');
  });
});
