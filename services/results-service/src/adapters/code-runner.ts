/** The code runner client lives in server-kit, shared with llm-gateway's solvability check. */
export { createHttpCodeRunner, UNREACHABLE_REASON } from '@exam/server-kit/code-runner-client';
