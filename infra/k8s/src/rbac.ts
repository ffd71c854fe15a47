import { Role, RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import { ServiceAccount } from 'kubernetes-models/v1';
import { RUNNER_DENY_POLICY } from './network.ts';
import type { DeployOptions } from './options.ts';
import { labelsOf } from './workloads.ts';

const NAME = 'workspace-orchestrator';
const VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];

/**
 * The orchestrator's Kubernetes engine runs each workspace as a pod with its attempt's volume as a claim,
 * a Service the editor proxy reaches, and a NetworkPolicy for the egress rule — in the workspaces'
 * namespace only. It gets no rights in its own namespace or the cluster.
 */
export function orchestratorRbacOf(opts: DeployOptions) {
  return [
    new ServiceAccount({
      metadata: { name: NAME, namespace: opts.namespace, labels: labelsOf(NAME) },
      automountServiceAccountToken: true,
    }),
    new Role({
      metadata: { name: NAME, namespace: opts.workspacesNamespace },
      rules: [
        { apiGroups: [''], resources: ['pods', 'services', 'persistentvolumeclaims'], verbs: VERBS },
        // Reading a workspace's log and status while it starts.
        { apiGroups: [''], resources: ['pods/log', 'pods/status'], verbs: ['get'] },
        // The workspace folder is read with `tar` through exec (at submit, and from a claim no workspace runs
        // on through a reader pod). The exec WebSocket is authorised as `create` by older API servers and as
        // `get` by those that stream it over WebSockets natively (1.30 on), so both.
        { apiGroups: [''], resources: ['pods/exec'], verbs: ['create', 'get'] },
        // The engine's host id is the uid of this ConfigMap, which Kubernetes puts in every namespace: a Role
        // cannot grant reading the (cluster-scoped) Namespace itself.
        { apiGroups: [''], resources: ['configmaps'], resourceNames: ['kube-root-ca.crt'], verbs: ['get'] },
        { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: VERBS },
      ],
    }),
    new RoleBinding({
      metadata: { name: NAME, namespace: opts.workspacesNamespace },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: NAME },
      subjects: [{ kind: 'ServiceAccount', name: NAME, namespace: opts.namespace }],
    }),
    ...runnerRbacOf(opts),
  ];
}

export const RUNNER_ROLE = `${NAME}-runner`;

/**
 * The code runner's rights, in the runners' namespace only: its pods (create, watch them run, delete them, list
 * leftovers by label), attach to give the harness its bundle on stdin, the log to read its verdict lines, and
 * reading the one NetworkPolicy it refuses to run without. Not pods/exec: nothing is ever run inside a runner pod
 * but its harness.
 */
function runnerRbacOf(opts: DeployOptions) {
  return [
    new Role({
      metadata: { name: RUNNER_ROLE, namespace: opts.runnersNamespace },
      rules: [
        { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch', 'create', 'delete'] },
        // As exec: `create` for SPDY and older API servers, `get` for the WebSocket upgrade (1.30 on).
        { apiGroups: [''], resources: ['pods/attach'], verbs: ['create', 'get'] },
        { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
        {
          apiGroups: ['networking.k8s.io'],
          resources: ['networkpolicies'],
          resourceNames: [RUNNER_DENY_POLICY],
          verbs: ['get'],
        },
      ],
    }),
    new RoleBinding({
      metadata: { name: RUNNER_ROLE, namespace: opts.runnersNamespace },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: RUNNER_ROLE },
      subjects: [{ kind: 'ServiceAccount', name: NAME, namespace: opts.namespace }],
    }),
  ];
}
