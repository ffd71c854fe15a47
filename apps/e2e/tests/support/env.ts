/**
 * Ports and origins of the stack the journeys start (distinct from the defaults of `pnpm start`).
 * E2E_PORT_OFFSET shifts every port, so two checkouts on one machine can run their journeys at once.
 */
const offset = Number(process.env.E2E_PORT_OFFSET ?? 0);
const creatorPort = 5273 + offset;
const takerPort = 5274 + offset;
/** The orchestrator's editors' listener: the coding workspace's own origin (WORKSPACE_ORIGIN). */
const workspacePort = 4105 + offset;
export const FAKE_OPENAI_PORT = 4199 + offset;
/** The embedded mailbox start.ts runs when SMTP_URL is unset: its page and API, and its SMTP receiver. */
const mailboxPort = 4125 + offset;
const mailboxSmtpPort = 2625 + offset;
/** The embedded database start.ts serves to every service when DATABASE_URL is unset. */
const databasePort = 4132 + offset;
/** Names this run's workspace containers, so one run's cleanup never removes another's. */
export const E2E_INSTANCE = offset ? `e2e-${offset}` : 'e2e';

/**
 * The platform administrator the account journey registers (or signs in as, when an earlier run's database kept the
 * account): exam-service lists it in ADMIN_EMAILS, so it may open the platform's status page.
 */
export const E2E_ADMIN_EMAIL = 'platform-admin@e2e.test';

export const E2E = {
  // A stack started elsewhere (the deployment's journeys, scripts/test-deploy.ts: nginx on two host names)
  // names its own origins.
  creatorOrigin: process.env.E2E_CREATOR_ORIGIN ?? `http://localhost:${creatorPort}`,
  takerOrigin: process.env.E2E_TAKER_ORIGIN ?? `http://localhost:${takerPort}`,
  workspaceOrigin: `http://localhost:${workspacePort}`,
  mailboxOrigin: `http://localhost:${mailboxPort}`,
  stackEnv: {
    MAILBOX_PORT: String(mailboxPort),
    MAILBOX_SMTP_PORT: String(mailboxSmtpPort),
    EMBEDDED_POSTGRES_PORT: String(databasePort),
    CREATOR_WEB_PORT: String(creatorPort),
    TAKER_WEB_PORT: String(takerPort),
    EXAM_SERVICE_PORT: String(4101 + offset),
    RESULTS_SERVICE_PORT: String(4102 + offset),
    LLM_GATEWAY_PORT: String(4103 + offset),
    WORKSPACE_ORCHESTRATOR_PORT: String(4104 + offset),
    WORKSPACE_PORT: String(workspacePort),
    OPENAI_BASE_URL: `http://127.0.0.1:${FAKE_OPENAI_PORT}/v1`,
    OPENAI_API_KEY: 'sk-e2e-server-default-key',
    // The LMS simulator of the LTI journey listens on this machine over http.
    LTI_ALLOW_LOOPBACK_HTTP: 'true',
    SSO_ALLOW_LOOPBACK_HTTP: 'true',
    // Only this account sees the platform's status page; every other journey's creator gets 403 there.
    ADMIN_EMAILS: E2E_ADMIN_EMAIL,
  },
} as const;
