import Anthropic from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import { anthropicInputSchema } from './structured-output.ts';
import type { ProviderAdapter, ProviderMessage, ResponseFormat } from './types.ts';

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
type ImageType = (typeof IMAGE_TYPES)[number];

function toAnthropicMessage(message: ProviderMessage): MessageParam {
  const images = (message.images ?? []).filter((i): i is { mediaType: ImageType; dataBase64: string } =>
    (IMAGE_TYPES as readonly string[]).includes(i.mediaType),
  );
  if (message.role === 'assistant' || !images.length) return { role: message.role, content: message.content };
  const content: ContentBlockParam[] = [
    ...images.map((image) => ({
      type: 'image' as const,
      source: { type: 'base64' as const, media_type: image.mediaType, data: image.dataBase64 },
    })),
    { type: 'text', text: message.content },
  ];
  return { role: 'user', content };
}

/** The forced tool of a structured reply: its input is the reply (the tool use guide's way to get JSON out). */
function structuredTool(format: ResponseFormat): Pick<MessageCreateParamsStreaming, 'tools' | 'tool_choice'> {
  return {
    tools: [
      {
        name: format.name,
        description: format.description,
        input_schema: anthropicInputSchema(format.schema) as Tool.InputSchema,
      },
    ],
    tool_choice: { type: 'tool', name: format.name },
  };
}

/**
 * The Messages API, streamed: the system prompt travels apart from the messages; the SDK sends x-api-key and
 * anthropic-version. A request with a `responseFormat` forces one tool whose input schema is that format: the
 * reply then streams as the tool's input, `input_json_delta` events whose `partial_json` pieces are its JSON text.
 */
export function anthropicAdapter(baseUrl: string): ProviderAdapter {
  return async function* stream(request, signal) {
    const client = new Anthropic({ apiKey: request.apiKey, baseURL: baseUrl, maxRetries: 0 });
    const structured = request.responseFormat;
    const events = await client.messages.create(
      {
        model: request.model,
        system: request.system,
        messages: request.messages.map(toAnthropicMessage),
        temperature: request.temperature,
        max_tokens: request.maxTokens,
        stream: true,
        ...(structured ? structuredTool(structured) : {}),
      },
      { signal },
    );
    let inputTokens = 0;
    let outputTokens = 0;
    for await (const event of events) {
      if (event.type === 'message_start') {
        inputTokens = event.message.usage.input_tokens;
        outputTokens = event.message.usage.output_tokens;
      } else if (event.type === 'content_block_delta') {
        if (structured && event.delta.type === 'input_json_delta') {
          // The first piece is often empty: only text counts as a token.
          if (event.delta.partial_json) yield { type: 'delta', text: event.delta.partial_json };
        } else if (!structured && event.delta.type === 'text_delta') {
          yield { type: 'delta', text: event.delta.text };
        }
      } else if (event.type === 'message_delta') {
        // message_delta carries the cumulative output count.
        outputTokens = event.usage.output_tokens;
      }
    }
    yield { type: 'usage', inputTokens, outputTokens };
  };
}
