import { ConfigMap, Namespace } from 'kubernetes-models/v1';
import { CONFIG_MAP_NAME, type DeployOptions } from './options.ts';
import { portOf, SERVICES, WORKSPACE_PORT } from './topology.ts';

export function namespacesOf(opts: DeployOptions) {
  // Pod Security Admission: "restricted" is what every Deployment here already satisfies (non-root, no
  // escalation, ALL capabilities dropped, RuntimeDefault seccomp).
  const restricted = {
    'pod-security.kubernetes.io/enforce': 'restricted',
    'pod-security.kubernetes.io/warn': 'restricted',
  };
  return [
    new Namespace({ metadata: { name: opts.namespace, labels: restricted } }),
    new Namespace({ metadata: { name: opts.workspacesNamespace, labels: restricted } }),
    new Namespace({ metadata: { name: opts.runnersNamespace, labels: restricted } }),
  ];
}

/**
 * Settings every pod shares (services read them through packages/server-kit/src/config.ts, the web servers
 * through packages/web-config). Secrets are not here: they come from the Secret (options.ts, SECRET_KEYS).
 */
export function configMapOf(opts: DeployOptions) {
  const serviceUrls = Object.fromEntries(
    SERVICES.map((s) => [
      `${s.toUpperCase().replace(/-/g, '_')}_URL`,
      `http://${s}.${opts.namespace}.svc:${portOf(s)}`,
    ]),
  );
  return new ConfigMap({
    metadata: {
      name: CONFIG_MAP_NAME,
      namespace: opts.namespace,
      labels: { 'app.kubernetes.io/part-of': 'exam-platform' },
    },
    data: {
      HOST: '0.0.0.0',
      WEB_HOST: '0.0.0.0',
      WORKSPACE_PORT: String(WORKSPACE_PORT),
      LOG_LEVEL: 'info',
      // Refuse to start on secrets generated per data folder: every replica must share the Secret's
      // (NODE_ENV=production implies it too, and the images set it).
      NODE_ENV: 'production',
      REQUIRE_EXPLICIT_SECRETS: 'true',
      CREATOR_ORIGIN: `https://${opts.creatorHost}`,
      TAKER_ORIGIN: `https://${opts.takerHost}`,
      WORKSPACE_ORIGIN: `https://${opts.workspaceHost}`,
      WEB_HTTPS: 'true',
      // The ingress controller and the web servers run on pod addresses, all in the private ranges.
      TRUSTED_PROXIES: 'uniquelocal',
      // PGlite and generated secrets are never used with DATABASE_URL and the Secret set; the root is read-only.
      DATA_DIR: '/tmp/data',
      // The orchestrator runs workspaces as pods (services/workspace-orchestrator/src/engine/kubernetes-engine.ts)
      // through its service account (rbac.ts), pulling images as the Deployments do.
      WORKSPACE_ENGINE: 'kubernetes',
      WORKSPACE_NAMESPACE: opts.workspacesNamespace,
      WORKSPACE_VOLUME_SIZE: opts.workspaceVolumeSize,
      ...(opts.workspaceStorageClass ? { WORKSPACE_STORAGE_CLASS: opts.workspaceStorageClass } : {}),
      // The same engine runs code: one pod per run in its own namespace (engine/kubernetes-runner-engine.ts).
      RUNNER_NAMESPACE: opts.runnersNamespace,
      ...(opts.runnerRuntimeClass ? { RUNNER_RUNTIME_CLASS: opts.runnerRuntimeClass } : {}),
      ...serviceUrls,
    },
  });
}
