import type { AiProvider } from '@exam/domain/ai-catalogue';

/** An image the candidate attached, sent to vision models as data. */
export type ImagePart = { mediaType: string; dataBase64: string };

export type ProviderMessage = { role: 'user' | 'assistant'; content: string; images?: ImagePart[] };

/** Everything one upstream call needs; the key is already decrypted and never leaves this process. */
export type ProviderRequest = {
  provider: AiProvider;
  model: string;
  apiKey: string;
  /** Only for openai-compatible: the creator's server. */
  baseUrl?: string;
  system: string;
  messages: ProviderMessage[];
  temperature: number;
  maxTokens: number;
  /**
   * Structured output: the reply is one JSON value matching this JSON Schema, and the stream's deltas are its
   * text. Each adapter asks its provider its own way (structured-output.ts); the caller still validates it.
   */
  responseFormat?: ResponseFormat;
};

/** A JSON Schema object (draft 2020-12, as zod's toJSONSchema writes it). */
export type JsonSchema = { [keyword: string]: unknown };

/** The shape a structured reply must take: `name` is [a-zA-Z0-9_-]{1,64} (the providers' rule for names). */
export type ResponseFormat = { name: string; description: string; schema: JsonSchema };

export type StreamChunk =
  { type: 'delta'; text: string } | { type: 'usage'; inputTokens: number; outputTokens: number };

/** One provider's streaming call. Abort the signal to stop the upstream request. */
export type ProviderAdapter = (request: ProviderRequest, signal: AbortSignal) => AsyncIterable<StreamChunk>;

/** The gateway's view of all providers (tests may pass a fake; production wires the real adapters). */
export type LlmClient = {
  stream(request: ProviderRequest, signal: AbortSignal): AsyncIterable<StreamChunk>;
};

/** Thrown for any upstream failure; `status` is the provider's HTTP status when there was one. */
export class UpstreamError extends Error {
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.name = 'UpstreamError';
    this.status = status;
  }
}
