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

/**
 * List prices in US dollars per million tokens (input, output), for the assistant audit's cost estimate
 * (assistant-audit.ts). From the providers' public pricing pages as of 2026-11 (openai.com/api/pricing,
 * anthropic.com/pricing, groq.com/pricing, ai.google.dev/pricing; Gemini 1.5 at the up-to-128k-token rate). A model
 * not listed (and every self-hosted one) has no known price: the estimate then gives tokens only.
 */
export const MODEL_PRICES: Partial<Record<AiProvider, Record<string, { input: number; output: number }>>> = {
  openai: {
    'gpt-4.1-2025-04-14': { input: 2, output: 8 },
    'gpt-4o': { input: 2.5, output: 10 },
    'gpt-4o-mini': { input: 0.15, output: 0.6 },
    'gpt-4-turbo': { input: 10, output: 30 },
    'gpt-3.5-turbo': { input: 0.5, output: 1.5 },
  },
  anthropic: {
    'claude-opus-4': { input: 15, output: 75 },
    'claude-sonnet-4': { input: 3, output: 15 },
    'claude-3-5-sonnet': { input: 3, output: 15 },
    'claude-3-5-haiku': { input: 0.8, output: 4 },
    'claude-3-opus': { input: 15, output: 75 },
  },
  groq: {
    'llama-3.3-70b-versatile': { input: 0.59, output: 0.79 },
    'llama-3.1-8b-instant': { input: 0.05, output: 0.08 },
  },
  google: {
    'gemini-1.5-pro': { input: 1.25, output: 5 },
    'gemini-1.5-flash': { input: 0.075, output: 0.3 },
  },
};

/** The list-price cost of some tokens, or null when the model's price is not known. */
export function costUsd(provider: AiProvider, model: string, inputTokens: number, outputTokens: number): number | null {
  const price = MODEL_PRICES[provider]?.[model];
  if (!price) return null;
  return (inputTokens * price.input + outputTokens * price.output) / 1_000_000;
}
