import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { DEFAULT_SERVICE_PORTS, SERVICE_ROUTES, serviceEnvPrefix, type ServiceName } from '@exam/domain/service-routes';
import type { Connect, Plugin, ProxyOptions, UserConfig } from 'vite';

export type AppName = 'creator-web' | 'taker-web';
const DEFAULT_PORTS: Record<AppName, number> = { 'creator-web': 5173, 'taker-web': 5174 };

function serviceUrl(service: ServiceName): string {
  return process.env[`${serviceEnvPrefix(service)}_URL`] ?? `http://127.0.0.1:${DEFAULT_SERVICE_PORTS[service]}`;
}

/** /api/* and /workspace/* go to the service that owns them (see @exam/domain/service-routes). */
function proxyTable(): Record<string, ProxyOptions> {
  return Object.fromEntries(
    SERVICE_ROUTES.map(([pattern, service]) => [
      pattern,
      { target: serviceUrl(service), changeOrigin: false, ws: service === 'workspace-orchestrator', xfwd: true },
    ]),
  );
}

/** Origins the apps need at run time (links to the taker app), served as /runtime-config.json. */
export type RuntimeConfig = { creatorOrigin: string; takerOrigin: string };

export function runtimeConfig(): RuntimeConfig {
  return {
    creatorOrigin:
      process.env.CREATOR_ORIGIN ?? `http://localhost:${process.env.CREATOR_WEB_PORT ?? DEFAULT_PORTS['creator-web']}`,
    takerOrigin:
      process.env.TAKER_ORIGIN ?? `http://localhost:${process.env.TAKER_WEB_PORT ?? DEFAULT_PORTS['taker-web']}`,
  };
}

function runtimeConfigPlugin(): Plugin {
  const middleware: Connect.NextHandleFunction = (req, res, next) => {
    if (req.url !== '/runtime-config.json') return next();
    res.setHeader('content-type', 'application/json');
    res.setHeader('cache-control', 'no-store');
    res.end(JSON.stringify(runtimeConfig()));
  };
  return {
    name: 'exam-runtime-config',
    configureServer: (server) => void server.middlewares.use(middleware),
    configurePreviewServer: (server) => void server.middlewares.use(middleware),
  };
}

/** The Vite config both apps share: React, Tailwind, the API proxy, runtime config, fixed ports. */
export function appViteConfig(app: AppName): UserConfig {
  const envPort = process.env[app === 'creator-web' ? 'CREATOR_WEB_PORT' : 'TAKER_WEB_PORT'];
  const port = envPort ? Number(envPort) : DEFAULT_PORTS[app];
  const host = process.env.WEB_HOST ?? 'localhost';
  const proxy = proxyTable();
  return {
    plugins: [react(), tailwindcss(), runtimeConfigPlugin()],
    server: { port, host, strictPort: true, proxy },
    preview: { port, host, strictPort: true, proxy },
    build: { sourcemap: true, target: 'es2022' },
  };
}
