import { migrationJobsOf, servicesWithMigrateEntry } from './migrations.ts';
import { networkPoliciesOf, ingressOf, runnerPoliciesOf, workspacePoliciesOf } from './network.ts';
import type { DeployOptions } from './options.ts';
import { orchestratorRbacOf } from './rbac.ts';
import { configMapOf, namespacesOf } from './settings.ts';
import { type ComponentName, SERVICES, WEB_APPS } from './topology.ts';
import { autoscalerOf, deploymentOf, disruptionBudgetOf, serviceOf } from './workloads.ts';

/** What every kubernetes-models object offers: its kind, metadata, a schema check and its plain form. */
export type Manifest = {
  apiVersion: string;
  kind: string;
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
  validate(): void;
  toJSON(): unknown;
};

/** Every object, grouped by the file it is written to (infra/k8s/generated/<file>.yaml), in apply order. */
export function manifestsOf(opts: DeployOptions): Record<string, Manifest[]> {
  const components: ComponentName[] = [...SERVICES, ...WEB_APPS];
  const files: Record<string, Manifest[]> = {
    '00-namespaces': namespacesOf(opts),
    '01-config': [configMapOf(opts)],
    '02-rbac': orchestratorRbacOf(opts),
    '03-network-policies': [...networkPoliciesOf(opts), ...workspacePoliciesOf(opts), ...runnerPoliciesOf(opts)],
  };
  const migrated = servicesWithMigrateEntry();
  const jobs = migrationJobsOf(opts, migrated);
  if (jobs.length) files['04-migrations'] = jobs;
  for (const component of components) {
    files[component] = [
      deploymentOf(component, opts, (migrated as ComponentName[]).includes(component)),
      serviceOf(component, opts),
      autoscalerOf(component, opts),
      disruptionBudgetOf(component, opts),
    ];
  }
  files['ingress'] = [ingressOf(opts)];
  return files;
}
