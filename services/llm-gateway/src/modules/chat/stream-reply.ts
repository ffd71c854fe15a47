import type { ServerResponse } from 'node:http';
import { LlmMessages, type ChatStreamEvent, type TokenUsage } from '@exam/domain/llm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LlmClient } from '../../providers/types.ts';
import { UpstreamError } from '../../providers/types.ts';
import type { PreparedChat } from './chat.service.ts';

/** Replaces every secret in a text (provider error messages sometimes echo part of a key). */
export function redactSecrets(text: string, secrets: string[]): string {
  return secrets.filter((s) => s.length >= 4).reduce((acc, secret) => acc.split(secret).join('[redacted]'), text);
}

// Only when still corked: uncorking an uncorked response unbalances its cork count.
const uncork = (raw: ServerResponse) => {
  if (raw.writableCorked) raw.uncork();
};

/**
 * Writes one SSE frame; waits for the socket to drain when its buffer is full, or for it to close.
 * Frames written in the same tick (several tokens that arrived in one upstream read, which happens when
 * the gateway is busy) leave in one system call: the response is corked until the next tick. It must be
 * uncorked before end(): Node writes the last chunk of a corked chunked response after its terminator.
 */
async function send(raw: ServerResponse, event: ChatStreamEvent): Promise<void> {
  if (raw.destroyed || raw.writableEnded) return;
  if (!raw.writableCorked) {
    raw.cork();
    process.nextTick(uncork, raw);
  }
  if (raw.write(`data: ${JSON.stringify(event)}\n\n`)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      raw.off('drain', done);
      raw.off('close', done);
      resolve();
    };
    raw.once('drain', done);
    raw.once('close', done);
  });
}

/**
 * Streams the provider's reply to the browser as server-sent events, frame by frame. A candidate who
 * leaves aborts the upstream call, and what had arrived is stored as a partial reply. Any upstream
 * failure or timeout becomes the spec's error reply (section 8); its detail goes to the log, keys redacted.
 */
export async function streamReply(request: FastifyRequest, reply: FastifyReply, llm: LlmClient, chat: PreparedChat, estimate: (output: string) => TokenUsage) {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': request.id,
  });
  raw.flushHeaders();

  const upstream = new AbortController();
  let clientGone = false;
  const onClose = () => {
    if (raw.writableFinished) return;
    clientGone = true;
    upstream.abort();
  };
  raw.on('close', onClose);

  let text = '';
  let usage: TokenUsage | undefined;
  try {
    for await (const chunk of llm.stream(chat.request, upstream.signal)) {
      if (chunk.type === 'delta') {
        text += chunk.text;
        await send(raw, { type: 'delta', text: chunk.text });
      } else {
        usage = { inputTokens: chunk.inputTokens, outputTokens: chunk.outputTokens, estimated: false };
      }
      if (clientGone) break;
    }
    if (clientGone) {
      await chat.finish({ kind: 'disconnected', text });
      return;
    }
    const final = usage ?? estimate(text);
    const messageId = await chat.finish({ kind: 'done', text, usage: final });
    await send(raw, { type: 'done', messageId, usage: final });
  } catch (err) {
    if (clientGone) {
      await chat.finish({ kind: 'disconnected', text }).catch((e: unknown) => request.log.error({ err: e }, 'could not store the partial reply'));
      return;
    }
    const reason = redactSecrets(err instanceof Error ? err.message : String(err), chat.secrets);
    const status = err instanceof UpstreamError ? err.status : undefined;
    request.log.warn({ provider: chat.request.provider, model: chat.request.model, upstreamStatus: status, reason }, 'assistant reply failed');
    await chat.finish({ kind: 'error', text }).catch((e: unknown) => request.log.error({ err: e }, 'could not store the error reply'));
    await send(raw, { type: 'error', message: LlmMessages.chatError });
  } finally {
    raw.off('close', onClose);
    uncork(raw);
    if (!raw.writableEnded) raw.end();
  }
}
