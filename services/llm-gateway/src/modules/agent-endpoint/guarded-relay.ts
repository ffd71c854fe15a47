import type { AgentToolCall, AgentWireFormat } from '@exam/domain/workspace-agents';
import { AnswerGuard, type AnswerKey, type OptionKey } from '../chat/answer-guard.ts';
import { capText } from './wire-requests.ts';
import { streamReaderFor, type ReplyRead, type SseEvent, type Usage } from './wire-replies.ts';

/** The "stop solutions" keys a reply is checked against; undefined when the guardrail is off. */
export type GuardKeys = { keys: AnswerKey[]; options: OptionKey[] } | undefined;

/** How a relayed reply ended, and what of it reached the agent. */
export type RelayOutcome = {
  status: 'ok' | 'withheld' | 'error';
  reason: string | null;
  reply: string;
  toolCalls: AgentToolCall[];
  usage: Usage | undefined;
  /** Characters the provider sent (text and tool arguments), for an estimate when it reported no usage. */
  receivedChars: number;
};

const newGuard = (keys: NonNullable<GuardKeys>) => new AnswerGuard(keys.keys, { options: keys.options });

/**
 * JSON string escapes decoded as they stream, so the guard reads a tool call's arguments as the text they carry
 * (`"print(\"skin\")\n"` is the word skin): an escape split across two deltas waits for its end.
 */
export function jsonEscapeDecoder() {
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' };
  let tail = '';
  return (text: string): string => {
    const s = tail + text;
    tail = '';
    let out = '';
    for (let i = 0; i < s.length;) {
      if (s[i] !== '\\') {
        out += s[i];
        i += 1;
        continue;
      }
      const next = s[i + 1];
      if (next === undefined || (next === 'u' && i + 6 > s.length)) {
        tail = s.slice(i);
        break;
      }
      if (next === 'u') {
        const code = Number.parseInt(s.slice(i + 2, i + 6), 16);
        out += Number.isNaN(code) ? s.slice(i, i + 6) : String.fromCharCode(code);
        i += 6;
      } else {
        out += simple[next] ?? next;
        i += 2;
      }
    }
    return out;
  };
}

/** Splits a server-sent event stream into whole events, each with its raw text as it arrived. */
export function sseEventSplitter() {
  let buffer = '';
  const parse = (raw: string): SseEvent => {
    let name: string | undefined;
    const data: string[] = [];
    for (const line of raw.split(/\r\n|\r|\n/)) {
      if (line.startsWith('event:')) name = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5));
    }
    const text = data.join('\n');
    let json: unknown;
    if (text && text !== '[DONE]') {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    return { raw, name, data: text, json };
  };
  return {
    push(text: string): SseEvent[] {
      buffer += text;
      const events: SseEvent[] = [];
      const terminator = /\r\n\r\n|\n\n|\r\r/g;
      let start = 0;
      for (let m = terminator.exec(buffer); m; m = terminator.exec(buffer)) {
        const end = m.index + m[0].length;
        events.push(parse(buffer.slice(start, end)));
        start = end;
      }
      buffer = buffer.slice(start);
      return events;
    },
    end(): SseEvent[] {
      const rest = buffer;
      buffer = '';
      return rest.trim() ? [parse(rest)] : [];
    },
  };
}

type ToolChannel = {
  call: AgentToolCall;
  json: boolean;
  guard: AnswerGuard | undefined;
  decode: (text: string) => string;
  closed: boolean;
  /** Closed and passed by the guard: its events may go on to the agent. */
  cleared: boolean;
};
/** An event waiting for the guard: the channel whose text it carries, how far into it, and its share of the text. */
type Pending = { event: SseEvent; channel: string | undefined; upTo: number; text: string };

/**
 * Relays a provider's event stream to the agent event by event, as it arrives, and reads it as it goes: the text
 * and each tool call's arguments pass through an AnswerGuard when "stop solutions" is on. An event waits only while
 * the guard holds text it carries (a tail that may still become a key), and a tool call's events wait until the call
 * is complete and its arguments passed, so a stopped reply never hands the agent half a tool call. When the guard
 * trips, nothing more is read or sent: the reply ends with the format's own events and `withheldMessage` as its
 * last text.
 */
export function createGuardedRelay(opts: {
  wire: AgentWireFormat;
  guard: GuardKeys;
  withheldMessage: string;
  write: (text: string) => void;
}) {
  const reader = streamReaderFor(opts.wire);
  const splitter = sseEventSplitter();
  const textGuard = opts.guard ? newGuard(opts.guard) : undefined;
  const text = { pushed: 0, released: 0 };
  const tools = new Map<string, ToolChannel>();
  const queue: Pending[] = [];
  const outcome: RelayOutcome = {
    status: 'ok',
    reason: null,
    reply: '',
    toolCalls: [],
    usage: undefined,
    receivedChars: 0,
  };
  let leaked = false;

  const toolOf = (channel: string): ToolChannel => {
    let tool = tools.get(channel);
    if (!tool) {
      tool = {
        call: { id: '', name: '', arguments: '' },
        json: true,
        guard: opts.guard ? newGuard(opts.guard) : undefined,
        decode: jsonEscapeDecoder(),
        closed: false,
        cleared: false,
      };
      tools.set(channel, tool);
    }
    return tool;
  };
  const close = (tool: ToolChannel) => {
    if (tool.closed) return;
    tool.closed = true;
    if (tool.guard?.end().leak) {
      leaked = true;
      return;
    }
    tool.cleared = true;
    outcome.toolCalls.push({ ...tool.call, arguments: capText(tool.call.arguments) });
  };

  const read = (event: SseEvent): string | undefined => {
    let channel: string | undefined;
    let upTo = 0;
    let carried = '';
    for (const o of reader.observe(event)) {
      if (o.kind === 'text') {
        outcome.receivedChars += o.text.length;
        const step = textGuard ? textGuard.push(o.text) : { release: o.text, leak: undefined };
        text.pushed += o.text.length;
        text.released += step.release.length;
        carried += o.text;
        if (step.leak) leaked = true;
        channel = 'text';
        upTo = text.pushed;
      } else if (o.kind === 'tool-start') {
        const tool = toolOf(o.channel);
        tool.call.id = o.id;
        tool.call.name = o.name;
        tool.json = o.json;
        channel = o.channel;
      } else if (o.kind === 'tool-args') {
        const tool = toolOf(o.channel);
        outcome.receivedChars += o.text.length;
        tool.call.arguments += o.text;
        if (tool.guard?.push(tool.json ? tool.decode(o.text) : o.text).leak) leaked = true;
        channel = o.channel;
      } else if (o.kind === 'tool-end') {
        const tool = tools.get(o.channel);
        if (tool) close(tool);
      } else if (o.kind === 'tool-end-all') {
        for (const tool of tools.values()) close(tool);
      } else {
        outcome.usage = {
          inputTokens: o.inputTokens ?? outcome.usage?.inputTokens ?? 0,
          outputTokens: o.outputTokens ?? outcome.usage?.outputTokens ?? 0,
        };
      }
      if (leaked) return undefined;
    }
    queue.push({ event, channel, upTo, text: carried });
    return flush();
  };

  const releasable = (p: Pending) => {
    if (!opts.guard || p.channel === undefined) return true;
    if (p.channel === 'text') return p.upTo <= text.released;
    return tools.get(p.channel)?.cleared ?? true;
  };
  const flush = (): string => {
    let out = '';
    while (queue.length && releasable(queue[0]!)) {
      const { event, text: shown } = queue.shift()!;
      reader.forwarded(event);
      // The reply as stored is what reached the agent: the text of the events sent on.
      outcome.reply += shown;
      out += event.raw;
    }
    return out;
  };
  const send = (out: string | undefined) => {
    if (out) opts.write(out);
  };
  const endWithheld = () => {
    queue.length = 0;
    outcome.status = 'withheld';
    outcome.reason = 'The answer guard stopped a reply that gave an answer away';
    const message = outcome.reply ? `\n\n${opts.withheldMessage}` : opts.withheldMessage;
    outcome.reply += message;
    opts.write(reader.withheldEnding(message, outcome.usage ?? { inputTokens: 0, outputTokens: 0 }));
  };

  return {
    outcome,
    /** Takes the next piece of the body; false once the guard stopped the reply (read no more). */
    push(piece: string): boolean {
      let out = '';
      for (const event of splitter.push(piece)) {
        const released = read(event);
        if (leaked) {
          send(out);
          endWithheld();
          return false;
        }
        out += released ?? '';
      }
      send(out);
      return true;
    },
    /** The body ended: the guard's held tail is checked, and everything still waiting goes on. */
    end(): void {
      let out = '';
      for (const event of splitter.end()) {
        out += read(event) ?? '';
        if (leaked) break;
      }
      if (!leaked && textGuard) {
        const step = textGuard.end();
        text.released += step.release.length;
        if (step.leak) leaked = true;
      }
      if (!leaked) for (const tool of tools.values()) close(tool);
      if (leaked) {
        send(out);
        endWithheld();
        return;
      }
      send(out + flush());
    },
  };
}

/** A whole reply checked by the guard: whether it gives an answer away, in its text or any tool call's arguments. */
export function replyLeaks(read: ReplyRead, guard: GuardKeys): boolean {
  if (!guard) return false;
  const check = (text: string) => {
    const g = newGuard(guard);
    return g.push(text).leak !== undefined || g.end().leak !== undefined;
  };
  return (
    check(read.text) ||
    read.toolCalls.some((call) => check(call.json ? jsonEscapeDecoder()(call.arguments) : call.arguments))
  );
}
