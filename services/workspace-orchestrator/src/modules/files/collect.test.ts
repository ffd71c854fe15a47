import Docker from 'dockerode';
import { pack } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { buildTestApp, newAttempt, type TestApp } from '../../testing/app.ts';
import { containerOf, execIn } from '../../testing/docker.ts';
import { collectFiles } from './collect.ts';

const limits = { fileMaxBytes: 16, totalMaxBytes: 40, maxFiles: 10 };

function tarOf(
  entries: Array<{ name: string; content?: Buffer | string; type?: 'symlink' | 'directory'; linkname?: string }>,
) {
  const tar = pack();
  for (const e of entries) {
    if (e.type)
      tar.entry({ name: e.name, type: e.type, linkname: e.linkname, mtime: new Date('2026-01-02T03:04:05Z') });
    else tar.entry({ name: e.name, mtime: new Date('2026-01-02T03:04:05Z') }, e.content ?? '');
  }
  tar.finalize();
  return tar as unknown as NodeJS.ReadableStream;
}

describe('collectFiles', () => {
  it('records text files with their media type and modification time, relative to the workspace', async () => {
    const files = await collectFiles(
      tarOf([
        { name: 'workspace/', type: 'directory' },
        { name: 'workspace/src/main.py', content: 'print(1)\n' },
      ]),
      limits,
    );
    expect(files).toEqual({
      'src/main.py': {
        content: 'print(1)\n',
        lastModified: '2026-01-02T03:04:05.000Z',
        size: 9,
        type: 'text/x-python',
        isBinary: false,
        truncated: false,
      },
    });
  });

  it('records a symlink as a link with empty content instead of following it', async () => {
    const files = await collectFiles(
      tarOf([{ name: 'workspace/passwd', type: 'symlink', linkname: '/etc/passwd' }]),
      limits,
    );
    expect(files.passwd).toMatchObject({ content: '', size: 0, type: 'symlink' });
  });

  it('flags binary files (NUL byte or invalid UTF-8) and keeps no content for them', async () => {
    const files = await collectFiles(
      tarOf([
        { name: 'workspace/a.bin', content: Buffer.from([1, 0, 2]) },
        { name: 'workspace/b.dat', content: Buffer.from([0xff, 0xfe, 0x41]) },
      ]),
      limits,
    );
    expect(files['a.bin']).toMatchObject({ isBinary: true, content: '', size: 3, type: 'application/octet-stream' });
    expect(files['b.dat']).toMatchObject({ isBinary: true, content: '' });
  });

  it('truncates a file at the per-file cap and stops keeping content at the per-workspace cap', async () => {
    const files = await collectFiles(
      tarOf([
        { name: 'workspace/big.txt', content: 'x'.repeat(100) },
        { name: 'workspace/b.txt', content: 'y'.repeat(16) },
        { name: 'workspace/c.txt', content: 'z'.repeat(16) },
      ]),
      limits,
    );
    expect(files['big.txt']).toMatchObject({ content: 'x'.repeat(16), size: 100, truncated: true });
    expect(files['b.txt']).toMatchObject({ content: 'y'.repeat(16), truncated: false });
    expect(files['c.txt']).toMatchObject({ content: 'z'.repeat(8), size: 16, truncated: true });
  });

  it('lists at most the configured number of files', async () => {
    const entries = Array.from({ length: 15 }, (_, i) => ({ name: `workspace/f${i}.txt`, content: 'a' }));
    expect(Object.keys(await collectFiles(tarOf(entries), limits))).toHaveLength(10);
  });
});

const socketPath = inject('dockerSocket');

describe.skipIf(!socketPath)('collecting a real workspace on submit', () => {
  let app: TestApp & Awaited<ReturnType<typeof buildTestApp>>;
  const docker = new Docker({ socketPath: socketPath ?? '' });
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
});
