import { readSseData } from './sse-parser.ts';
import { geminiResponseSchema } from './structured-output.ts';
import { UpstreamError, type ProviderAdapter, type ProviderMessage } from './types.ts';

type GeminiChunk = {
  candidates?: { content?: { parts?: { text?: string }[] } }[];
  usageMetadata?: { promptTokenCount?: number; candidatesTokenCount?: number };
};

function toGeminiContent(message: ProviderMessage) {
  const images = (message.images ?? []).map((image) => ({
    inlineData: { mimeType: image.mediaType, data: image.dataBase64 },
  }));
  return { role: message.role === 'assistant' ? 'model' : 'user', parts: [{ text: message.content }, ...images] };
}

/** Reads the provider's error message from a JSON error body ({"error":{"message"}}), for logs only. */
export async function upstreamErrorOf(response: Response): Promise<UpstreamError> {
  const text = await response.text().catch(() => '');
  let message = text.slice(0, 300);
  try {
    message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? message;
  } catch {
    // not JSON: keep the raw start of the body
  }
  return new UpstreamError(`upstream answered ${response.status}: ${message}`, response.status);
}

/**
 * Gemini's generateContent, streamed as server-sent events (`:streamGenerateContent?alt=sse`), in its
 * exact wire format. The key travels in x-goog-api-key, never in the URL, so it cannot reach a log line. A request
 * with a `responseFormat` asks for JSON (`responseMimeType`) shaped by `responseSchema`.
 */
export function googleAdapter(baseUrl: string): ProviderAdapter {
  return async function* stream(request, signal) {
    const url = new URL(
      `v1beta/models/${encodeURIComponent(request.model)}:streamGenerateContent?alt=sse`,
      baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`,
    );
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': request.apiKey },
      body: JSON.stringify({
        systemInstruction: { parts: [{ text: request.system }] },
        contents: request.messages.map(toGeminiContent),
        generationConfig: {
          temperature: request.temperature,
          maxOutputTokens: request.maxTokens,
          // Structured output: the text parts are then the JSON text of the reply.
          ...(request.responseFormat
            ? {
                responseMimeType: 'application/json',
                responseSchema: geminiResponseSchema(request.responseFormat.schema),
              }
            : {}),
        },
      }),
      signal,
    });
    if (!response.ok || !response.body) throw await upstreamErrorOf(response);
    let usage: GeminiChunk['usageMetadata'];
    for await (const data of readSseData(response.body)) {
      const chunk = JSON.parse(data) as GeminiChunk;
      for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
        if (part.text) yield { type: 'delta', text: part.text };
      }
      // Each chunk repeats the running totals; the last one counts.
      if (chunk.usageMetadata) usage = chunk.usageMetadata;
    }
    if (usage)
      yield { type: 'usage', inputTokens: usage.promptTokenCount ?? 0, outputTokens: usage.candidatesTokenCount ?? 0 };
  };
}
