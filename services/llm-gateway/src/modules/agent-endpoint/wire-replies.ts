import { randomUUID } from 'node:crypto';
import type { AgentWireFormat } from '@exam/domain/workspace-agents';

/**
 * What the agent endpoint reads of a provider's reply in each wire format, streamed (one server-sent event at a time)
 * or whole: the text, the tool calls and the usage, for the answer guard, the transcript and the budgets. The events
 * themselves are relayed as the provider sent them; only a reply the guard stops gets an ending of the gateway's
 * own (`withheldEnding`), in the format's proper terminating events.
 */

/** One server-sent event as it arrived: its raw text (terminator included), its name, data and parsed JSON. */
export type SseEvent = { raw: string; name: string | undefined; data: string; json: unknown };

/** What one event says. A tool call's channel is its key within the reply (index, item id or block index). */
export type Observation =
  | { kind: 'text'; text: string }
  | { kind: 'tool-start'; channel: string; id: string; name: string; json: boolean }
  | { kind: 'tool-args'; channel: string; text: string }
  | { kind: 'tool-end'; channel: string }
  | { kind: 'tool-end-all' }
  | { kind: 'usage'; inputTokens?: number; outputTokens?: number };

export type Usage = { inputTokens: number; outputTokens: number };

export type StreamReader = {
  observe(event: SseEvent): Observation[];
  /** The event reached the agent: what a gateway-made ending must follow from. */
  forwarded(event: SseEvent): void;
  /** The frames that end the reply with `message` as its last text, validly for the format's clients. */
  withheldEnding(message: string, usage: Usage): string;
};

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj => (value && typeof value === 'object' ? (value as Obj) : {});
const str = (value: unknown) => (typeof value === 'string' ? value : '');
const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const dataFrame = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
const namedFrame = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/** OpenAI Chat Completions: `chat.completion.chunk` frames, tool calls as `tool_calls` deltas by index, `[DONE]`. */
function chatReader(): StreamReader {
  let base: Obj = { id: `chatcmpl-${randomUUID()}`, object: 'chat.completion.chunk', created: 0, model: '' };
  return {
    observe(event) {
      const chunk = obj(event.json);
      const out: Observation[] = [];
      for (const choice of Array.isArray(chunk.choices) ? (chunk.choices as Obj[]) : []) {
        const delta = obj(choice.delta);
        if (typeof delta.content === 'string' && delta.content) out.push({ kind: 'text', text: delta.content });
        for (const call of Array.isArray(delta.tool_calls) ? (delta.tool_calls as Obj[]) : []) {
          const channel = `tool:${num(call.index)}`;
          const fn = obj(call.function);
          if (typeof call.id === 'string')
            out.push({ kind: 'tool-start', channel, id: call.id, name: str(fn.name), json: true });
          if (typeof fn.arguments === 'string' && fn.arguments)
            out.push({ kind: 'tool-args', channel, text: fn.arguments });
        }
        if (choice.finish_reason) out.push({ kind: 'tool-end-all' });
      }
      const usage = obj(chunk.usage ?? obj(chunk.x_groq).usage);
      if (chunk.usage || obj(chunk.x_groq).usage)
        out.push({ kind: 'usage', inputTokens: num(usage.prompt_tokens), outputTokens: num(usage.completion_tokens) });
      return out;
    },
    forwarded(event) {
      const chunk = obj(event.json);
      if (typeof chunk.id === 'string')
        base = { id: chunk.id, object: chunk.object, created: chunk.created, model: chunk.model };
    },
    withheldEnding(message, usage) {
      return [
        dataFrame({
          ...base,
          choices: [{ index: 0, delta: { content: message }, logprobs: null, finish_reason: null }],
        }),
        dataFrame({ ...base, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }] }),
        dataFrame({
          ...base,
          choices: [],
          usage: {
            prompt_tokens: usage.inputTokens,
            completion_tokens: usage.outputTokens,
            total_tokens: usage.inputTokens + usage.outputTokens,
          },
        }),
        'data: [DONE]\n\n',
      ].join('');
    },
  };
}

/**
 * OpenAI Responses (Codex CLI): typed events with sequence numbers; function calls (`arguments`) and custom tool
 * calls (`input`, Codex's apply_patch) are output items whose text streams as deltas; usage comes with
 * `response.completed`.
 */
function responsesReader(): StreamReader {
  let response: Obj = { id: `resp_${randomUUID()}`, object: 'response', created_at: 0, model: '' };
  let sequence = -1;
  let nextOutput = 0;
  // Characters of each tool item's arguments seen so far (by item id). The item itself may carry them whole, with or
  // without deltas before: `response.output_item.done` always does, and a server may send no deltas at all. What the
  // deltas did not bring is read from the item, so the guard and the transcript see every character.
  const seen = new Map<string, number>();
  const rest = (channel: string, item: Obj): Observation[] => {
    const whole = str(item.type === 'custom_tool_call' ? item.input : item.arguments);
    const have = seen.get(channel) ?? 0;
    if (whole.length <= have) return [];
    seen.set(channel, whole.length);
    return [{ kind: 'tool-args', channel, text: whole.slice(have) }];
  };
  return {
    observe(event) {
      const data = obj(event.json);
      const type = str(data.type) || event.name;
      const item = obj(data.item);
      const toolItem = item.type === 'function_call' || item.type === 'custom_tool_call';
      if (type === 'response.output_text.delta') return [{ kind: 'text', text: str(data.delta) }];
      if (type === 'response.output_item.added' && toolItem) {
        const channel = str(item.id);
        seen.set(channel, 0);
        return [
          {
            kind: 'tool-start',
            channel,
            id: str(item.call_id) || str(item.id),
            name: str(item.name),
            json: item.type === 'function_call',
          },
          ...rest(channel, item),
        ];
      }
      if (type === 'response.function_call_arguments.delta' || type === 'response.custom_tool_call_input.delta') {
        const channel = str(data.item_id);
        const text = str(data.delta);
        seen.set(channel, (seen.get(channel) ?? 0) + text.length);
        return [{ kind: 'tool-args', channel, text }];
      }
      if (type === 'response.output_item.done' && toolItem) {
        const channel = str(item.id);
        return [...rest(channel, item), { kind: 'tool-end', channel }];
      }
      if (type === 'response.completed' || type === 'response.incomplete' || type === 'response.failed') {
        const usage = obj(obj(data.response).usage);
        if (Object.keys(usage).length)
          return [{ kind: 'usage', inputTokens: num(usage.input_tokens), outputTokens: num(usage.output_tokens) }];
      }
      return [];
    },
    forwarded(event) {
      const data = obj(event.json);
      if (typeof data.sequence_number === 'number') sequence = Math.max(sequence, data.sequence_number);
      if (typeof data.output_index === 'number') nextOutput = Math.max(nextOutput, data.output_index + 1);
      if (data.type === 'response.created' || data.type === 'response.in_progress') response = obj(data.response);
    },
    withheldEnding(message, usage) {
      const itemId = `msg_${randomUUID().replace(/-/g, '')}`;
      const at = { item_id: itemId, output_index: nextOutput, content_index: 0 };
      const part = { type: 'output_text', text: message, annotations: [] };
      const item = { id: itemId, type: 'message', status: 'completed', role: 'assistant', content: [part] };
      const frame = (type: string, fields: Obj) => namedFrame(type, { type, sequence_number: ++sequence, ...fields });
      return [
        frame('response.output_item.added', {
          output_index: nextOutput,
          item: { ...item, status: 'in_progress', content: [] },
        }),
        frame('response.content_part.added', { ...at, part: { ...part, text: '' } }),
        frame('response.output_text.delta', { ...at, delta: message, logprobs: [] }),
        frame('response.output_text.done', { ...at, text: message, logprobs: [] }),
        frame('response.content_part.done', { ...at, part }),
        frame('response.output_item.done', { output_index: nextOutput, item }),
        frame('response.completed', {
          response: {
            ...response,
            status: 'completed',
            output: [item],
            usage: {
              input_tokens: usage.inputTokens,
              input_tokens_details: { cached_tokens: 0 },
              output_tokens: usage.outputTokens,
              output_tokens_details: { reasoning_tokens: 0 },
              total_tokens: usage.inputTokens + usage.outputTokens,
            },
          },
        }),
      ].join('');
    },
  };
}

/**
 * Anthropic Messages (Claude Code): message_start (input usage, cache reads and writes included), content blocks
 * (text, tool_use whose input streams as input_json_delta), message_delta (output usage), message_stop.
 */
function anthropicReader(): StreamReader {
  let nextIndex = 0;
  /** The block the agent has seen start and not stop, and whether it is text. */
  let open: { index: number; text: boolean } | undefined;
  return {
    observe(event) {
      const data = obj(event.json);
      const type = str(data.type) || event.name;
      const channel = `block:${num(data.index)}`;
      if (type === 'message_start') {
        const usage = obj(obj(data.message).usage);
        const input =
          num(usage.input_tokens) + num(usage.cache_creation_input_tokens) + num(usage.cache_read_input_tokens);
        return [{ kind: 'usage', inputTokens: input, outputTokens: num(usage.output_tokens) }];
      }
      if (type === 'content_block_start') {
        const block = obj(data.content_block);
        if (block.type === 'tool_use' || block.type === 'server_tool_use')
          return [{ kind: 'tool-start', channel, id: str(block.id), name: str(block.name), json: true }];
        return [];
      }
      if (type === 'content_block_delta') {
        const delta = obj(data.delta);
        if (delta.type === 'text_delta') return [{ kind: 'text', text: str(delta.text) }];
        if (delta.type === 'input_json_delta') return [{ kind: 'tool-args', channel, text: str(delta.partial_json) }];
        return [];
      }
      if (type === 'content_block_stop') return [{ kind: 'tool-end', channel }];
      if (type === 'message_delta') {
        const usage = obj(data.usage);
        if ('output_tokens' in usage) return [{ kind: 'usage', outputTokens: num(usage.output_tokens) }];
      }
      return [];
    },
    forwarded(event) {
      const data = obj(event.json);
      if (data.type === 'content_block_start') {
        open = { index: num(data.index), text: obj(data.content_block).type === 'text' };
        nextIndex = Math.max(nextIndex, num(data.index) + 1);
      } else if (data.type === 'content_block_stop') open = undefined;
    },
    withheldEnding(message, usage) {
      const frames: string[] = [];
      let index = open?.index ?? nextIndex;
      if (open && !open.text) {
        frames.push(namedFrame('content_block_stop', { type: 'content_block_stop', index: open.index }));
        index = nextIndex;
      }
      if (!open || !open.text)
        frames.push(
          namedFrame('content_block_start', {
            type: 'content_block_start',
            index,
            content_block: { type: 'text', text: '' },
          }),
        );
      frames.push(
        namedFrame('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'text_delta', text: message },
        }),
        namedFrame('content_block_stop', { type: 'content_block_stop', index }),
        namedFrame('message_delta', {
          type: 'message_delta',
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { output_tokens: usage.outputTokens },
        }),
        namedFrame('message_stop', { type: 'message_stop' }),
      );
      return frames.join('');
    },
  };
}

export function streamReaderFor(wire: AgentWireFormat): StreamReader {
  if (wire === 'openai-chat') return chatReader();
  if (wire === 'openai-responses') return responsesReader();
  return anthropicReader();
}

export type ToolCallRead = { id: string; name: string; arguments: string; json: boolean };
export type ReplyRead = { text: string; toolCalls: ToolCallRead[]; usage: Usage | undefined };

/** A whole (not streamed) reply: its text, tool calls and usage. */
export function readReply(wire: AgentWireFormat, json: unknown): ReplyRead {
  const body = obj(json);
  const usage = obj(body.usage);
  if (wire === 'openai-chat') {
    const message = obj(obj((body.choices as unknown[] | undefined)?.[0]).message);
    const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as Obj[]) : [];
    return {
      text: str(message.content),
      toolCalls: calls.map((c) => ({
        id: str(c.id),
        name: str(obj(c.function).name),
        arguments: str(obj(c.function).arguments),
        json: true,
      })),
      usage: body.usage
        ? { inputTokens: num(usage.prompt_tokens), outputTokens: num(usage.completion_tokens) }
        : undefined,
    };
  }
  if (wire === 'openai-responses') {
    const output = Array.isArray(body.output) ? (body.output as Obj[]) : [];
    return {
      text: output
        .filter((item) => item.type === 'message')
        .flatMap((item) => (Array.isArray(item.content) ? (item.content as Obj[]) : []))
        .map((part) => str(part.text))
        .join(''),
      toolCalls: output
        .filter((item) => item.type === 'function_call' || item.type === 'custom_tool_call')
        .map((item) => ({
          id: str(item.call_id) || str(item.id),
          name: str(item.name),
          arguments: item.type === 'function_call' ? str(item.arguments) : str(item.input),
          json: item.type === 'function_call',
        })),
      usage: body.usage ? { inputTokens: num(usage.input_tokens), outputTokens: num(usage.output_tokens) } : undefined,
    };
  }
  const content = Array.isArray(body.content) ? (body.content as Obj[]) : [];
  return {
    text: content
      .filter((b) => b.type === 'text')
      .map((b) => str(b.text))
      .join(''),
    toolCalls: content
      .filter((b) => b.type === 'tool_use')
      .map((b) => ({ id: str(b.id), name: str(b.name), arguments: JSON.stringify(b.input ?? {}), json: true })),
    usage: body.usage
      ? {
          inputTokens:
            num(usage.input_tokens) + num(usage.cache_creation_input_tokens) + num(usage.cache_read_input_tokens),
          outputTokens: num(usage.output_tokens),
        }
      : undefined,
  };
}

/** A whole reply the guard stopped: the same reply with only `message` as its text and no tool calls. */
export function withheldReply(wire: AgentWireFormat, json: unknown, message: string): unknown {
  const body = obj(json);
  if (wire === 'openai-chat')
    return {
      ...body,
      choices: [{ index: 0, message: { role: 'assistant', content: message }, logprobs: null, finish_reason: 'stop' }],
    };
  if (wire === 'openai-responses')
    return {
      ...body,
      status: 'completed',
      output: [
        {
          id: `msg_${randomUUID().replace(/-/g, '')}`,
          type: 'message',
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: message, annotations: [] }],
        },
      ],
    };
  return { ...body, content: [{ type: 'text', text: message }], stop_reason: 'end_turn', stop_sequence: null };
}
