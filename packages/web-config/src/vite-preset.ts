import type { IncomingMessage, ServerResponse } from 'node:http';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { UNREACHABLE_HEADER } from '@exam/domain/api-error';
import { SERVICE_ROUTES } from '@exam/domain/service-routes';
import type { Connect, Plugin, ProxyOptions, UserConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { cspStylesPlugin } from './csp-styles-plugin.ts';
import { isUnreachable, unreachableBody, RETRY_AFTER_SECONDS } from './proxy-errors.ts';
import { appPort, runtimeConfig, serviceUrl, type AppName } from './runtime-config.ts';

export type { AppName, RuntimeConfig } from './runtime-config.ts';
export { runtimeConfig } from './runtime-config.ts';

/**
 * Vite's proxy (dev mode) answers a failed upstream connection with an empty 500 by default; like the
 * production web server, it answers 503 with a JSON body, Retry-After and UNREACHABLE_HEADER when the
 * service could not be reached, and a JSON 502 when it broke off.
 */
function onProxyError(err: Error & { code?: string }, _req: IncomingMessage, res: ServerResponse | unknown) {
  if (!(res && typeof res === 'object' && 'writeHead' in res)) return;
  const response = res as ServerResponse;
  if (response.headersSent) return void response.destroy();
  const unreachable = isUnreachable(err);
  response.writeHead(unreachable ? 503 : 502, {
    'content-type': 'application/json; charset=utf-8',
    ...(unreachable ? { 'retry-after': String(RETRY_AFTER_SECONDS), [UNREACHABLE_HEADER]: '1' } : {}),
  });
  response.end(JSON.stringify(unreachableBody(unreachable)));
}

/** /api/* goes to the service that owns it (see @exam/domain/service-routes). */
function proxyTable(): Record<string, ProxyOptions> {
  return Object.fromEntries(
    SERVICE_ROUTES.map(([pattern, service]) => [
      pattern,
      {
        target: serviceUrl(service),
        changeOrigin: false,
        xfwd: true,
        configure: (proxy) => void proxy.on('error', onProxyError),
      } satisfies ProxyOptions,
    ]),
  );
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

/**
 * The Vite config both apps share: React, Tailwind, the API proxy, runtime config, fixed ports. `pnpm start`
 * serves the build with packages/web-server (security headers included); the dev server sends none.
 */
export function appViteConfig(app: AppName): UserConfig {
  const port = appPort(app);
  const host = process.env.WEB_HOST ?? 'localhost';
  const proxy = proxyTable();
  return {
    plugins: [
      react(),
      tailwindcss(),
      runtimeConfigPlugin(),
      cspStylesPlugin(),
      // Brotli and gzip copies beside each script and stylesheet, sent by packages/web-server to browsers that
      // accept them: the build pays the compression once instead of every response (or no response at all).
      compression({ algorithms: ['brotliCompress', 'gzip'], include: /\.(js|css|svg|json)$/, threshold: 1024 }),
    ],
    server: { port, host, strictPort: true, proxy },
    preview: { port, host, strictPort: true, proxy },
    build: { sourcemap: true, target: 'es2022' },
  };
}
