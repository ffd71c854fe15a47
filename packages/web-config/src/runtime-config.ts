import { DEFAULT_SERVICE_PORTS, SERVICE_ROUTES, serviceEnvPrefix, type ServiceName } from '@exam/domain/service-routes';

export type AppName = 'creator-web' | 'taker-web';
export const DEFAULT_APP_PORTS: Record<AppName, number> = { 'creator-web': 5173, 'taker-web': 5174 };
/** The orchestrator's second listener, which serves only the editors (see WORKSPACE_ORIGIN). */
export const DEFAULT_WORKSPACE_PORT = 4005;

type Env = Record<string, string | undefined>;

export function serviceUrl(service: ServiceName, env: Env = process.env): string {
  return env[`${serviceEnvPrefix(service)}_URL`] ?? `http://127.0.0.1:${DEFAULT_SERVICE_PORTS[service]}`;
}

/** Which service answers a request target (path and query), by the one table in @exam/domain/service-routes. */
export function routeOf(target: string): ServiceName | undefined {
  return SERVICE_ROUTES.find(([pattern]) => new RegExp(pattern).test(target))?.[1];
}

/** Origins the apps need at run time, served as /runtime-config.json. */
export type RuntimeConfig = { creatorOrigin: string; takerOrigin: string; workspaceOrigin: string };

export function appPort(app: AppName, env: Env = process.env): number {
  const value = env[app === 'creator-web' ? 'CREATOR_WEB_PORT' : 'TAKER_WEB_PORT'];
  return value ? Number(value) : DEFAULT_APP_PORTS[app];
}

export function runtimeConfig(env: Env = process.env): RuntimeConfig {
  return {
    creatorOrigin: env.CREATOR_ORIGIN ?? `http://localhost:${appPort('creator-web', env)}`,
    takerOrigin: env.TAKER_ORIGIN ?? `http://localhost:${appPort('taker-web', env)}`,
    workspaceOrigin: env.WORKSPACE_ORIGIN ?? `http://localhost:${env.WORKSPACE_PORT ?? DEFAULT_WORKSPACE_PORT}`,
  };
}
