import { OPERATIONS_PER_SAVE_MAX, toCompact } from '@exam/domain/answer-operation-rules';
import type { SaveAnswer } from '@exam/domain/attempt';
import { api } from '../../../config/paths.ts';
import { ApiError, apiRequest } from '../../../lib/api-client.ts';
import { isSectionRefusal } from '../api/sections.ts';
import { heldOperations, acknowledgeOperations, capOperations, discardOperations, takeSave } from './operation-log.ts';
import { listPending, markSynced } from './outbox.ts';
import { handleSendFailure, type SendContext } from './send-context.ts';

/** Browsers cap keepalive bodies at 64 KiB; larger saves go without it and are retried if cut off. */
const KEEPALIVE_LIMIT = 60_000;

const encoder = new TextEncoder();

type Outcome = 'sent' | 'closed' | 'retry';

/**
 * Sends one question: its answer with the operations the server has not acknowledged, at most `operationsPerSave`
 * a request, in order; more pending go in the requests after. Bounded: a request that moved nothing on ends it
 * (the next save tries again).
 */
async function sendQuestion(ctx: SendContext, questionIndex: number, held: number): Promise<Outcome> {
  const { db, attemptId, token } = ctx;
  const limit = ctx.operationsPerSave ?? OPERATIONS_PER_SAVE_MAX;
  const rounds = Math.ceil(held / limit) + 1;
  for (let round = 0; round < rounds; round++) {
    const save = await takeSave(db, attemptId, questionIndex, limit);
    if (!save || (save.entry.seq <= save.entry.syncedSeq && !save.chunk)) return 'sent';
    const { entry, chunk } = save;
    const body: SaveAnswer = { answer: entry.answer, seq: entry.seq };
    if (chunk) body.operations = { start: chunk.start, ops: chunk.ops.map((op) => toCompact(op, ctx.startedAtMs)) };
    let response: { operationsEnd?: unknown; operationsCapped?: unknown };
    try {
      response = await apiRequest(api.answer(attemptId, questionIndex), {
        method: 'PUT',
        token,
        body,
        keepalive: encoder.encode(JSON.stringify(body)).length < KEEPALIVE_LIMIT,
      });
    } catch (error) {
      if (error instanceof ApiError && isSectionRefusal(error.code)) {
        // The section closed (moved on, or its time ran out) before this save arrived: no retry can land it.
        await markSynced(db, attemptId, questionIndex, entry.seq);
        if (chunk) await discardOperations(db, attemptId, questionIndex, chunk.ops.length);
        ctx.onSectionRefused?.(questionIndex, error.userMessage);
        return 'sent';
      }
      const kind = handleSendFailure(ctx, error);
      if (kind !== 'drop') return kind;
      if (chunk) {
        // Refused with its operations (bad input): without them the answer itself still saves.
        console.error('Edit operations refused by the server', questionIndex, error);
        await discardOperations(db, attemptId, questionIndex, chunk.ops.length);
        continue;
      }
      // A request the server will never accept (bad input, lost rights): retrying cannot help.
      console.error('Answer rejected by the server', questionIndex, error);
      await markSynced(db, attemptId, questionIndex, entry.seq);
      return 'sent';
    }
    await markSynced(db, attemptId, questionIndex, entry.seq);
    if (!chunk) continue;
    if (response.operationsCapped === true) {
      await capOperations(db, attemptId);
      return 'sent';
    }
    // A server that says nothing of operations has kept none it will ever ask for again.
    const end = typeof response.operationsEnd === 'number' ? response.operationsEnd : chunk.start + chunk.ops.length;
    await acknowledgeOperations(db, attemptId, questionIndex, { start: chunk.start, count: chunk.ops.length }, end);
    if (end <= chunk.start) return 'sent';
  }
  return 'sent';
}

/** Sends every answer the server has not acknowledged; false when a retryable failure stopped the run. */
export async function sendAnswers(ctx: SendContext): Promise<boolean> {
  if (ctx.isClosed()) return true;
  for (const entry of await listPending(ctx.db, ctx.attemptId)) {
    const outcome = await sendQuestion(ctx, entry.questionIndex, heldOperations(entry));
    if (outcome === 'closed') return true;
    if (outcome === 'retry') return false;
  }
  return true;
}
