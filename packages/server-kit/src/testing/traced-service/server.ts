import './instrumentation.ts';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { sql } from 'drizzle-orm';
import { createBaseApp } from '../../base-app.ts';
import { openDatabase } from '../../db.ts';
import { createInternalClient } from '../../internal-client.ts';

/**
 * A service built like the platform's (server-kit's base app, the internal client) for tracing.test.ts:
 * `GET /api/hop/:id` calls `UPSTREAM_URL`'s `/internal/hop/:id` when set, and `/internal/hop/:id` reads
 * PostgreSQL (`FIXTURE_DATABASE_URL`) in a transaction when set. Prints `listening <port>`.
 */
const database = process.env.FIXTURE_DATABASE_URL
  ? await openDatabase({
      schema: {},
      databaseUrl: process.env.FIXTURE_DATABASE_URL,
      poolSize: 2,
      migrationsFolder: fileURLToPath(new URL('./migrations', import.meta.url)),
      migrationsSchema: 'traced_fixture',
    })
  : undefined;
const secret = 'fixture-secret-that-is-long-enough-0123456789';
const app = await createBaseApp({
  service: process.env.FIXTURE_SERVICE ?? 'traced-fixture',
  logLevel: 'silent',
  jwtSecret: secret,
  internalToken: secret,
  creatorSessions: async () => false,
  checks: {},
});
const upstream = process.env.UPSTREAM_URL ? createInternalClient(process.env.UPSTREAM_URL, secret) : undefined;
const params = { params: z.object({ id: z.string() }) };
app.get('/api/hop/:id', { schema: params }, async (request) => {
  const answer = upstream ? await upstream(`/internal/hop/${request.params.id}`) : undefined;
  return { service: 'a', upstream: answer?.body ?? null };
});
app.get('/internal/hop/:id', { schema: params }, async (request) => {
  await database?.db.transaction(async (tx) => {
    await tx.execute(sql`select ${request.params.id}::text as id`);
  });
  return { id: request.params.id };
});
app.addHook('onClose', async () => {
  upstream?.close();
  await database?.close();
});
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
