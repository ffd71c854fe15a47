import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1Container, V1NetworkPolicyEgressRule, V1Volume } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { workspaceEngines } from '../deps.ts';
import { testConfig } from '../testing/app.ts';
import { startFakeKubernetes, type FakeKubernetes } from '../testing/fake-kubernetes.ts';
import { entry, kubernetesEngineFor, specOf } from '../testing/kubernetes.ts';
import { createAgentRelay } from './egress/agent-relay.ts';
import { createRegistryProxy } from './egress/registry-proxy.ts';
import { editorPasswordHash, LABELS, type WorkspaceEngine } from './engine.ts';
import { kubeConfigForServer } from './kubernetes-client.ts';
import type { KubernetesEngineOptions } from './kubernetes-engine.ts';
import { objectName } from './kubernetes-objects.ts';

const ID = 'a'.repeat(32);
const NAME = `exam-ws-${ID}`;

let fake: FakeKubernetes;
let engine: WorkspaceEngine;
const engineOf = (overrides: Partial<KubernetesEngineOptions> = {}) => kubernetesEngineFor(fake, overrides);

beforeEach(async () => {
  fake = await startFakeKubernetes({ readyAfterMs: 150 });
  engine = engineOf();
});
afterEach(async () => {
  await engine.close();
  await fake.close();
});

describe('Kubernetes engine start', () => {
  it("names llm-gateway's Service address exam-ai in every pod, and gives agents its agent endpoint by that name", async () => {
    const agents = engineOf({ agentGatewayUrl: 'http://10.96.0.42:4003' });
    try {
      await agents.start(specOf(ID));
      const [pod] = fake.created('pods');
      expect(pod!.spec!.hostAliases).toEqual([{ ip: '10.96.0.42', hostnames: ['exam-ai'] }]);
      expect(await agents.agentBaseUrl?.('none')).toBe('http://exam-ai:4003/api/agent');
      expect(await engine.agentBaseUrl?.('none')).toBeUndefined();
    } finally {
      await agents.close();
    }
  });

  it('creates the claim, egress policy, Service and a locked-down pod, and answers the Service address once Ready', async () => {
    const started = await engine.start(specOf(ID));

    expect(started).toEqual({ handle: NAME, target: `${NAME}.exam-workspaces.svc:8080` });
    expect(fake.get('pods', NAME)!.status!.conditions).toContainEqual(
      expect.objectContaining({ type: 'Ready', status: 'True' }),
    );
    const [claim] = fake.created('persistentvolumeclaims');
    expect(claim).toMatchObject({
      metadata: { name: NAME, labels: { [LABELS.managed]: 'true', [LABELS.instance]: 'test', [LABELS.sessionId]: ID } },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '2Gi' } }, storageClassName: 'fast' },
    });

    const [pod] = fake.created('pods');
    expect(pod!.spec).toMatchObject({
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      restartPolicy: 'Never',
      securityContext: {
        runAsNonRoot: true,
        runAsUser: 1000,
        runAsGroup: 1000,
        fsGroup: 1000,
        seccompProfile: { type: 'RuntimeDefault' },
      },
      volumes: [
        { name: 'workspace', persistentVolumeClaim: { claimName: NAME } },
        { name: 'tmp', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } },
      ],
    });
    const [container] = pod!.spec!.containers as V1Container[];
    expect(container).toMatchObject({
      image: 'exam/workspace-vscode',
      imagePullPolicy: 'IfNotPresent',
      args: entry.command,
      env: [{ name: 'HASHED_PASSWORD', value: editorPasswordHash('per-session-password') }],
      securityContext: {
        runAsNonRoot: true,
        privileged: false,
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      },
      resources: { limits: { memory: '512Mi', cpu: '1000m' }, requests: { memory: '512Mi', cpu: '250m' } },
      readinessProbe: { tcpSocket: { port: 8080 } },
      volumeMounts: [
        { name: 'workspace', mountPath: '/home/coder/workspace' },
        { name: 'tmp', mountPath: '/tmp' },
      ],
    });
    expect(JSON.stringify(pod)).not.toContain('per-session-password');
    expect(pod!.metadata.labels).toMatchObject({
      [LABELS.managed]: 'true',
      [LABELS.instance]: 'test',
      [LABELS.sessionId]: ID,
      [LABELS.workspaceType]: 'vscode',
      [LABELS.attemptId]: 'attempt-1',
    });

    const [service] = fake.created('services');
    expect(service!.spec).toEqual({
      type: 'ClusterIP',
      selector: { [LABELS.managed]: 'true', [LABELS.instance]: 'test', [LABELS.sessionId]: ID },
      ports: [{ name: 'editor', port: 8080, targetPort: 8080, protocol: 'TCP' }],
    });
    expect(fake.created('networkpolicies')[0]!.spec).toEqual({
      podSelector: { matchLabels: { [LABELS.managed]: 'true', [LABELS.instance]: 'test', [LABELS.sessionId]: ID } },
      policyTypes: ['Egress'],
      egress: [],
    });
    expect(fake.requests.every((r) => r.path.includes('/exec') || r.token === 'orchestrator-token')).toBe(true);
  });

  it('waits for Ready through a watch on the pod, from the version it was created at', async () => {
    await engine.start(specOf(ID));
    const created = fake.requests.find((r) => r.method === 'POST' && r.path.endsWith('/pods'))!;
    const watch = fake.requests.find((r) => r.query.get('watch') === 'true')!;
    expect(created).toBeDefined();
    expect(watch.path).toBe('/api/v1/namespaces/exam-workspaces/pods');
    expect(watch.query.get('fieldSelector')).toBe(`metadata.name=${NAME}`);
    expect(Number(watch.query.get('resourceVersion'))).toBeGreaterThan(0);
    // No polling: one watch, no GET of the pod.
    expect(fake.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/pods/${NAME}`))).toEqual([]);
  });

  it('opens the watch again from the last version seen when the server ends it, and misses no change', async () => {
    fake.state.podBehaviour = () => 'never-ready';
    const starting = engine.start(specOf(ID));
    await vi.waitFor(() => expect(fake.watchCount()).toBe(1));
    fake.dropWatches();
    // The pod turns Ready while no watch is open: the next watch replays it from the version it resumes at.
    fake.modify('pods', NAME, (pod) => {
      pod.status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
    });
    await expect(starting).resolves.toMatchObject({ handle: NAME });
    const watches = fake.requests.filter((r) => r.query.get('watch') === 'true');
    expect(watches.length).toBeGreaterThanOrEqual(2);
    expect(watches[1]!.query.get('resourceVersion')).toBe(watches[0]!.query.get('resourceVersion'));
  });

  it('reads the pod and watches from its version when the one it had is too old (410 Expired)', async () => {
    fake.state.expireNextWatch = true;
    fake.state.podBehaviour = () => 'never-ready';
    const starting = engine.start(specOf(ID));
    await vi.waitFor(() => expect(fake.requests.filter((r) => r.query.get('watch') === 'true')).toHaveLength(2));
    fake.modify('pods', NAME, (pod) => {
      pod.status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
    });
    await expect(starting).resolves.toMatchObject({ handle: NAME });
    const watches = fake.requests.filter((r) => r.query.get('watch') === 'true');
    const read = fake.requests.findIndex((r) => r.method === 'GET' && r.path.endsWith(`/pods/${NAME}`));
    expect(read).toBeGreaterThan(fake.requests.indexOf(watches[0]!));
    expect(watches).toHaveLength(2);
    expect(Number(watches[1]!.query.get('resourceVersion'))).toBeGreaterThanOrEqual(
      Number(watches[0]!.query.get('resourceVersion')),
    );
  });

  it('fails when the pod is never Ready, and removes the pod, Service and policy but keeps the claim', async () => {
    fake.state.podBehaviour = () => 'never-ready';
    engine = engineOf({ readyTimeoutMs: 600 });
    await expect(engine.start(specOf(ID))).rejects.toThrow(
      /was not Ready within 1 s \(it was still ContainerCreating\)/,
    );
    expect(fake.names('pods')).toEqual([]);
    expect(fake.names('services')).toEqual([]);
    expect(fake.names('networkpolicies')).toEqual([]);
    expect(fake.names('persistentvolumeclaims')).toEqual([NAME]);
  });

  it('fails at once with the reason when the image cannot be pulled', async () => {
    fake.state.podBehaviour = () => 'image-pull-error';
    const started = Date.now();
    await expect(engine.start(specOf(ID))).rejects.toThrow(/cannot start: ErrImagePull: .*exam\/workspace-vscode/);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(fake.names('pods')).toEqual([]);
  });

  it('allows DNS and ports 443 and 80 to public addresses only when the exam allows registries', async () => {
    await engine.start(specOf(ID, { egress: 'registries' }));
    const [policy] = fake.created('networkpolicies');
    const [dns, web] = policy!.spec!.egress as V1NetworkPolicyEgressRule[];
    expect(dns!.ports).toEqual([
      { protocol: 'UDP', port: 53 },
      { protocol: 'TCP', port: 53 },
    ]);
    expect(web!.ports).toEqual([
      { protocol: 'TCP', port: 443 },
      { protocol: 'TCP', port: 80 },
    ]);
    expect(web!.to![0]!.ipBlock).toEqual({
      cidr: '0.0.0.0/0',
      except: expect.arrayContaining(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16']),
    });
  });

  it("reuses the attempt's claim when it already exists (AlreadyExists) and replaces a pod left from an earlier start", async () => {
    const first = await engine.start(specOf(ID));
    const firstUid = fake.get('pods', NAME)!.metadata.uid;
    // A second start of the same session (its first pod still there) and a later session on the same volume.
    await engine.start(specOf(ID));
    expect(fake.get('pods', NAME)!.metadata.uid).not.toBe(firstUid);
    const later = 'b'.repeat(32);
    await engine.start(specOf(later, { volume: { name: first.handle, labels: { [LABELS.sessionId]: ID } } }));
    expect(fake.names('persistentvolumeclaims')).toEqual([NAME]);
    expect(fake.created('persistentvolumeclaims')).toHaveLength(3);
    expect((fake.get('pods', `exam-ws-${later}`)!.spec!.volumes as V1Volume[])[0]).toEqual({
      name: 'workspace',
      persistentVolumeClaim: { claimName: NAME },
    });
  });
});

describe('Kubernetes engine bookkeeping', () => {
  it('lists its pods by label with the labels it was given, even those Kubernetes cannot hold as labels', async () => {
    await engine.start(specOf(ID));
    const other = engineOf({ instance: 'other' });
    expect(await other.list()).toEqual([]);
    const [listed] = await engine.list();
    expect(listed).toMatchObject({ id: ID, handle: NAME, running: true });
    expect(listed!.labels[LABELS.ownerId]).toBe('ana@example.com');
    // '@' is not allowed in a label value: the pod holds it in an annotation only.
    expect(fake.get('pods', NAME)!.metadata.labels![LABELS.ownerId]).toBeUndefined();
    expect(
      fake.requests
        .filter((r) => r.method === 'GET' && r.path.endsWith('/pods') && !r.query.has('watch'))
        .at(-1)!
        .query.get('labelSelector'),
    ).toBe(`${LABELS.managed}=true,${LABELS.instance}=test`);
  });

  it('removes the pod, Service and policy but keeps the claim; removeVolume deletes the claim', async () => {
    await engine.start(specOf(ID));
    expect(await engine.isRunning(NAME)).toBe(true);
    await engine.remove(NAME);
    expect(await engine.isRunning(NAME)).toBe(false);
    expect(fake.names('pods')).toEqual([]);
    expect(fake.names('services')).toEqual([]);
    expect(fake.names('networkpolicies')).toEqual([]);
    expect(await engine.listVolumes()).toEqual([NAME]);
    await engine.remove(NAME);
    await engine.removeVolume(NAME);
    await engine.removeVolume(NAME);
    expect(await engine.listVolumes()).toEqual([]);
  });

  it('names the cluster by the uid of its namespace, unless a host id is configured', async () => {
    const uid = fake.get('configmaps', 'kube-root-ca.crt')!.metadata.uid;
    expect(await engine.hostId()).toBe(`kubernetes:${uid}`);
    expect(await engineOf({ hostId: 'cluster-eu-1' }).hostId()).toBe('cluster-eu-1');
  });

  it('says the API refused it when the service account lacks the rights', async () => {
    expect(await engine.unavailableReason()).toBeUndefined();
    fake.state.forbidden = true;
    const fresh = engineOf();
    expect((await fresh.unavailableReason())?.kind).toBe('engine-refused');
    expect((await fresh.unavailableReason())?.detail).toMatch(
      /^the Kubernetes API refused the orchestrator in the namespace exam-workspaces \(403: pods is forbidden: User "system:serviceaccount:exam:workspace-orchestrator" cannot list/,
    );
    await expect(fresh.start(specOf(ID))).rejects.toThrow();
  });

  it('says the API is not reachable when nothing answers', async () => {
    const url = fake.url;
    await fake.close();
    const unreachable = engineOf({ kubeConfig: kubeConfigForServer(url) });
    expect(await unreachable.unavailableReason()).toEqual({
      kind: 'engine-unreachable',
      detail: expect.stringMatching(/^the Kubernetes API is not reachable \(.+\)$/),
    });
    fake = await startFakeKubernetes();
  });

  it('refuses an instance name that cannot be a label value, since every selector uses it', () => {
    expect(() => engineOf({ instance: 'ends-with-dash-' })).toThrow(/WORKSPACE_INSTANCE "ends-with-dash-"/);
    expect(() => engineOf({ instance: 'x'.repeat(64) })).toThrow(/WORKSPACE_INSTANCE/);
  });

  it('derives valid names from ids Kubernetes would refuse, distinct for distinct ids', () => {
    const names = ['Exam_WS.1', 'exam-ws-1', '9abc', '-', 'x'.repeat(80), 'x'.repeat(81)].map(objectName);
    for (const name of names) expect(name).toMatch(/^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/);
    expect(new Set(names).size).toBe(names.length);
    expect(objectName(NAME)).toBe(NAME);
  });
});

describe('WORKSPACE_ENGINE=kubernetes', () => {
  it('runs workspaces only on the cluster its kubeconfig names (no local fallback)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubeconfig-'));
    const path = join(dir, 'config');
    writeFileSync(
      path,
      [
        'apiVersion: v1',
        'kind: Config',
        `clusters: [{name: fake, cluster: {server: "${fake.url}", insecure-skip-tls-verify: true}}]`,
        'users: [{name: orchestrator, user: {token: from-file}}]',
        'contexts: [{name: fake, context: {cluster: fake, user: orchestrator}}]',
        'current-context: fake',
      ].join('\n'),
    );
    const config = testConfig({ WORKSPACE_ENGINE: 'kubernetes', KUBECONFIG: path, CODE_SERVER_BIN: '/bin/true' });
    const engines = await workspaceEngines(
      config,
      createRegistryProxy({ allowed: [] }),
      createAgentRelay({ gatewayUrl: config.LLM_GATEWAY_URL }),
    );
    expect(engines.map((e) => e.kind)).toEqual(['kubernetes']);
    expect(await engines[0]!.unavailableReason()).toBeUndefined();
    expect(fake.requests.at(-1)!.token).toBe('from-file');
  });
});
