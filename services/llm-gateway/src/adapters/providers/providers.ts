import { createBaseUrlGuard, type BaseUrlGuard } from './base-url-guard.ts';
import { createLlmClient, realAdapters, type ProviderEndpoints, type UpstreamTimeouts } from './llm-client.ts';
import type { LlmClient } from './types.ts';

/**
 * The real providers, as server.ts and the tests wire them, around one SSRF guard: the chat checks a
 * creator's openai-compatible base URL with `check` before calling, and the adapter connects through the
 * same guard's `lookup`, so a DNS answer that changes in between cannot reach the internal network.
 */
export function createProviders(opts: {
  endpoints: ProviderEndpoints;
  timeouts: UpstreamTimeouts;
  /** OPENAI_COMPATIBLE_ALLOWED_HOSTS */
  allowedHosts: string | undefined;
}): { llm: LlmClient; baseUrlGuard: BaseUrlGuard } {
  const baseUrlGuard = createBaseUrlGuard({ allowedHosts: opts.allowedHosts });
  return { llm: createLlmClient(realAdapters(opts.endpoints, baseUrlGuard), opts.timeouts), baseUrlGuard };
}
