import type { IncomingMessage } from 'node:http';
import { ErrorCode } from '@exam/domain/errors';
import { LlmMessages } from '@exam/domain/llm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { estimateTokens } from '../chat/transcript-writer.ts';
import { redactSecrets } from '../chat/stream-reply.ts';
import type { AgentCallRepository } from './agent-endpoint.repository.ts';
import type { PreparedAgentCall } from './agent-endpoint.service.ts';
import { createGuardedRelay, replyLeaks, type RelayOutcome } from './guarded-relay.ts';
import { AgentMessages, AgentRefusal, agentStatusOf, providerErrorMessage } from './wire-errors.ts';
import { capText, upstreamBody } from './wire-requests.ts';
import { readReply, withheldReply } from './wire-replies.ts';

/** The longest provider error body read (its message goes to the agent, redacted). */
const ERROR_BODY_MAX = 64 * 1024;

async function readText(response: IncomingMessage, max = Infinity): Promise<string> {
  let text = '';
  response.setEncoding('utf8');
  for await (const part of response) {
    text += part as string;
    if (text.length > max) {
      response.destroy();
      break;
    }
  }
  return text;
}

type RelayDeps = Pick<Deps, 'relay' | 'clock' | 'workspaceSnapshots'>;

/**
 * Sends an admitted call to the exam's provider and relays the answer to the agent: streamed event by event, or
 * whole; a provider failure in the agent's wire format. The call is ended in the transcript however it ends, with
 * the provider's usage or, when it reported none, an estimate (characters / 4), counted against the budgets.
 */
export async function relayCall(
  request: FastifyRequest,
  reply: FastifyReply,
  prepared: PreparedAgentCall,
  repo: AgentCallRepository,
  deps: RelayDeps,
  opts: { timeoutMs: number },
): Promise<void> {
  const { call, target } = prepared;
  // The orchestrator's snapshot before the call: the files as they were when the agent asked (never awaited).
  deps.workspaceSnapshots
    .requestSnapshot(call.attemptId)
    .catch((err: unknown) =>
      request.log.warn({ err, attemptId: call.attemptId }, 'no workspace snapshot for an agent call'),
    );

  const body = upstreamBody(call.wire, prepared.body, target.model);
  const secrets = [target.apiKey];
  const upstream = new AbortController();
  const timer = setTimeout(() => upstream.abort(new Error('the agent call timed out')), opts.timeoutMs);
  const onClose = () => {
    if (!reply.raw.writableFinished) upstream.abort(new Error(AgentMessages.interrupted));
  };
  reply.raw.on('close', onClose);
  const finish = async (outcome: RelayOutcome) => {
    const estimated = outcome.usage ?? {
      inputTokens: estimateTokens(body.length),
      outputTokens: estimateTokens(outcome.receivedChars),
    };
    await repo
      .finish(
        call.id,
        {
          status: outcome.status,
          reason: outcome.reason,
          reply: capText(outcome.reply),
          toolCalls: outcome.toolCalls,
          ...estimated,
        },
        deps.clock.now(),
      )
      .catch((err: unknown) => request.log.error({ err, callId: call.id }, 'could not store the end of an agent call'));
  };
  const failed = (reason: string): RelayOutcome => ({
    status: 'error',
    reason: redactSecrets(reason, secrets),
    reply: '',
    toolCalls: [],
    usage: { inputTokens: 0, outputTokens: 0 },
    receivedChars: 0,
  });

  try {
    let response: IncomingMessage;
    try {
      response = await deps.relay.send(
        {
          provider: target.provider,
          wire: call.wire,
          apiKey: target.apiKey,
          ...(target.baseUrl ? { baseUrl: target.baseUrl } : {}),
          body,
          headers: {
            ...(typeof request.headers['anthropic-version'] === 'string'
              ? { 'anthropic-version': request.headers['anthropic-version'] }
              : {}),
            ...(typeof request.headers['anthropic-beta'] === 'string'
              ? { 'anthropic-beta': request.headers['anthropic-beta'] }
              : {}),
          },
        },
        upstream.signal,
      );
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      await finish(failed(`the provider could not be reached: ${reason}`));
      throw new AgentRefusal(ErrorCode.UPSTREAM, AgentMessages.providerFailed);
    }

    const status = response.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      const message = redactSecrets(providerErrorMessage(await readText(response, ERROR_BODY_MAX)), secrets);
      await finish(failed(`the provider answered ${status}: ${message}`));
      const agentStatus = agentStatusOf(status);
      const retryAfter = Number(response.headers['retry-after']);
      throw new AgentRefusal(ErrorCode.UPSTREAM, agentStatus === 502 ? AgentMessages.providerKeyRefused : message, {
        status: agentStatus,
        ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
      });
    }

    if (!/text\/event-stream/i.test(String(response.headers['content-type'] ?? ''))) {
      const text = await readText(response);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        await finish(failed('the provider answered no JSON'));
        throw new AgentRefusal(ErrorCode.UPSTREAM, AgentMessages.providerFailed);
      }
      const read = readReply(call.wire, json);
      const withheld = replyLeaks(read, prepared.guard);
      await finish({
        status: withheld ? 'withheld' : 'ok',
        reason: withheld ? 'The answer guard stopped a reply that gave an answer away' : null,
        reply: withheld ? LlmMessages.answerWithheld : read.text,
        toolCalls: withheld
          ? []
          : read.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: capText(c.arguments) })),
        usage: read.usage,
        receivedChars: text.length,
      });
      await reply
        .status(200)
        .header('content-type', 'application/json')
        .send(withheld ? withheldReply(call.wire, json, LlmMessages.answerWithheld) : json);
      return;
    }

    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': String(response.headers['content-type']),
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-request-id': request.id,
    });
    // Each event is its own small write to the agent: no Nagle delay (a test's injected request has no real socket).
    if (typeof raw.socket?.setNoDelay === 'function') raw.socket.setNoDelay(true);
    const relay = createGuardedRelay({
      wire: call.wire,
      guard: prepared.guard,
      withheldMessage: LlmMessages.answerWithheld,
      write: (text) => raw.write(text),
    });
    try {
      response.setEncoding('utf8');
      let reading = true;
      for await (const piece of response) {
        reading = relay.push(piece as string);
        if (!reading) break;
      }
      if (reading) {
        if (!response.complete) throw new Error('the provider stream broke off');
        relay.end();
      }
      if (!reading) response.destroy();
      await finish(relay.outcome);
    } catch (err) {
      const reason = upstream.signal.aborted
        ? String((upstream.signal.reason as Error | undefined)?.message ?? AgentMessages.interrupted)
        : err instanceof Error
          ? err.message
          : String(err);
      request.log.warn({ callId: call.id, reason: redactSecrets(reason, secrets) }, 'an agent call ended early');
      await finish({ ...relay.outcome, status: 'error', reason: redactSecrets(reason, secrets) });
    } finally {
      if (!raw.writableEnded) raw.end();
    }
  } finally {
    clearTimeout(timer);
    reply.raw.off('close', onClose);
  }
}
