/**
 * The providers' real streaming wire formats with tool calls, as agents receive them (for msw handlers in tests and
 * the bench's fake provider): OpenAI Chat Completions `tool_calls` deltas, the Responses API's typed events (Codex
 * CLI) and Anthropic's tool_use content blocks with `input_json_delta` (Claude Code).
 */

export type FakeToolCall = { id: string; name: string; argumentPieces: string[] };
type Usage = { input: number; output: number };

const dataFrame = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
const namedFrame = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

export function openAiChatToolFrames(
  texts: string[],
  tool?: FakeToolCall,
  usage: Usage = { input: 300, output: 50 },
  model = 'gpt-4o-mini',
): string[] {
  const base = { id: 'chatcmpl-agent', object: 'chat.completion.chunk', created: 1_700_000_000, model };
  const chunk = (delta: unknown, finish: string | null = null) =>
    dataFrame({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], usage: null });
  return [
    chunk({ role: 'assistant', content: '' }),
    ...texts.map((t) => chunk({ content: t })),
    ...(tool
      ? [
          chunk({
            tool_calls: [{ index: 0, id: tool.id, type: 'function', function: { name: tool.name, arguments: '' } }],
          }),
          ...tool.argumentPieces.map((piece) => chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] })),
        ]
      : []),
    chunk({}, tool ? 'tool_calls' : 'stop'),
    dataFrame({
      ...base,
      choices: [],
      usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
    }),
    'data: [DONE]\n\n',
  ];
}

export function responsesFrames(
  texts: string[],
  tool?: FakeToolCall,
  usage: Usage = { input: 400, output: 60 },
  model = 'gpt-4o-mini',
): string[] {
  let seq = 0;
  const frame = (type: string, fields: Record<string, unknown>) =>
    namedFrame(type, { type, sequence_number: seq++, ...fields });
  const response = { id: 'resp_agent', object: 'response', created_at: 1_700_000_000, model, output: [] };
  const text = texts.join('');
  const message = { id: 'msg_agent', type: 'message', role: 'assistant' };
  const part = { type: 'output_text', text, annotations: [] };
  const args = tool?.argumentPieces.join('') ?? '';
  const call = tool && { id: 'fc_agent', type: 'function_call', call_id: tool.id, name: tool.name };
  return [
    frame('response.created', { response: { ...response, status: 'in_progress' } }),
    frame('response.in_progress', { response: { ...response, status: 'in_progress' } }),
    frame('response.output_item.added', { output_index: 0, item: { ...message, status: 'in_progress', content: [] } }),
    frame('response.content_part.added', {
      item_id: 'msg_agent',
      output_index: 0,
      content_index: 0,
      part: { ...part, text: '' },
    }),
    ...texts.map((delta) =>
      frame('response.output_text.delta', {
        item_id: 'msg_agent',
        output_index: 0,
        content_index: 0,
        delta,
        logprobs: [],
      }),
    ),
    frame('response.output_text.done', { item_id: 'msg_agent', output_index: 0, content_index: 0, text, logprobs: [] }),
    frame('response.content_part.done', { item_id: 'msg_agent', output_index: 0, content_index: 0, part }),
    frame('response.output_item.done', { output_index: 0, item: { ...message, status: 'completed', content: [part] } }),
    ...(tool && call
      ? [
          frame('response.output_item.added', {
            output_index: 1,
            item: { ...call, arguments: '', status: 'in_progress' },
          }),
          ...tool.argumentPieces.map((delta) =>
            frame('response.function_call_arguments.delta', { item_id: 'fc_agent', output_index: 1, delta }),
          ),
          frame('response.function_call_arguments.done', { item_id: 'fc_agent', output_index: 1, arguments: args }),
          frame('response.output_item.done', {
            output_index: 1,
            item: { ...call, arguments: args, status: 'completed' },
          }),
        ]
      : []),
    frame('response.completed', {
      response: {
        ...response,
        status: 'completed',
        usage: {
          input_tokens: usage.input,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: usage.output,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: usage.input + usage.output,
        },
      },
    }),
  ];
}

export function anthropicToolUseFrames(
  texts: string[],
  tool?: FakeToolCall,
  usage: Usage & { cacheRead?: number } = { input: 500, output: 70 },
  model = 'claude-sonnet-4',
): string[] {
  const event = (type: string, data: Record<string, unknown>) => namedFrame(type, { type, ...data });
  return [
    event('message_start', {
      message: {
        id: 'msg_agent',
        type: 'message',
        role: 'assistant',
        content: [],
        model,
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.input,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: usage.cacheRead ?? 0,
          output_tokens: 1,
        },
      },
    }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    event('ping', {}),
    ...texts.map((text) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } })),
    event('content_block_stop', { index: 0 }),
    ...(tool
      ? [
          event('content_block_start', {
            index: 1,
            content_block: { type: 'tool_use', id: tool.id, name: tool.name, input: {} },
          }),
          ...['', ...tool.argumentPieces].map((partial_json) =>
            event('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json } }),
          ),
          event('content_block_stop', { index: 1 }),
        ]
      : []),
    event('message_delta', {
      delta: { stop_reason: tool ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: usage.output },
    }),
    event('message_stop', {}),
  ];
}

/** The events of a relayed stream: each frame's `event:` name (if any) and parsed data (`[DONE]` as the string). */
export function relayedEvents(payload: string): Array<{ name: string | undefined; data: unknown }> {
  return payload
    .split('\n\n')
    .filter((frame) => frame.trim())
    .map((frame) => {
      const name = /^event: (.*)$/m.exec(frame)?.[1];
      const data = /^data: (.*)$/m.exec(frame)?.[1] ?? '';
      return { name, data: data === '[DONE]' ? data : (JSON.parse(data) as unknown) };
    });
}
