import { Ingress, NetworkPolicy, type INetworkPolicyPeer } from 'kubernetes-models/networking.k8s.io/v1';
import type { DeployOptions } from './options.ts';
import {
  type ComponentName,
  INTERNAL_CALLS,
  portOf,
  proxiedServices,
  SERVICES,
  WEB_APPS,
  WORKSPACE_PORT,
} from './topology.ts';
import { MIGRATION_LABELS } from './migrations.ts';
import { selectorOf } from './workloads.ts';

/**
 * Three hosts: each app on its own, and the editors on an origin of their own (ARCHITECTURE.md, "The
 * system"). /api is not routed here: each web server proxies it by the one table in
 * packages/domain/src/service-routes.ts, so the ingress needs no copy of it.
 */
export function ingressOf(opts: DeployOptions) {
  const rule = (host: string, service: string, port: string) => ({
    host,
    http: {
      paths: [
        { path: '/', pathType: 'Prefix' as const, backend: { service: { name: service, port: { name: port } } } },
      ],
    },
  });
  return new Ingress({
    metadata: {
      name: 'exam',
      namespace: opts.namespace,
      labels: { 'app.kubernetes.io/part-of': 'exam-platform' },
      // The assistant streams replies as server-sent events for minutes; the editor holds a WebSocket.
      annotations: {
        'nginx.ingress.kubernetes.io/proxy-read-timeout': '3600',
        'nginx.ingress.kubernetes.io/proxy-send-timeout': '3600',
        'nginx.ingress.kubernetes.io/proxy-buffering': 'off',
        'nginx.ingress.kubernetes.io/proxy-body-size': '64m',
      },
    },
    spec: {
      ingressClassName: opts.ingressClassName,
      tls: [{ hosts: [opts.creatorHost, opts.takerHost, opts.workspaceHost], secretName: opts.tlsSecretName }],
      rules: [
        rule(opts.creatorHost, 'creator-web', 'http'),
        rule(opts.takerHost, 'taker-web', 'http'),
        rule(opts.workspaceHost, 'workspace-orchestrator', 'workspace'),
      ],
    },
  });
}

const tcp = (port: number) => ({ protocol: 'TCP' as const, port });
const pods = (component: ComponentName): INetworkPolicyPeer => ({
  podSelector: { matchLabels: selectorOf(component) },
});
const namespace = (name: string): INetworkPolicyPeer => ({
  namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': name } },
});

function policy(name: string, opts: DeployOptions, spec: NetworkPolicy['spec']) {
  return new NetworkPolicy({
    metadata: { name, namespace: opts.namespace, labels: { 'app.kubernetes.io/part-of': 'exam-platform' } },
    spec,
  });
}

/** Who may open a connection to a component, on its own port(s). */
function callersOf(component: ComponentName, opts: DeployOptions): Array<{ from: INetworkPolicyPeer[]; port: number }> {
  const rules: Array<{ from: INetworkPolicyPeer[]; port: number }> = [];
  if ((WEB_APPS as readonly string[]).includes(component)) {
    rules.push({ from: [namespace(opts.ingressNamespace)], port: portOf(component) });
    return rules;
  }
  const callers: ComponentName[] = [
    ...WEB_APPS.filter(() => proxiedServices().includes(component as never)),
    ...SERVICES.filter((caller) => INTERNAL_CALLS[caller].includes(component as never)),
  ];
  if (callers.length) rules.push({ from: callers.map(pods), port: portOf(component) });
  // Prometheus scrapes /metrics on the service port (ARCHITECTURE.md, "Observability").
  rules.push({ from: [namespace(opts.monitoringNamespace)], port: portOf(component) });
  if (component === 'workspace-orchestrator')
    rules.push({ from: [namespace(opts.ingressNamespace)], port: WORKSPACE_PORT });
  // A workspace's coding agent calls the gateway's agent endpoint (/api/agent/v1) with its workspace token; the
  // gateway accepts that token nowhere else (docs/product.md#ai-in-the-workspace).
  if (component === 'llm-gateway') rules.push({ from: [namespace(opts.workspacesNamespace)], port: portOf(component) });
  return rules;
}

/** Where a component may open connections, besides DNS (allowed to every pod by its own policy). */
function calleesOf(component: ComponentName, opts: DeployOptions): NonNullable<NetworkPolicy['spec']>['egress'] {
  if ((WEB_APPS as readonly string[]).includes(component))
    return proxiedServices().map((s) => ({ to: [pods(s)], ports: [tcp(portOf(s))] }));
  const service = component as (typeof SERVICES)[number];
  const egress: NonNullable<NetworkPolicy['spec']>['egress'] = [
    ...INTERNAL_CALLS[service].map((s) => ({ to: [pods(s)], ports: [tcp(portOf(s))] })),
    { to: [{ ipBlock: { cidr: opts.dataCidr } }], ports: [tcp(5432), tcp(6379)] },
  ];
  // The providers (and a creator's own OpenAI-compatible endpoint) are outside the cluster, over HTTPS.
  if (service === 'llm-gateway') egress.push({ ports: [tcp(443)] });
  // Mail goes out over SMTP submission (SMTP_URL, packages/server-kit/src/mail.ts).
  if (service === 'exam-service') egress.push({ ports: [tcp(587), tcp(465)] });
  if (service === 'workspace-orchestrator') {
    // The Kubernetes API server (its in-cluster Service is 443; many control planes listen on 6443) and the
    // workspace pods it starts, proxies to and collects from.
    egress.push({ ports: [tcp(443), tcp(6443)] });
    egress.push({ to: [namespace(opts.workspacesNamespace)] });
  }
  return egress;
}

export function networkPoliciesOf(opts: DeployOptions) {
  const components: ComponentName[] = [...SERVICES, ...WEB_APPS];
  return [
    // Nothing in or out unless a policy below allows it.
    policy('default-deny', opts, { podSelector: {}, policyTypes: ['Ingress', 'Egress'] }),
    policy('allow-dns', opts, {
      podSelector: {},
      policyTypes: ['Egress'],
      egress: [
        {
          to: [namespace('kube-system')],
          ports: [{ protocol: 'UDP', port: 53 }, tcp(53)],
        },
      ],
    }),
    // Migration Jobs reach the database and nothing else.
    policy('migrations', opts, {
      podSelector: { matchLabels: MIGRATION_LABELS },
      policyTypes: ['Ingress', 'Egress'],
      egress: [{ to: [{ ipBlock: { cidr: opts.dataCidr } }], ports: [tcp(5432)] }],
    }),
    ...components.map((component) =>
      policy(component, opts, {
        podSelector: { matchLabels: selectorOf(component) },
        policyTypes: ['Ingress', 'Egress'],
        ingress: callersOf(component, opts).map(({ from, port }) => ({ from, ports: [tcp(port)] })),
        egress: calleesOf(component, opts),
      }),
    ),
  ];
}

/**
 * The workspaces' namespace denies everything but the orchestrator's connections; each workspace's own
 * egress rule is a NetworkPolicy the orchestrator's engine creates beside the pod.
 */
export function workspacePoliciesOf(opts: DeployOptions) {
  return [
    new NetworkPolicy({
      metadata: { name: 'default-deny', namespace: opts.workspacesNamespace },
      spec: { podSelector: {}, policyTypes: ['Ingress', 'Egress'] },
    }),
    // Every workspace pod may reach llm-gateway's pods on the gateway's port, by the Service address the
    // orchestrator writes into the pod as exam-ai (no DNS): its agent's one way to a model. Nothing else is new.
    new NetworkPolicy({
      metadata: { name: 'to-llm-gateway', namespace: opts.workspacesNamespace },
      spec: {
        podSelector: {},
        policyTypes: ['Egress'],
        egress: [
          { to: [{ ...namespace(opts.namespace), ...pods('llm-gateway') }], ports: [tcp(portOf('llm-gateway'))] },
        ],
      },
    }),
    new NetworkPolicy({
      metadata: { name: 'from-orchestrator', namespace: opts.workspacesNamespace },
      spec: {
        podSelector: {},
        policyTypes: ['Ingress'],
        ingress: [{ from: [{ ...namespace(opts.namespace), ...pods('workspace-orchestrator') }] }],
      },
    }),
  ];
}

/**
 * The label every runner pod carries (services/workspace-orchestrator/src/engine/runner-engine.ts RUNNER_LABEL) and
 * the policy that selects it (kubernetes-runner-pod.ts RUNNER_DENY_POLICY: the engine refuses runs without it).
 * The orchestrator's tests read these generated manifests back to keep both sides the same.
 */
export const RUNNER_LABEL = 'exam.runner';
export const RUNNER_DENY_POLICY = 'runner-deny-all';

/**
 * The runners' namespace: a runner pod has no network at all, as the Docker engine's NetworkMode none. Its policy
 * names both directions and allows nothing (not even DNS); the namespace's default-deny covers any other pod put
 * there. The orchestrator reaches the pods only through the API server (attach, log), never over the pod network.
 */
export function runnerPoliciesOf(opts: DeployOptions) {
  return [
    new NetworkPolicy({
      metadata: { name: 'default-deny', namespace: opts.runnersNamespace },
      spec: { podSelector: {}, policyTypes: ['Ingress', 'Egress'] },
    }),
    new NetworkPolicy({
      metadata: { name: RUNNER_DENY_POLICY, namespace: opts.runnersNamespace },
      spec: {
        podSelector: { matchLabels: { [RUNNER_LABEL]: 'true' } },
        policyTypes: ['Ingress', 'Egress'],
        ingress: [],
        egress: [],
      },
    }),
  ];
}
