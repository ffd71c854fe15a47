import { describe, expect, it } from 'vitest';
import { manifestsOf } from './manifests.ts';
import { RUNNER_DENY_POLICY, RUNNER_LABEL } from './network.ts';
import { DEFAULT_OPTIONS } from './options.ts';
import { RUNNER_ROLE } from './rbac.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- the manifests are read back as plain objects */
type Obj = any;

const plainOf = (opts = DEFAULT_OPTIONS): Obj[] =>
  Object.values(manifestsOf(opts))
    .flat()
    .map((o) => JSON.parse(JSON.stringify(o.toJSON())));
const plain = plainOf();
const inRunners = (kind: string) =>
  plain.filter((o) => o.kind === kind && o.metadata.namespace === DEFAULT_OPTIONS.runnersNamespace);

describe("the code runner's namespace", () => {
  it('is a namespace of its own under the restricted Pod Security Standard, which runner pods satisfy', () => {
    const namespace = plain.find((o) => o.kind === 'Namespace' && o.metadata.name === 'exam-runners');
    expect(namespace.metadata.labels['pod-security.kubernetes.io/enforce']).toBe('restricted');
  });

  it('takes every runner pod off the network: a policy selecting their label allows nothing in or out', () => {
    const policies = inRunners('NetworkPolicy');
    expect(policies.map((p) => p.metadata.name).sort()).toEqual(['default-deny', RUNNER_DENY_POLICY]);
    const deny = policies.find((p) => p.metadata.name === RUNNER_DENY_POLICY);
    expect(deny.spec.podSelector).toEqual({ matchLabels: { [RUNNER_LABEL]: 'true' } });
    expect(deny.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(deny.spec.ingress ?? []).toEqual([]);
    expect(deny.spec.egress ?? []).toEqual([]);
    expect(policies.find((p) => p.metadata.name === 'default-deny').spec).toEqual({
      podSelector: {},
      policyTypes: ['Ingress', 'Egress'],
    });
  });

  it('lets the orchestrator create, watch, attach to, read the log of and delete pods there, and nothing more', () => {
    const [role] = inRunners('Role');
    expect(role.metadata.name).toBe(RUNNER_ROLE);
    expect(inRunners('Role')).toHaveLength(1);
    const grants = role.rules.flatMap((r: Obj) =>
      r.resources.flatMap((res: string) =>
        r.verbs.map((v: string) => `${v} ${res}${r.resourceNames ? `/${r.resourceNames}` : ''}`),
      ),
    );
    expect(grants.sort()).toEqual(
      [
        'create pods',
        'delete pods',
        'get pods',
        'list pods',
        'watch pods',
        'create pods/attach',
        'get pods/attach',
        'get pods/log',
        `get networkpolicies/${RUNNER_DENY_POLICY}`,
      ].sort(),
    );
    const [binding] = inRunners('RoleBinding');
    expect(binding.roleRef.name).toBe(RUNNER_ROLE);
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'workspace-orchestrator', namespace: 'exam' }]);
    // No other namespace grants attach, and none grants exec into runner pods.
    const attach = plain.filter((o) => o.kind === 'Role' && JSON.stringify(o.rules).includes('pods/attach'));
    expect(attach.map((r) => r.metadata.namespace)).toEqual(['exam-runners']);
  });

  it('tells the orchestrator where runner pods go, and their RuntimeClass when the site names one', () => {
    const config = (opts = DEFAULT_OPTIONS) => plainOf(opts).find((o) => o.kind === 'ConfigMap').data;
    expect(config().RUNNER_NAMESPACE).toBe('exam-runners');
    expect(config().RUNNER_RUNTIME_CLASS).toBeUndefined();
    expect(config({ ...DEFAULT_OPTIONS, runnerRuntimeClass: 'gvisor' }).RUNNER_RUNTIME_CLASS).toBe('gvisor');
  });
});
