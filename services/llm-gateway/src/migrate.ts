// Applies this service's pending migrations and exits: 0 when its schema is current, 1 with the reason.
// Deployments run it once before the replicas, which start with MIGRATE_ON_START=false (docs/deploy.md).
import { runMigrateEntry } from '@exam/server-kit/migrate-entry';
import { openGatewayDatabase } from './db/database.ts';

process.exitCode = await runMigrateEntry('llm-gateway', process.env, openGatewayDatabase);
