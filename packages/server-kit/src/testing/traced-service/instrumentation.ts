import { startTracing } from '../../tracing.ts';

// The first import of server.ts, as in the services: tracing starts before Fastify and node:http's users load.
await startTracing(process.env.FIXTURE_SERVICE ?? 'traced-fixture');
