// Serves one built app: `node packages/web-server/src/server.ts <creator-web|taker-web>` from the app's folder
// (scripts/start.ts does this). Settings come from the same variables as the rest of the platform.
import { resolve } from 'node:path';
import { SERVICES, type ServiceName } from '@exam/domain/service-routes';
import { appPort, runtimeConfig, serviceUrl, type AppName } from '@exam/web-config/runtime-config';
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
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
await server.listen({ host: env.WEB_HOST ?? 'localhost', port: appPort(app) });
