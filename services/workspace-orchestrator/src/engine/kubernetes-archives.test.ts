import type { V1Container } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeKubernetes, type FakeKubernetes } from '../testing/fake-kubernetes.ts';
import { entry, kubernetesEngineFor, specOf, tarBuffer } from '../testing/kubernetes.ts';
import { collectFiles } from './collect-files.ts';
import type { WorkspaceEngine } from './engine.ts';

const limits = { fileMaxBytes: 1024, totalMaxBytes: 4096, maxFiles: 10 };
const ID = 'a'.repeat(32);
const NAME = `exam-ws-${ID}`;

let fake: FakeKubernetes;
let engine: WorkspaceEngine;

beforeEach(async () => {
  fake = await startFakeKubernetes({ readyAfterMs: 50 });
  engine = kubernetesEngineFor(fake);
});
afterEach(async () => {
  await engine.close();
  await fake.close();
});

describe('Kubernetes engine archives', () => {
  it("reads the workspace folder through tar run by exec in the pod's editor container", async () => {
    await engine.start(specOf(ID));
    const tar = await tarBuffer({ 'main.py': 'print(1)\n', 'notes.md': '# notes\n' });
    const seen: string[][] = [];
    fake.state.exec = (pod, command) => {
      seen.push([pod.metadata.name, ...command]);
      return { stdout: tar, exitCode: 0 };
    };
    const files = await collectFiles(await engine.archiveWorkspace({ id: ID, handle: NAME, volume: NAME }), limits);
    expect(Object.keys(files).sort()).toEqual(['main.py', 'notes.md']);
    expect(files['main.py']!.content).toBe('print(1)\n');
    expect(seen).toEqual([[NAME, 'tar', '-cf', '-', '-C', '/home/coder', 'workspace']]);
    const exec = fake.requests.find((r) => r.path.endsWith('/exec'))!;
    expect(exec.query.get('container')).toBe('editor');
    expect(exec.query.get('stdout')).toBe('true');
  });

  it('carries a large tar whole across many channel messages', async () => {
    await engine.start(specOf(ID));
    const big = 'x'.repeat(200 * 1024);
    fake.state.exec = () => ({ stdout: Buffer.alloc(0), exitCode: 0 });
    const tar = await tarBuffer({ 'big.txt': big });
    fake.state.exec = () => ({ stdout: tar, exitCode: 0 });
    const chunks: Buffer[] = [];
    for await (const chunk of await engine.archiveWorkspace({ id: ID, handle: NAME, volume: NAME }))
      chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(tar)).toBe(true);
  });

  it("fails the stream when tar fails, and accepts GNU tar's 'some files differ'", async () => {
    await engine.start(specOf(ID));
    fake.state.exec = () => ({ stdout: Buffer.alloc(0), stderr: 'tar: workspace: Cannot open', exitCode: 2 });
    await expect(
      collectFiles(await engine.archiveWorkspace({ id: ID, handle: NAME, volume: NAME }), limits),
    ).rejects.toThrow(/tar in the pod .* failed: .*exit code 2 tar: workspace: Cannot open/);
    const tar = await tarBuffer({ 'a.txt': 'a' });
    fake.state.exec = () => ({ stdout: tar, stderr: 'tar: workspace/a.txt: file changed as we read it', exitCode: 1 });
    expect(
      Object.keys(await collectFiles(await engine.archiveWorkspace({ id: ID, handle: NAME, volume: NAME }), limits)),
    ).toEqual(['a.txt']);
  });

  it('reads a claim no workspace runs on through a reader pod that mounts it read-only, then deletes the reader', async () => {
    await engine.start(specOf(ID));
    await engine.remove(NAME);
    const tar = await tarBuffer({ 'kept.py': 'kept\n' });
    fake.state.exec = () => ({ stdout: tar, exitCode: 0 });
    const files = await engine.archiveVolume(NAME, entry, (stream) => collectFiles(stream, limits));
    expect(Object.keys(files)).toEqual(['kept.py']);
    const reader = fake.created('pods').at(-1)!;
    expect(reader.metadata.name).toMatch(/^exam-reader-[0-9a-f]{16}$/);
    expect(reader.spec).toMatchObject({
      automountServiceAccountToken: false,
      activeDeadlineSeconds: 600,
      securityContext: { runAsNonRoot: true, runAsUser: 1000 },
      volumes: [{ name: 'workspace', persistentVolumeClaim: { claimName: NAME, readOnly: true } }],
    });
    expect((reader.spec!.containers as V1Container[])[0]).toMatchObject({
      command: ['sleep', '600'],
      securityContext: {
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
      },
      volumeMounts: [{ name: 'workspace', mountPath: '/home/coder/workspace', readOnly: true }],
    });
    expect(fake.names('pods')).toEqual([]);
  });
});
