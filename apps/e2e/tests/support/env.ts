/** Ports and origins of the stack the journeys start (distinct from the defaults of `pnpm start`). */
const creatorPort = 5273;
const takerPort = 5274;
export const FAKE_OPENAI_PORT = 4199;

export const E2E = {
  creatorOrigin: `http://localhost:${creatorPort}`,
  takerOrigin: `http://localhost:${takerPort}`,
  stackEnv: {
    CREATOR_WEB_PORT: String(creatorPort),
    TAKER_WEB_PORT: String(takerPort),
    EXAM_SERVICE_PORT: '4101',
    RESULTS_SERVICE_PORT: '4102',
    LLM_GATEWAY_PORT: '4103',
    WORKSPACE_ORCHESTRATOR_PORT: '4104',
    OPENAI_BASE_URL: `http://127.0.0.1:${FAKE_OPENAI_PORT}/v1`,
    OPENAI_API_KEY: 'sk-e2e-server-default-key',
  },
} as const;
