import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, newAttempt } from '../testing/app.ts';
import { startFakeKubernetes, type FakeKubernetes } from '../testing/fake-kubernetes.ts';
import { entry } from '../testing/kubernetes.ts';
import { LABELS, type WorkspaceEngine } from './engine.ts';
import { kubeConfigForServer } from './kubernetes-client.ts';
import { createKubernetesEngine } from './kubernetes-engine.ts';

/** The orchestrator's start-up re-adoption with the Kubernetes engine: its pods and claims judged against the rows. */
describe('re-adoption on a Kubernetes cluster', () => {
  let fake: FakeKubernetes;
  let engine: WorkspaceEngine;
  let app: Awaited<ReturnType<typeof buildTestApp>>;

  beforeEach(async () => {
    fake = await startFakeKubernetes({ readyAfterMs: 20 });
    engine = createKubernetesEngine({
      kubeConfig: kubeConfigForServer(fake.url),
      namespace: 'exam-workspaces',
      instance: 'adoption',
      memoryMb: 256,
      cpus: 0.5,
      tmpMb: 32,
      imagePullPolicy: 'IfNotPresent',
      volumeSize: '1Gi',
      readyTimeoutMs: 3000,
    });
    app = await buildTestApp({ instance: 'adoption', deps: { engines: [engine] } });
  });
  afterEach(async () => {
    await app.close();
    await fake.close();
  });

  const idOf = () => randomUUID().replace(/-/g, '');
  const startPod = (id: string) =>
    engine.start({
      id,
      workspaceType: 'vscode',
      entry,
      egress: 'none',
      password: 'pw',
      labels: { [LABELS.pool]: 'assigned' },
      volume: { name: `exam-ws-${id}`, labels: { [LABELS.sessionId]: id } },
    });

  async function recordedSession(id: string, handle: string) {
    const attempt = newAttempt(app);
    const now = new Date();
    const row = await app.workspaces.repo.insert({
      id,
      host: await engine.hostId(),
      backend: 'kubernetes',
      workspaceType: 'vscode',
      egress: 'none',
      status: 'ready',
      handle,
      target: `${handle}.exam-workspaces.svc:8080`,
      volume: `exam-ws-${id}`,
      attemptId: attempt.claims.sub,
      examId: attempt.claims.examId,
      ownerId: attempt.claims.ownerId,
      editorPassword: 'pw',
      editorCookie: 'cookie',
      createdAt: now,
      lastActivityAt: now,
    });
    await app.workspaces.service.volumes.record(row);
    return row;
  }

  it('keeps pods with a live row, removes those without, ends rows whose pod is gone and removes unrecorded claims', async () => {
    const kept = idOf();
    const orphan = idOf();
    const gone = idOf();
    const keptPod = await startPod(kept);
    await recordedSession(kept, keptPod.handle);
    await startPod(orphan);
    await recordedSession(gone, `exam-ws-${gone}`);

    const adopted = await app.jobs.adopt();

    expect(adopted.adopted).toEqual([kept]);
    expect(adopted.removed).toEqual([orphan]);
    expect(adopted.ended).toEqual([gone]);
    expect(adopted.removedVolumes).toEqual([`exam-ws-${orphan}`]);
    expect(fake.names('pods')).toEqual([`exam-ws-${kept}`]);
    expect(fake.names('services')).toEqual([`exam-ws-${kept}`]);
    expect(fake.names('persistentvolumeclaims')).toEqual([`exam-ws-${kept}`]);
    expect((await app.workspaces.repo.find(gone))?.endedAt).not.toBeNull();
  });
});
