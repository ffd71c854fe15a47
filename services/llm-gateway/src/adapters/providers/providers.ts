import type { Config } from '../../config.ts';
import { createBaseUrlGuard, type BaseUrlGuard } from './base-url-guard.ts';
import { createLlmClient, realAdapters, type ProviderEndpoints, type UpstreamTimeouts } from './llm-client.ts';
import { createProviderRelay, type ProviderRelay } from './relay.ts';
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
  /** AGENT_FIRST_BYTE_TIMEOUT_MS: the agent relay's wait for the provider's response head. */
  agentFirstByteMs: number;
}): { llm: LlmClient; baseUrlGuard: BaseUrlGuard; relay: ProviderRelay } {
  const baseUrlGuard = createBaseUrlGuard({ allowedHosts: opts.allowedHosts });
  return {
    llm: createLlmClient(realAdapters(opts.endpoints, baseUrlGuard), opts.timeouts),
    baseUrlGuard,
    relay: createProviderRelay({
      endpoints: opts.endpoints,
      lookup: baseUrlGuard.lookup,
      firstByteMs: opts.agentFirstByteMs,
    }),
  };
}

/** The providers as the service's configuration describes them (server.ts and the test app wire the same). */
export function providersFromConfig(
  config: Pick<
    Config,
    | 'OPENAI_BASE_URL'
    | 'ANTHROPIC_BASE_URL'
    | 'GROQ_BASE_URL'
    | 'GOOGLE_GEMINI_BASE_URL'
    | 'UPSTREAM_TIMEOUT_MS'
    | 'UPSTREAM_FIRST_TOKEN_TIMEOUT_MS'
    | 'OPENAI_COMPATIBLE_ALLOWED_HOSTS'
    | 'AGENT_FIRST_BYTE_TIMEOUT_MS'
  >,
) {
  return createProviders({
    endpoints: {
      openai: config.OPENAI_BASE_URL,
      anthropic: config.ANTHROPIC_BASE_URL,
      groq: config.GROQ_BASE_URL,
      google: config.GOOGLE_GEMINI_BASE_URL,
    },
    timeouts: { totalMs: config.UPSTREAM_TIMEOUT_MS, firstTokenMs: config.UPSTREAM_FIRST_TOKEN_TIMEOUT_MS },
    allowedHosts: config.OPENAI_COMPATIBLE_ALLOWED_HOSTS,
    agentFirstByteMs: config.AGENT_FIRST_BYTE_TIMEOUT_MS,
  });
}
