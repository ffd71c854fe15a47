import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { plantedErrorOfInstruction } from '@exam/domain/planted-errors';

/** One request the fake received, as the gateway sent it. */
export type RecordedRequest = { method: string; path: string; headers: IncomingHttpHeaders; body: ChatCompletionBody };

export type ChatCompletionBody = {
  model?: string;
  messages?: Array<{ role: string; content: unknown }>;
  temperature?: number;
  max_tokens?: number;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  /** Structured output, as llm-gateway asks for AI-suggested marks: `json_schema`, strict. */
  response_format?: {
    type: string;
    json_schema?: { name: string; description?: string; strict?: boolean; schema: unknown };
  };
};

/**
 * The planted error the gateway asked this chat's reply to state (reliance calibration), read from the system (or
 * developer) message with the domain's own parser of the instruction llm-gateway writes, so the two cannot drift.
 */
export function plantedErrorOf(body: ChatCompletionBody): { error: string; questionNumber: number } | undefined {
  for (const message of body.messages ?? []) {
    if ((message.role === 'system' || message.role === 'developer') && typeof message.content === 'string') {
      const planted = plantedErrorOfInstruction(message.content);
      if (planted) return planted;
    }
  }
  return undefined;
}

/** What the fake streams on a planted turn unless the journey scripts its own: a confident reply stating the error. */
export const plantedReply = (error: string, questionNumber: number): ReplyStep[] => [
  { text: `For Q${questionNumber}, ` },
  { text: 'I am fairly sure the answer is ' },
  { text: error },
  { text: '.' },
];

/** Whether the gateway asked for structured output (a grading suggestion) rather than a chat reply. */
export const isStructuredRequest = (body: ChatCompletionBody) => body.response_format?.type === 'json_schema';

/** Whether the structured request is the collaboration profile's (llm-gateway's COLLABORATION_FORMAT). */
export const isCollaborationRequest = (body: ChatCompletionBody) =>
  body.response_format?.json_schema?.name === 'collaboration_suggestion';

/**
 * The candidate's own messages in a collaboration request: the gateway sends the conversation as one user message,
 * each turn a block `[user, question N]` (or `[user]`) and its text, blocks a blank line apart.
 */
export function candidateMessagesOf(body: ChatCompletionBody): string[] {
  const conversation = body.messages?.find((m) => m.role === 'user')?.content;
  if (typeof conversation !== 'string') return [];
  return conversation
    .split('\n\n')
    .filter((block) => /^\[user(, question \d+)?\]\n/.test(block))
    .map((block) => block.slice(block.indexOf('\n') + 1))
    .filter((text) => text.trim() !== '');
}

/**
 * A valid collaboration suggestion for the request, quoting the candidate's own first message (and any message
 * that pushes back): framing 3 when they asked a question, else 1; verification 4 when they said the assistant
 * was wrong, else 1. Deterministic, so a journey can assert on it.
 */
export function collaborationReplyFor(body: ChatCompletionBody) {
  const said = candidateMessagesOf(body);
  const quoteOf = (text: string) => text.trim().slice(0, 80).trim();
  const asked = said.filter((text) => text.includes('?'));
  const pushed = said.filter((text) => /wrong|incorrect/i.test(text));
  return {
    framing: {
      level: asked.length > 0 ? 3 : 1,
      rationale:
        asked.length > 0 ? 'Asks questions about the problem.' : 'Asks for answers rather than about the problem.',
      quotes: said.slice(0, 1).map(quoteOf),
    },
    verification: {
      level: pushed.length > 0 ? 4 : 1,
      rationale: pushed.length > 0 ? 'Pushes back when the assistant is wrong.' : 'Takes the replies on trust.',
      quotes: pushed.slice(0, 1).map(quoteOf),
    },
  };
}

/**
 * A step of the scripted reply: a piece of text sent as one chunk, or a gate the stream waits at until
 * the test opens it, so a journey can look at the page while the reply is provably half-way.
 */
export type ReplyStep = { text: string } | { gate: string };

export type FakeOpenAi = {
  readonly requests: RecordedRequest[];
  /** Resolves once the stream has reached this gate (the text before it has been written). */
  reached(gate: string): Promise<void>;
  /** Lets the stream go past this gate. */
  open(gate: string): void;
  close(): Promise<void>;
};

type Deferred = { promise: Promise<void>; resolve: () => void };
type Gate = { reached: Deferred; opened: Deferred };

// Promise.withResolvers is ES2024; this package's lib stops at ES2023.
function deferred(): Deferred {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** A structured reply is split over this many content chunks, this far apart: several reads, as from the real API. */
const STRUCTURED_CHUNKS = 5;
const STRUCTURED_GAP_MS = 10;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function sse(response: ServerResponse, payload: unknown): void {
  response.write(`data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`);
}

/**
 * An OpenAI-compatible upstream for the journeys (the gateway reaches it through OPENAI_BASE_URL):
 * `POST /v1/chat/completions` with `stream: true` answers the scripted reply as the real API streams
 * it, `chat.completion.chunk` events written `delayMs` apart, a last chunk with finish_reason 'stop',
 * the usage chunk when `stream_options.include_usage` asks for it, then `data: [DONE]`. A request for structured
 * output is answered by `grade` instead (by `collaborate` for the collaboration profile's): the object's JSON text
 * split over several chunks, as strict `json_schema` replies stream. A chat whose system message carries
 * llm-gateway's planted-error instruction (@exam/domain/planted-errors) is answered by `planted` instead, which by
 * default states the error, as an obedient model would; every other chat gets the scripted reply. Every request is
 * recorded, in arrival order.
 */
export async function startFakeOpenAi(options: {
  port: number;
  /** The scripted reply, or one written from the request (the question the prompt says the candidate looks at…). */
  reply: ReplyStep[] | ((body: ChatCompletionBody) => ReplyStep[]);
  delayMs?: number;
  /**
   * Answers a structured-output request (`response_format.type === 'json_schema'`, a grading suggestion): the
   * object returned is the sample, streamed as its JSON text. Without it such a request gets a 400.
   */
  grade?: (body: ChatCompletionBody) => unknown;
  /**
   * Answers a collaboration-profile request (json_schema named `collaboration_suggestion`); by default
   * collaborationReplyFor, a valid reply quoting the request's own candidate messages.
   */
  collaborate?: (body: ChatCompletionBody) => unknown;
  /** The reply to a planted turn (default `plantedReply`: states the error); a journey may leave the error out. */
  planted?: (error: string, questionNumber: number) => ReplyStep[];
}): Promise<FakeOpenAi> {
  const delayMs = options.delayMs ?? 120;
  const requests: RecordedRequest[] = [];
  const gates = new Map<string, Gate>();
  const gateOf = (name: string): Gate => {
    let gate = gates.get(name);
    if (!gate) {
      gate = { reached: deferred(), opened: deferred() };
      gates.set(name, gate);
    }
    return gate;
  };
  let sequence = 0;

  async function stream(response: ServerResponse, body: ChatCompletionBody): Promise<void> {
    sequence += 1;
    const id = `chatcmpl-e2e-${sequence}`;
    const created = Math.floor(Date.now() / 1000);
    const chunk = (delta: Record<string, string>, finishReason: string | null) => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model: body.model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    });
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    response.flushHeaders();
    sse(response, chunk({ role: 'assistant', content: '' }, null));
    let completionTokens = 0;
    const planted = plantedErrorOf(body);
    const steps = planted
      ? (options.planted ?? plantedReply)(planted.error, planted.questionNumber)
      : typeof options.reply === 'function'
        ? options.reply(body)
        : options.reply;
    for (const step of steps) {
      if ('gate' in step) {
        const gate = gateOf(step.gate);
        gate.reached.resolve();
        await gate.opened.promise;
        continue;
      }
      await sleep(delayMs);
      sse(response, chunk({ content: step.text }, null));
      completionTokens += 1;
    }
    sse(response, chunk({}, 'stop'));
    if (body.stream_options?.include_usage) {
      sse(response, {
        id,
        object: 'chat.completion.chunk',
        created,
        model: body.model,
        choices: [],
        usage: { prompt_tokens: 42, completion_tokens: completionTokens, total_tokens: 42 + completionTokens },
      });
    }
    sse(response, '[DONE]');
    response.end();
  }

  /** The object `answer` returns, streamed as the real API streams structured output: JSON text in content deltas. */
  async function streamStructured(
    response: ServerResponse,
    body: ChatCompletionBody,
    answer: ((body: ChatCompletionBody) => unknown) | undefined,
  ) {
    sequence += 1;
    const id = `chatcmpl-e2e-${sequence}`;
    const created = Math.floor(Date.now() / 1000);
    const chunk = (delta: Record<string, string>, finishReason: string | null) => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model: body.model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    });
    const text = JSON.stringify(await answer!(body));
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    response.flushHeaders();
    sse(response, chunk({ role: 'assistant', content: '' }, null));
    const size = Math.max(1, Math.ceil(text.length / STRUCTURED_CHUNKS));
    for (let at = 0; at < text.length; at += size) {
      await sleep(STRUCTURED_GAP_MS);
      sse(response, chunk({ content: text.slice(at, at + size) }, null));
    }
    sse(response, chunk({}, 'stop'));
    if (body.stream_options?.include_usage) {
      // About four characters a token, as OpenAI's own rule of thumb says.
      const promptTokens = Math.ceil(JSON.stringify(body.messages ?? []).length / 4);
      const completionTokens = Math.ceil(text.length / 4);
      sse(response, {
        id,
        object: 'chat.completion.chunk',
        created,
        model: body.model,
        choices: [],
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
        },
      });
    }
    sse(response, '[DONE]');
    response.end();
  }

  const server: Server = createServer((request, response) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (part: string) => (raw += part));
    request.on('end', () => {
      const path = request.url ?? '';
      if (request.method !== 'POST' || path !== '/v1/chat/completions') {
        response
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: `no route ${request.method} ${path}` } }));
        return;
      }
      const body = JSON.parse(raw) as ChatCompletionBody;
      requests.push({ method: request.method, path, headers: request.headers, body });
      if (body.stream !== true) {
        response
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'this fake only streams' } }));
        return;
      }
      if (isCollaborationRequest(body)) {
        streamStructured(response, body, options.collaborate ?? collaborationReplyFor).catch((error: unknown) =>
          response.destroy(error instanceof Error ? error : new Error(String(error))),
        );
        return;
      }
      if (isStructuredRequest(body)) {
        if (!options.grade) {
          response
            .writeHead(400, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: { message: 'this fake was started without a grade callback' } }));
          return;
        }
        streamStructured(response, body, options.grade).catch((error: unknown) =>
          response.destroy(error instanceof Error ? error : new Error(String(error))),
        );
        return;
      }
      stream(response, body).catch((error: unknown) =>
        response.destroy(error instanceof Error ? error : new Error(String(error))),
      );
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  if ((server.address() as AddressInfo).port !== options.port)
    throw new Error('the fake OpenAI server is not on its port');

  return {
    requests,
    reached: (gate) => gateOf(gate).reached.promise,
    open: (gate) => gateOf(gate).opened.resolve(),
    async close() {
      // A stream still waiting at a gate would keep its connection, and close(), open.
      for (const gate of gates.values()) gate.opened.resolve();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
