import type { Writable } from 'node:stream';
import { LlmMessages, type ChatStreamEvent, type TokenUsage } from '@exam/domain/llm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LlmClient } from '../../adapters/providers/types.ts';
import { UpstreamError } from '../../adapters/providers/types.ts';
import { AnswerGuard, type AnswerKey, type GuardStep } from './answer-guard.ts';
import type { PreparedChat, StoredReply } from './prepared-chat.ts';

/** Replaces every secret in a text (provider error messages sometimes echo part of a key). */
export function redactSecrets(text: string, secrets: string[]): string {
  return secrets.filter((s) => s.length >= 4).reduce((acc, secret) => acc.split(secret).join('[redacted]'), text);
}

type FrameSink = Pick<Writable, 'write' | 'once' | 'off' | 'destroyed' | 'writableEnded'>;
type Corkable = Pick<Writable, 'cork' | 'uncork' | 'writableCorked'>;

// Only when still corked: uncorking an uncorked stream unbalances its cork count.
const uncork = (target: Corkable) => {
  if (target.writableCorked) target.uncork();
};

/**
 * Writes SSE frames to one response. An urgent frame (the first token, done, error) leaves at once, with
 * anything held before it. Other tokens are held for up to `coalesceMs` and leave together: one write (one
 * system call, one wake-up of the reader) for several tokens instead of one each, which at thousands of
 * open streams is most of the gateway's work, while a reader cannot tell 40 ms apart in text that appears
 * word by word. With coalesceMs 0, frames written in the same tick still leave in one write.
 *
 * What is corked is the response's socket, not the response: a corked ServerResponse keeps the chunks
 * itself and on uncork hands the socket the chunk size, each frame and the CRLF one by one, one system
 * call each (strace showed five writes for two frames); a corked socket sends them all in one writev.
 */
export class SseWriter {
  #timer: NodeJS.Timeout | undefined;
  readonly #raw: FrameSink;
  readonly #cork: Corkable;
  readonly #coalesceMs: number;

  constructor(raw: FrameSink, cork: Corkable, coalesceMs: number) {
    this.#raw = raw;
    this.#cork = cork;
    this.#coalesceMs = coalesceMs;
  }

  /** Writes one frame; waits for the socket to drain when its buffer is full, or for it to close. */
  async send(event: ChatStreamEvent, urgent: boolean): Promise<void> {
    const raw = this.#raw;
    const cork = this.#cork;
    if (raw.destroyed || raw.writableEnded) return;
    if (!cork.writableCorked) {
      cork.cork();
      if (urgent || this.#coalesceMs <= 0) process.nextTick(uncork, cork);
      else this.#timer = setTimeout(() => this.#flush(), this.#coalesceMs);
    } else if (urgent && this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      process.nextTick(uncork, cork);
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

  /** Sends whatever is held, now. */
  close(): void {
    this.#flush();
  }

  #flush() {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    uncork(this.#cork);
  }
}

/**
 * The replica's drain signal (`streamsEnd`, server-kit's lifecycle) fanned out to the replies streaming on it:
 * one listener on the AbortSignal and a Set of streams. An AbortSignal walks its whole list of listeners on every
 * add and remove, which with thousands of open streams cost each new chat a walk of all the others.
 */
export class StreamsEnd {
  readonly #signal: AbortSignal;
  readonly #streams = new Set<() => void>();

  constructor(signal: AbortSignal) {
    this.#signal = signal;
    signal.addEventListener(
      'abort',
      () => {
        for (const end of [...this.#streams]) end();
        this.#streams.clear();
      },
      { once: true },
    );
  }

  /** Calls onEnd when the drain time is up, at once if it is already; answers the function that stops listening. */
  listen(onEnd: () => void): () => void {
    if (this.#signal.aborted) {
      onEnd();
      return () => {};
    }
    this.#streams.add(onEnd);
    return () => this.#streams.delete(onEnd);
  }
}

/**
 * Streams the provider's reply to the browser as server-sent events, frame by frame. A candidate who
 * leaves aborts the upstream call, and what had arrived is stored as a partial reply. Any upstream
 * failure or timeout becomes the one error reply the candidate sees (LlmMessages.chatError); its detail goes
 * to the log, keys redacted. When the chat carries answer keys (the "stop solutions" guardrail), the text
 * passes through an AnswerGuard first: a reply about to give a key away is cut off upstream, ends with a
 * withheld event, and is stored as what the candidate saw.
 *
 * When the replica shuts down and its drain time is up (`streamsEnd`, server-kit's lifecycle), a reply still
 * streaming is stopped upstream, stored as partial, and ends with an `interrupted` event: the browser sends the
 * message again (same clientMessageId) and another replica generates it again in its place. A message whose
 * reply was completed before is replayed as stored instead (`chat.replay`).
 */
export async function streamReply(
  request: FastifyRequest,
  reply: FastifyReply,
  llm: LlmClient,
  chat: PreparedChat,
  estimate: (output: string) => TokenUsage,
  opts: { coalesceMs: number; streamsEnd: StreamsEnd },
) {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': request.id,
  });
  // The head is not flushed on its own: it leaves with the first frame (the first token, or the error or replay
  // that takes its place), in the same write. A flush here cost one more system call per chat.
  // A response whose client already left has no socket, and writes nothing.
  const frames = new SseWriter(raw, raw.socket ?? raw, opts.coalesceMs);
  if (chat.replay) {
    await replayReply(frames, chat.replay);
    // Ending the response uncorks its socket: the last frames and the end of the body leave in one write.
    raw.end();
    frames.close();
    return;
  }

  const upstream = new AbortController();
  let clientGone = false;
  const onClose = () => {
    if (raw.writableFinished) return;
    clientGone = true;
    upstream.abort();
  };
  raw.on('close', onClose);
  let interrupted = false;
  const onStreamsEnd = () => {
    interrupted = true;
    upstream.abort();
  };
  const stopListening = opts.streamsEnd.listen(onStreamsEnd);

  const guard =
    chat.answerKeys.length || chat.answerOptions?.length
      ? new AnswerGuard(chat.answerKeys, {
          ...(chat.answerOptions ? { options: chat.answerOptions } : {}),
          ...(chat.earlierReplies ? { earlier: chat.earlierReplies } : {}),
        })
      : undefined;
  /** What arrived from the provider, and what of it was sent to the browser. */
  let received = '';
  let text = '';
  let sentFirst = false;
  let usage: TokenUsage | undefined;
  let leak: AnswerKey | undefined;
  const forward = async (step: GuardStep) => {
    leak = step.leak;
    if (!step.release) return;
    text += step.release;
    await frames.send({ type: 'delta', text: step.release }, !sentFirst);
    sentFirst = true;
  };
  /** Stores what arrived as a partial reply (replaced when the browser retries) and tells the browser to retry. */
  const endInterrupted = async () => {
    request.log.info('the replica is shutting down: a reply still streaming was interrupted');
    await chat.transcript
      .partial(text, received)
      .catch((e: unknown) => request.log.error({ err: e }, 'could not store the partial reply'));
    await frames.send({ type: 'interrupted' }, true);
  };
  /** Set when the loop is left because of the drain, not because the provider finished. */
  let cutShort = false;
  try {
    for await (const chunk of llm.stream(chat.request, upstream.signal)) {
      if (chunk.type === 'delta') {
        received += chunk.text;
        await forward(guard ? guard.push(chunk.text) : { release: chunk.text, leak: undefined });
        // Nothing after the key may be read or sent: leaving the loop closes the upstream stream.
        if (leak) break;
      } else {
        usage = { inputTokens: chunk.inputTokens, outputTokens: chunk.outputTokens, estimated: false };
      }
      if (clientGone) break;
      if (interrupted) {
        cutShort = true;
        break;
      }
    }
    if (clientGone) {
      await chat.transcript.partial(text, received);
      return;
    }
    if (cutShort) {
      await endInterrupted();
      return;
    }
    if (guard && !leak) await forward(guard.end());
    if (leak) {
      upstream.abort();
      request.log.info({ questionIndex: leak.questionIndex }, 'the guardrail stopped a reply that gave an answer away');
      const messageId = await chat.transcript.withheld(text, received, leak.questionIndex);
      await frames.send({ type: 'withheld', messageId, message: LlmMessages.answerWithheld }, true);
      return;
    }
    const final = usage ?? estimate(text);
    const messageId = await chat.transcript.done(text, final);
    await frames.send({ type: 'done', messageId, usage: final }, true);
  } catch (err) {
    if (interrupted && !clientGone) {
      await endInterrupted();
      return;
    }
    if (clientGone) {
      await chat.transcript
        .partial(text, received)
        .catch((e: unknown) => request.log.error({ err: e }, 'could not store the partial reply'));
      return;
    }
    const reason = redactSecrets(err instanceof Error ? err.message : String(err), chat.secrets);
    const status = err instanceof UpstreamError ? err.status : undefined;
    request.log.warn(
      { provider: chat.request.provider, model: chat.request.model, upstreamStatus: status, reason },
      'assistant reply failed',
    );
    await chat.transcript
      .failed(received)
      .catch((e: unknown) => request.log.error({ err: e }, 'could not store the error reply'));
    await frames.send({ type: 'error', message: LlmMessages.chatError }, true);
  } finally {
    raw.off('close', onClose);
    stopListening();
    // Ending the response uncorks its socket: the last frames and the end of the body leave in one write.
    if (!raw.writableEnded) raw.end();
    frames.close();
  }
}

/** Sends a stored reply again as a stream: its text in one delta, then done or withheld with the stored id. */
async function replayReply(frames: SseWriter, stored: StoredReply) {
  if (stored.text) await frames.send({ type: 'delta', text: stored.text }, true);
  await frames.send(
    stored.withheld
      ? { type: 'withheld', messageId: stored.messageId, message: LlmMessages.answerWithheld }
      : { type: 'done', messageId: stored.messageId, usage: stored.usage },
    true,
  );
}
