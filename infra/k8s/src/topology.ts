import { DEFAULT_SERVICE_PORTS, SERVICE_ROUTES, SERVICES, type ServiceName } from '@exam/domain/service-routes';

/** What runs in the platform's namespace: the four services and the two web servers (packages/web-server). */
export const WEB_APPS = ['creator-web', 'taker-web'] as const;
export type WebAppName = (typeof WEB_APPS)[number];
export type ComponentName = ServiceName | WebAppName;

/** The web servers' ports, as packages/web-config/src/runtime-config.ts defaults them. */
export const WEB_APP_PORTS: Record<WebAppName, number> = { 'creator-web': 5173, 'taker-web': 5174 };

/** The orchestrator's second listener, which serves only the editors (WORKSPACE_PORT, WORKSPACE_ORIGIN). */
export const WORKSPACE_PORT = 4005;

/**
 * Which service calls which on `/internal/*`: the arrows of the system diagram in ARCHITECTURE.md ("The
 * system"). A NetworkPolicy lets exactly these through; a new internal call needs a line here as well.
 */
export const INTERNAL_CALLS: Record<ServiceName, readonly ServiceName[]> = {
  'exam-service': ['results-service'],
  'results-service': ['exam-service', 'llm-gateway', 'workspace-orchestrator'],
  'llm-gateway': ['exam-service', 'results-service', 'workspace-orchestrator'],
  'workspace-orchestrator': ['exam-service', 'results-service'],
};

/** The services a web server proxies /api to: every service the one routing table names. */
export function proxiedServices(): ServiceName[] {
  const named = new Set(SERVICE_ROUTES.map(([, service]) => service));
  return SERVICES.filter((s) => named.has(s));
}

export function portOf(component: ComponentName): number {
  return component === 'creator-web' || component === 'taker-web'
    ? WEB_APP_PORTS[component]
    : DEFAULT_SERVICE_PORTS[component];
}

export { SERVICES, type ServiceName };
