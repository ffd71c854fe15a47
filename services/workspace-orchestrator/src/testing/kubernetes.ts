import type { CatalogueEntry } from '@exam/domain/workspace';
import { pack } from 'tar-stream';
import { LABELS, type WorkspaceSpec } from '../engine/engine.ts';
import { kubeConfigForServer } from '../engine/kubernetes-client.ts';
import { createKubernetesEngine, type KubernetesEngineOptions } from '../engine/kubernetes-engine.ts';
import type { FakeKubernetes } from './fake-kubernetes.ts';

/** What the Kubernetes engine's tests start: a code-server-like entry, a session's spec, a tar of a workspace. */
export const entry: CatalogueEntry = {
  image: 'exam/workspace-vscode',
  languages: ['python'],
  port: 8080,
  command: ['--bind-addr', '0.0.0.0:8080', '--auth', 'password'],
  healthPath: '/healthz',
  loginPath: '/login',
  sessionCookie: 'code-server-session',
  description: '',
  agents: [],
};

export const specOf = (id: string, overrides: Partial<WorkspaceSpec> = {}): WorkspaceSpec => ({
  id,
  workspaceType: 'vscode',
  entry,
  egress: 'none',
  password: 'per-session-password',
  labels: { [LABELS.attemptId]: 'attempt-1', [LABELS.ownerId]: 'ana@example.com', [LABELS.pool]: 'assigned' },
  volume: { name: `exam-ws-${id}`, labels: { [LABELS.sessionId]: id, [LABELS.attemptId]: 'attempt-1' } },
  ...overrides,
});

export async function tarBuffer(files: Record<string, string>): Promise<Buffer> {
  const tar = pack();
  tar.entry({ name: 'workspace/', type: 'directory' });
  for (const [name, content] of Object.entries(files)) tar.entry({ name: `workspace/${name}` }, content);
  tar.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of tar) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A Kubernetes engine on the fake API server, with small limits; tests change what they look at. */
export function kubernetesEngineFor(fake: FakeKubernetes, overrides: Partial<KubernetesEngineOptions> = {}) {
  return createKubernetesEngine({
    kubeConfig: kubeConfigForServer(fake.url, { token: 'orchestrator-token' }),
    namespace: 'exam-workspaces',
    instance: 'test',
    memoryMb: 512,
    cpus: 1,
    tmpMb: 64,
    imagePullPolicy: 'IfNotPresent',
    volumeSize: '2Gi',
    storageClass: 'fast',
    readyTimeoutMs: 5000,
    ...overrides,
  });
}
