// Serves one built app: `node packages/web-server/src/server.ts <creator-web|taker-web>` from the app's folder
// (scripts/start.ts does this). Settings come from the same variables as the rest of the platform.
import { resolve } from 'node:path';
import { SERVICES, type ServiceName } from '@exam/domain/service-routes';
import { appPort, runtimeConfig, serviceUrl, type AppName } from '@exam/web-config/runtime-config';
import { runServer } from '@exam/server-kit/run';
import { buildWebServer } from './app.ts';

const app = process.argv[2] as AppName;
if (app !== 'creator-web' && app !== 'taker-web') {
  console.error('usage: server.ts <creator-web|taker-web>');
  process.exit(2);
}
const env = process.env;
const server = await buildWebServer({
  app,
  root: resolve(env.WEB_ROOT ?? 'dist'),
  serviceUrls: Object.fromEntries(SERVICES.map((s) => [s, serviceUrl(s)])) as Record<ServiceName, string>,
  runtimeConfig: runtimeConfig(),
  https: env.WEB_HTTPS === 'true',
  trustedProxies: (env.TRUSTED_PROXIES ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
  logLevel: env.LOG_LEVEL ?? 'info',
});
// The same graceful shutdown as the services (server-kit's runServer): proxied streams in flight run on for
// SHUTDOWN_DRAIN_MS, then are cut and the browser retries them through another replica.
await runServer(server, {
  host: env.WEB_HOST ?? 'localhost',
  port: appPort(app),
  shutdownDelayMs: Number(env.SHUTDOWN_DELAY_MS ?? 0),
  shutdownDrainMs: Number(env.SHUTDOWN_DRAIN_MS ?? 10_000),
});
