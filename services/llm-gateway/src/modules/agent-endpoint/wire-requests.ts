import { AGENT_TEXT_MAX, type AgentWireFormat } from '@exam/domain/workspace-agents';
import { z } from 'zod';

/**
 * What the agent endpoint reads of an agent's request in each wire format: enough to check it, to put the exam's
 * model in, and to record what was new in the call. Everything else (tools, tool choice, reasoning settings) goes to
 * the provider as the agent sent it.
 */

const role = z.string().min(1);
export const AgentBodySchemas = {
  'openai-chat': z.looseObject({
    model: z.string().optional(),
    messages: z.array(z.looseObject({ role })).min(1),
    stream: z.boolean().optional(),
  }),
  'openai-responses': z.looseObject({
    model: z.string().optional(),
    input: z.union([z.string(), z.array(z.looseObject({}))]),
    stream: z.boolean().optional(),
  }),
  'anthropic-messages': z.looseObject({
    model: z.string().optional(),
    messages: z.array(z.looseObject({ role: z.enum(['user', 'assistant']) })).min(1),
    max_tokens: z.number().int().positive(),
    stream: z.boolean().optional(),
  }),
} as const satisfies Record<AgentWireFormat, z.ZodType>;
export type AgentBody = Record<string, unknown> & { stream?: boolean | undefined };

/** Anthropic's count_tokens body: the messages (and system, tools) a Messages call would send. */
export const CountTokensBodySchema = z.looseObject({
  model: z.string().optional(),
  messages: z.array(z.looseObject({ role: z.enum(['user', 'assistant']) })).min(1),
});

/** A request body as the provider gets it: the exam's model whatever the agent asked, and usage in the stream. */
export function upstreamBody(wire: AgentWireFormat, body: AgentBody, model: string): string {
  const out: Record<string, unknown> = { ...body, model };
  // Chat Completions streams report usage only when asked; the budgets need it (the chunk is part of the format).
  if (wire === 'openai-chat' && body.stream === true) {
    const asked = (body.stream_options ?? {}) as Record<string, unknown>;
    out.stream_options = { ...asked, include_usage: true };
  }
  return JSON.stringify(out);
}

export const capText = (text: string) => (text.length > AGENT_TEXT_MAX ? text.slice(0, AGENT_TEXT_MAX) : text);

/** The text of a content value: a string, or parts with `text` (OpenAI's input_text/text, Anthropic's text blocks). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) =>
      part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string'
        ? (part as { text: string }).text
        : '',
    )
    .filter(Boolean)
    .join('\n');
}

export type CallInput = { input: string; toolResults: Array<{ callId: string; output: string }> };

type Item = Record<string, unknown>;
const str = (value: unknown) => (typeof value === 'string' ? value : '');

/** The trailing items of a conversation that `take` answers for, oldest first. */
function trailing<T>(items: readonly Item[], take: (item: Item) => T | undefined): T[] {
  const out: T[] = [];
  for (let i = items.length - 1; i >= 0; i--) {
    const value = take(items[i]!);
    if (value === undefined) break;
    out.unshift(value);
  }
  return out;
}

function chatInput(body: AgentBody): CallInput {
  const messages = (body.messages ?? []) as Item[];
  const last = messages.at(-1);
  if (last?.role === 'user') return { input: textOf(last.content), toolResults: [] };
  const toolResults = trailing(messages, (m) =>
    m.role === 'tool' ? { callId: str(m.tool_call_id), output: textOf(m.content) } : undefined,
  );
  return { input: '', toolResults };
}

function responsesInput(body: AgentBody): CallInput {
  if (typeof body.input === 'string') return { input: body.input, toolResults: [] };
  const items = (body.input ?? []) as Item[];
  const last = items.at(-1);
  if (last && (last.type === 'message' || last.type === undefined) && last.role === 'user')
    return { input: textOf(last.content), toolResults: [] };
  const toolResults = trailing(items, (item) =>
    item.type === 'function_call_output' || item.type === 'custom_tool_call_output'
      ? { callId: str(item.call_id), output: textOf(item.output) }
      : undefined,
  );
  return { input: '', toolResults };
}

function anthropicInput(body: AgentBody): CallInput {
  const last = ((body.messages ?? []) as Item[]).at(-1);
  if (!last || last.role !== 'user') return { input: '', toolResults: [] };
  if (typeof last.content === 'string') return { input: last.content, toolResults: [] };
  const blocks = Array.isArray(last.content) ? (last.content as Item[]) : [];
  const input = blocks
    .filter((b) => b.type === 'text')
    .map((b) => str(b.text))
    .join('\n');
  const toolResults = blocks
    .filter((b) => b.type === 'tool_result')
    .map((b) => ({ callId: str(b.tool_use_id), output: textOf(b.content) }));
  return { input, toolResults };
}

/**
 * What the agent sent that was new in this call (AgentCall.input and toolResults): the last user message, or the
 * tool results it carries back; `input` is then those results as text. Each text is capped at AGENT_TEXT_MAX.
 */
export function callInputOf(wire: AgentWireFormat, body: AgentBody): CallInput {
  const read =
    wire === 'openai-chat'
      ? chatInput(body)
      : wire === 'openai-responses'
        ? responsesInput(body)
        : anthropicInput(body);
  const toolResults = read.toolResults.map((r) => ({ callId: r.callId, output: capText(r.output) }));
  const input = read.input || read.toolResults.map((r) => r.output).join('\n');
  return { input: capText(input), toolResults };
}
