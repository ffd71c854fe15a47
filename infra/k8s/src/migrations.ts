import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Job } from 'kubernetes-models/batch/v1';
import type { DeployOptions } from './options.ts';
import { SERVICES, type ServiceName } from './topology.ts';
import { containerOf, labelsOf, podSpecOf } from './workloads.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const MIGRATE_ENTRY = 'src/migrate.ts';
/** A Job's pods are not the service's: its Service and budget must not select them (they never listen). */
export const MIGRATION_LABELS = { 'app.kubernetes.io/component': 'migration' };

/**
 * Services apply their drizzle migrations in `openDatabase` before they listen
 * (packages/server-kit/src/db.ts). A service with a migrate-only entry (`src/migrate.ts`) gets a Job that runs
 * it from the service's image, to be applied before the Deployment rolls; one without keeps migrating at
 * start. Each service journals its migrations in a table of its own, so Jobs never step on each other.
 */
export function servicesWithMigrateEntry(root = ROOT): ServiceName[] {
  return SERVICES.filter((s) => existsSync(join(root, 'services', s, MIGRATE_ENTRY)));
}

export function migrationJobsOf(opts: DeployOptions, services = servicesWithMigrateEntry()) {
  return services.map(
    (service) =>
      new Job({
        metadata: { name: `${service}-migrate`, namespace: opts.namespace, labels: labelsOf(service) },
        spec: {
          backoffLimit: 3,
          ttlSecondsAfterFinished: 3600,
          template: {
            metadata: {
              labels: { ...labelsOf(service), 'app.kubernetes.io/name': `${service}-migrate`, ...MIGRATION_LABELS },
            },
            spec: {
              ...podSpecOf(service, [containerOf(service, opts, { command: ['node', MIGRATE_ENTRY], ports: [] })]),
              restartPolicy: 'Never',
            },
          },
        },
      }),
  );
}
