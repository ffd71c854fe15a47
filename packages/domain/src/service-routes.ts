/**
 * Which service answers which public path. Both web servers proxy /api/* and /lti/* with this table, and an
 * ingress in front of the services would use the same one. More specific prefixes come first. The editors
 * (/workspace/*) are not here: they live on an origin of their own (WORKSPACE_ORIGIN), never the apps'.
 */
export const SERVICES = ['exam-service', 'results-service', 'llm-gateway', 'workspace-orchestrator'] as const;
export type ServiceName = (typeof SERVICES)[number];

export const DEFAULT_SERVICE_PORTS: Record<ServiceName, number> = {
  'exam-service': 4001,
  'results-service': 4002,
  'llm-gateway': 4003,
  'workspace-orchestrator': 4004,
};

/**
 * [regular expression over the request target, service]; first match wins. The target includes the query
 * string (Vite's proxy matches `req.url`), so a prefix ends at '/', '?' or the end.
 */
export const SERVICE_ROUTES: ReadonlyArray<readonly [string, ServiceName]> = [
  ['^/api/exams/[^/]+/(insights|results|regrade|release|overrides)', 'results-service'],
  // Grading by question: a question's answers, groups, marks and suggestions, and the exam's AI–human agreement.
  ['^/api/exams/[^/]+/(questions|grading)([/?]|$)', 'results-service'],
  // The live proctor view: /api/exams/:id/live, its announcements and its actions on attempts.
  ['^/api/exams/[^/]+/(live|announcements|attempts)([/?]|$)', 'results-service'],
  // The AI solvability check of a draft: llm-gateway asks the exam's assistant.
  ['^/api/exams/[^/]+/solvability-checks([/?]|$)', 'llm-gateway'],
  // The pre-publish assistant audit and the comparison of configurations (assistant-audit.ts).
  ['^/api/exams/[^/]+/assistant-audits([/?]|$)', 'llm-gateway'],
  // /api/admin: the platform administrators' status page (ADMIN_EMAILS); /api/organization: members and single sign-on.
  ['^/api/(auth|exams|public|materials|bank|lti|admin|organization)([/?]|$)', 'exam-service'],
  ['^/api/(attempts|results|reports)([/?]|$)', 'results-service'],
  ['^/api/llm([/?]|$)', 'llm-gateway'],
  ['^/api/(session|sessions|runner)([/?]|$)', 'workspace-orchestrator'],
  ['^/api/exam-service/', 'exam-service'],
  ['^/api/results-service/', 'results-service'],
  ['^/api/llm-gateway/', 'llm-gateway'],
  ['^/api/workspace-orchestrator/', 'workspace-orchestrator'],
  // LTI 1.3's browser-facing endpoints (login initiation, launch, the tool's JWKS): an LMS sends the browser to
  // either app's origin (the registration names LTI_TOOL_ORIGIN, the creator app's by default), so both forward it.
  ['^/lti/(login|launch|jwks)([/?]|$)', 'exam-service'],
];

export function serviceEnvPrefix(service: ServiceName): string {
  return service.toUpperCase().replace(/-/g, '_');
}
