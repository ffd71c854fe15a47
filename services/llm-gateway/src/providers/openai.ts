import OpenAI from 'openai';
import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ProviderAdapter, ProviderMessage } from './types.ts';

function toOpenAiMessage(message: ProviderMessage): ChatCompletionMessageParam {
  if (message.role === 'assistant') return { role: 'assistant', content: message.content };
  if (!message.images?.length) return { role: 'user', content: message.content };
  const parts: ChatCompletionContentPart[] = [
    { type: 'text', text: message.content },
    ...message.images.map((image) => ({ type: 'image_url' as const, image_url: { url: `data:${image.mediaType};base64,${image.dataBase64}` } })),
  ];
  return { role: 'user', content: parts };
}

/**
 * The OpenAI chat completions wire format, streamed: OpenAI itself, Groq and self-hosted servers
 * (vLLM, Ollama…) all speak it. Retries are off: a retry would double the call and the wait.
 */
export function openAiAdapter(defaultBaseUrl: string): ProviderAdapter {
  // One client per key and endpoint, reused across chats (a client is cheap, but not free on the first-token path).
  const clients = new Map<string, OpenAI>();
  const clientFor = (apiKey: string, baseURL: string) => {
    const id = `${baseURL}\n${apiKey}`;
    let client = clients.get(id);
    if (!client) {
      if (clients.size >= 1000) clients.clear();
      client = new OpenAI({ apiKey, baseURL, maxRetries: 0 });
      clients.set(id, client);
    }
    return client;
  };
  return async function* stream(request, signal) {
    const client = clientFor(request.apiKey, request.baseUrl || defaultBaseUrl);
    const completion = await client.chat.completions.create(
      {
        model: request.model,
        messages: [{ role: 'system', content: request.system }, ...request.messages.map(toOpenAiMessage)],
        temperature: request.temperature,
        max_tokens: request.maxTokens,
        stream: true,
        stream_options: { include_usage: true },
      },
      { signal },
    );
    for await (const chunk of completion) {
      const text = chunk.choices[0]?.delta?.content;
      if (text) yield { type: 'delta', text };
      // Groq reports usage in x_groq.usage on the last chunk; OpenAI and vLLM in `usage`.
      const usage = chunk.usage ?? (chunk as { x_groq?: { usage?: OpenAI.CompletionUsage } }).x_groq?.usage;
      if (usage) yield { type: 'usage', inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens };
    }
  };
}
