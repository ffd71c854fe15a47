import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Container, type IContainer, type IPodSpec, Service } from 'kubernetes-models/v1';
import { CONFIG_MAP_NAME, type DeployOptions, SECRET_NAME } from './options.ts';
import { type ComponentName, portOf, SERVICES, type ServiceName, WORKSPACE_PORT } from './topology.ts';

export function isService(component: ComponentName): component is ServiceName {
  return (SERVICES as readonly string[]).includes(component);
}

/** The labels a component's pods carry; Services, policies and budgets select by them. */
export function labelsOf(component: ComponentName): Record<string, string> {
  return {
    'app.kubernetes.io/name': component,
    'app.kubernetes.io/part-of': 'exam-platform',
    'app.kubernetes.io/component': isService(component) ? 'service' : 'web',
  };
}

export const selectorOf = (component: ComponentName) => ({ 'app.kubernetes.io/name': component });

export const imageOf = (component: ComponentName, opts: DeployOptions) =>
  `${opts.imagePrefix}${component}:${opts.imageTag}`;

/**
 * Requests size the scheduler's bet and the autoscaler's 100 %; limits stop one replica starving the node.
 * The services hold a database pool and stream chats; the web servers only proxy and serve files.
 */
const RESOURCES = {
  service: { requests: { cpu: '100m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } },
  web: { requests: { cpu: '50m', memory: '96Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
};

/** The lockdown every container runs under; the image's user is 10001 (infra/images). */
const CONTAINER_SECURITY = {
  runAsNonRoot: true,
  readOnlyRootFilesystem: true,
  allowPrivilegeEscalation: false,
  capabilities: { drop: ['ALL'] },
};
const POD_SECURITY = {
  runAsNonRoot: true,
  runAsUser: 10001,
  runAsGroup: 10001,
  fsGroup: 10001,
  seccompProfile: { type: 'RuntimeDefault' as const },
};

/** One container, shared by the Deployment and (for services) the migration Job. */
export function containerOf(
  component: ComponentName,
  opts: DeployOptions,
  { env, ...extra }: Partial<IContainer> = {},
) {
  const port = portOf(component);
  const ports = [{ name: 'http', containerPort: port, protocol: 'TCP' as const }];
  if (component === 'workspace-orchestrator')
    ports.push({ name: 'workspace', containerPort: WORKSPACE_PORT, protocol: 'TCP' });
  return new Container({
    name: component,
    image: imageOf(component, opts),
    // Images are built on each node's engine or loaded into it (scripts/build-images.sh); no registry is assumed.
    imagePullPolicy: 'IfNotPresent',
    ports,
    envFrom: [{ configMapRef: { name: CONFIG_MAP_NAME } }, { secretRef: { name: SECRET_NAME } }],
    // Every container gets the shutdown timing; the caller's env (MIGRATE_ON_START) comes on top.
    env: [...(isService(component) ? [{ name: 'PORT', value: String(port) }] : []), ...SHUTDOWN_ENV, ...(env ?? [])],
    resources: isService(component) ? RESOURCES.service : RESOURCES.web,
    securityContext: CONTAINER_SECURITY,
    // The root filesystem is read-only; uploads in flight and Node's own temporary files go here.
    volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
    ...extra,
  });
}

/**
 * Graceful shutdown (ARCHITECTURE.md, "Graceful shutdown"): a terminating pod leaves its Service's endpoints at
 * once, but kube-proxy and the ingress learn it a moment later; on SIGTERM /ready turns 503 (for any other load
 * balancer) and the replica serves on for SHUTDOWN_DELAY_MS while they catch up, then lets requests and streams in flight run for up to
 * SHUTDOWN_DRAIN_MS. Delay + drain + the last second for streams + 5 s for closing must stay under
 * TERMINATION_GRACE_SECONDS, or the kubelet's SIGKILL cuts the drain short.
 */
const SHUTDOWN_DELAY_MS = 5_000;
const SHUTDOWN_DRAIN_MS = 45_000;
const TERMINATION_GRACE_SECONDS = 60;
const SHUTDOWN_ENV = [
  { name: 'SHUTDOWN_DELAY_MS', value: String(SHUTDOWN_DELAY_MS) },
  { name: 'SHUTDOWN_DRAIN_MS', value: String(SHUTDOWN_DRAIN_MS) },
];

export function podSpecOf(component: ComponentName, containers: IContainer[]): IPodSpec {
  return {
    // Only the orchestrator talks to the Kubernetes API (rbac.ts); no other pod gets a token.
    serviceAccountName: component === 'workspace-orchestrator' ? 'workspace-orchestrator' : undefined,
    automountServiceAccountToken: component === 'workspace-orchestrator',
    securityContext: POD_SECURITY,
    containers,
    volumes: [{ name: 'tmp', emptyDir: { sizeLimit: '256Mi' } }],
  };
}

/**
 * `migratedByJob`: the service's migration Job (migrations.ts) applies its migrations, so its replicas start
 * with MIGRATE_ON_START=false and stay unready (503 naming the pending migrations) until the Job has run;
 * with maxUnavailable 0 the previous replicas keep serving meanwhile.
 */
export function deploymentOf(component: ComponentName, opts: DeployOptions, migratedByJob = false) {
  const env = migratedByJob ? [{ name: 'MIGRATE_ON_START', value: 'false' }] : [];
  const container = containerOf(component, opts, {
    env,
    // /health answers while the process runs, /ready while its database (and Redis) answer and its schema
    // is current (packages/server-kit/src/plugins/health.ts). A service without a migration Job applies its
    // migrations before it listens, so the startup probe gives that time before liveness starts counting.
    startupProbe: { httpGet: { path: '/health', port: 'http' }, periodSeconds: 2, failureThreshold: 60 },
    livenessProbe: { httpGet: { path: '/health', port: 'http' }, periodSeconds: 10, failureThreshold: 3 },
    readinessProbe: { httpGet: { path: '/ready', port: 'http' }, periodSeconds: 5, failureThreshold: 2 },
  });
  return new Deployment({
    metadata: { name: component, namespace: opts.namespace, labels: labelsOf(component) },
    spec: {
      replicas: opts.replicas[component],
      selector: { matchLabels: selectorOf(component) },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } },
      template: {
        metadata: { labels: labelsOf(component) },
        spec: {
          ...podSpecOf(component, [container]),
          // On SIGTERM a replica stops taking requests and drains its streams before it exits (SHUTDOWN_ENV above).
          terminationGracePeriodSeconds: TERMINATION_GRACE_SECONDS,
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: 'kubernetes.io/hostname',
              whenUnsatisfiable: 'ScheduleAnyway',
              labelSelector: { matchLabels: selectorOf(component) },
            },
          ],
        },
      },
    },
  });
}

export function serviceOf(component: ComponentName, opts: DeployOptions) {
  const ports = [{ name: 'http', port: portOf(component), targetPort: 'http', protocol: 'TCP' as const }];
  if (component === 'workspace-orchestrator')
    ports.push({ name: 'workspace', port: WORKSPACE_PORT, targetPort: 'workspace', protocol: 'TCP' });
  return new Service({
    metadata: { name: component, namespace: opts.namespace, labels: labelsOf(component) },
    spec: { type: 'ClusterIP', selector: selectorOf(component), ports },
  });
}

export function autoscalerOf(component: ComponentName, opts: DeployOptions) {
  return new HorizontalPodAutoscaler({
    metadata: { name: component, namespace: opts.namespace, labels: labelsOf(component) },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: component },
      minReplicas: opts.replicas[component],
      maxReplicas: Math.max(opts.maxReplicas, opts.replicas[component]),
      metrics: [
        {
          type: 'Resource',
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: opts.cpuTargetPercent } },
        },
      ],
    },
  });
}

/** A drain or node upgrade takes one replica at a time, so every component keeps answering. */
export function disruptionBudgetOf(component: ComponentName, opts: DeployOptions) {
  return new PodDisruptionBudget({
    metadata: { name: component, namespace: opts.namespace, labels: labelsOf(component) },
    spec: { maxUnavailable: 1, selector: { matchLabels: selectorOf(component) } },
  });
}
