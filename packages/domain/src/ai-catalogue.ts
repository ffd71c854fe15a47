/** Provider and model catalogue (docs/product.md#the-assistant). */
export const AI_PROVIDERS = ['openai', 'anthropic', 'groq', 'google', 'openai-compatible'] as const;
export type AiProvider = (typeof AI_PROVIDERS)[number];

export type ModelInfo = { id: string; contextTokens?: number; vision?: boolean };

export const AI_CATALOGUE: Record<AiProvider, { label: string; models: ModelInfo[] }> = {
  openai: {
    label: 'OpenAI',
    models: [
      { id: 'gpt-4.1-2025-04-14', vision: true },
      { id: 'gpt-4o', vision: true },
      { id: 'gpt-4o-mini', vision: true },
      { id: 'gpt-4-turbo', vision: true },
      { id: 'gpt-3.5-turbo', contextTokens: 16385 },
    ],
  },
  anthropic: {
    label: 'Anthropic',
    models: [
      { id: 'claude-opus-4', contextTokens: 200000, vision: true },
      { id: 'claude-sonnet-4', contextTokens: 200000, vision: true },
      { id: 'claude-3-5-sonnet', contextTokens: 200000, vision: true },
      { id: 'claude-3-5-haiku', contextTokens: 200000 },
      { id: 'claude-3-opus', contextTokens: 200000, vision: true },
    ],
  },
  groq: {
    label: 'Groq',
    models: [
      { id: 'llama3-70b-8192' },
      { id: 'llama3-8b-8192' },
      { id: 'mixtral-8x7b-32768' },
      { id: 'gemma-7b-it' },
      { id: 'llama-3.3-70b-versatile' },
      { id: 'llama-3.1-8b-instant' },
      { id: 'mistral-saba-24b' },
      { id: 'gemini-pro' },
    ],
  },
  google: {
    label: 'Google Gemini',
    models: [
      { id: 'gemini-1.5-pro', contextTokens: 2000000, vision: true },
      { id: 'gemini-1.5-flash', contextTokens: 1000000, vision: true },
      { id: 'gemini-1.0-pro', contextTokens: 32760 },
    ],
  },
  // A self-hosted server that speaks the OpenAI chat completions API (vLLM, Ollama…); the creator names the model.
  'openai-compatible': { label: 'OpenAI-compatible (self-hosted)', models: [] },
};

/**
 * The environment variables holding the server-wide default key of each provider (llm-gateway uses
 * them; other services read only whether one is set). A self-hosted server needs none.
 */
export const SERVER_KEY_ENV = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  groq: 'GROQ_API_KEY',
  google: 'GEMINI_API_KEY',
} as const satisfies Partial<Record<AiProvider, string>>;

export function isKnownModel(provider: AiProvider, model: string): boolean {
  if (provider === 'openai-compatible') return model.trim().length > 0;
  return AI_CATALOGUE[provider].models.some((m) => m.id === model);
}
