import type { ComponentName } from './topology.ts';

/** Everything a site changes between clusters. `pnpm generate` writes the defaults; see docs/deploy.md. */
export type DeployOptions = {
  namespace: string;
  /** Where the orchestrator's Kubernetes engine creates workspace pods, claims and policies. */
  workspacesNamespace: string;
  /** The StorageClass of the attempts' claims (WORKSPACE_STORAGE_CLASS); undefined, the cluster's default. */
  workspaceStorageClass?: string;
  /** Each attempt's claim (WORKSPACE_VOLUME_SIZE). */
  workspaceVolumeSize: string;
  /** Where the orchestrator's Kubernetes runner engine creates one pod per code run (RUNNER_NAMESPACE). */
  runnersNamespace: string;
  /**
   * The RuntimeClass of runner pods (RUNNER_RUNTIME_CLASS): gVisor's (`runsc`, commonly named `gvisor`) where the
   * cluster's nodes have it, so a candidate's code meets a user-space kernel rather than the node's.
   */
  runnerRuntimeClass?: string;
  creatorHost: string;
  takerHost: string;
  /** The editors' own origin: never the apps' origin, but same-site with the taker's (docs/configuration.md, WORKSPACE_ORIGIN). */
  workspaceHost: string;
  ingressClassName: string;
  /** The TLS certificate Secret for the three hosts (made by cert-manager or by hand). */
  tlsSecretName: string;
  /** Namespace of the ingress controller, whose pods may reach the web servers and the editor listener. */
  ingressNamespace: string;
  /** Namespace of the Prometheus that scrapes /metrics. */
  monitoringNamespace: string;
  /** Where PostgreSQL and Redis live (a CIDR); egress to 5432 and 6379 is allowed there only. */
  dataCidr: string;
  /** Image names as scripts/build-images.sh tags them; a private registry prefix goes here. */
  imagePrefix: string;
  imageTag: string;
  replicas: Record<ComponentName, number>;
  maxReplicas: number;
  /** The HorizontalPodAutoscaler's target: average CPU use as a share of the request. */
  cpuTargetPercent: number;
};

export const DEFAULT_OPTIONS: DeployOptions = {
  namespace: 'exam',
  workspacesNamespace: 'exam-workspaces',
  workspaceVolumeSize: '2Gi',
  runnersNamespace: 'exam-runners',
  creatorHost: 'creator.domain',
  takerHost: 'exam.domain',
  workspaceHost: 'workspace.exam.domain',
  ingressClassName: 'nginx',
  tlsSecretName: 'exam-tls',
  ingressNamespace: 'ingress-nginx',
  monitoringNamespace: 'monitoring',
  dataCidr: '10.0.0.0/8',
  imagePrefix: 'exam/',
  imageTag: 'latest',
  replicas: {
    'exam-service': 2,
    'results-service': 2,
    'llm-gateway': 2,
    'workspace-orchestrator': 2,
    'creator-web': 2,
    'taker-web': 2,
  },
  maxReplicas: 10,
  cpuTargetPercent: 70,
};

/** The names of the shared settings objects every pod takes its environment from. */
export const CONFIG_MAP_NAME = 'exam-config';
export const SECRET_NAME = 'exam-secrets';
/** Keys the Secret must hold (docs/deploy.md shows the kubectl line that makes it). */
export const SECRET_KEYS = [
  'DATABASE_URL',
  'REDIS_URL',
  'JWT_SECRET',
  'INTERNAL_TOKEN',
  'ENCRYPTION_KEY',
  'METRICS_TOKEN',
] as const;
