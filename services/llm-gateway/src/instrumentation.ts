import { startTracing } from '@exam/server-kit/tracing';

// server.ts imports this first: ES modules evaluate imports in order and wait for this top-level await, so
// tracing (when OTEL_EXPORTER_OTLP_ENDPOINT is set) starts before Fastify and node:http's users load.
await startTracing('llm-gateway');
