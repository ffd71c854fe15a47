import type { ProctorEvent } from '@exam/domain/attempt';
import { and, count, eq, gte, isNull, or, sql } from 'drizzle-orm';
import { answerFiles, answers, attempts, events } from '../../db/schema.ts';
import {
  createAnswerBatcher,
  DEFAULT_SAVE_BATCH,
  writeSaves,
  type PendingSave,
  type SaveBatchOptions,
  type SaveOutcome,
} from './answer-batch.ts';
import type { ResultsDb } from './attempt-rows.ts';

type SaveAnswerInput = PendingSave;
type InsertEventsInput = { attemptId: string; list: ProctorEvent[]; now: Date; cutoff: Date; max: number };
type SaveFileInput = {
  attemptId: string;
  questionIndex: number;
  fileName: string;
  mimeType: string;
  content: Buffer;
  answer: string;
  now: Date;
  cutoff: Date;
};

/** What a candidate writes while the attempt is open: answers, uploaded files, proctoring events. */
export function answerWrites(db: ResultsDb, saveBatch: SaveBatchOptions = DEFAULT_SAVE_BATCH) {
  const batcher = createAnswerBatcher(
    db,
    (input) => saveAnswerAlone(db, input, saveBatch.operationsCapBytes),
    saveBatch,
  );
  return {
    /**
     * The autosave hot path. Saves arriving together are written in one call (answer-batch.ts); a save
     * alone, or one whose batch failed, is written alone by the same function. Either way the attempt is
     * checked open and the index in range, answers_version goes up (the attempt stays row-locked until the
     * write commits, so a concurrent submit either waits for it or makes it see the attempt closed), only an
     * older seq is replaced, and the save's new edit operations are stored with it, once, within the cap.
     * Resolves once committed; undefined means closed or out of range, and the caller finds out which.
     */
    saveAnswerIfOpen: (input: SaveAnswerInput): Promise<SaveOutcome | undefined> => batcher.save(input),

    /** Stores an uploaded file and records 'File: name' with a seq above the stored one, while the attempt is open. */
    saveFileIfOpen: (input: SaveFileInput) => saveFileIfOpen(db, input),

    /**
     * Stores events while the attempt is open, up to `max` per attempt. The attempt's row lock orders
     * this against a submit and against concurrent event writes, so the cap holds. `open: false` means
     * closed (or missing); the caller finds out which.
     */
    async insertEventsIfOpen(input: InsertEventsInput): Promise<{ open: boolean; stored: number }> {
      return db.transaction(async (tx) => {
        const [open] = await tx
          .select({ id: attempts.id })
          .from(attempts)
          .where(
            and(
              eq(attempts.id, input.attemptId),
              isNull(attempts.submittedAt),
              or(isNull(attempts.deadline), gte(attempts.deadline, input.cutoff)),
            ),
          )
          .for('update');
        if (!open) return { open: false, stored: 0 };
        const [held] = await tx.select({ n: count() }).from(events).where(eq(events.attemptId, input.attemptId));
        const room = Math.max(0, input.max - (held?.n ?? 0));
        const rows = input.list.slice(0, room).map((e) => ({
          attemptId: input.attemptId,
          type: e.type,
          questionIndex: e.questionIndex ?? null,
          detail: e.detail ?? null,
          clientAt: e.clientAt ?? null,
          recordedAt: input.now,
        }));
        if (rows.length > 0) await tx.insert(events).values(rows);
        return { open: true, stored: rows.length };
      });
    },
  };
}

/** One save alone: one call, one commit. */
export async function saveAnswerAlone(
  db: ResultsDb,
  input: SaveAnswerInput,
  operationsCapBytes = DEFAULT_SAVE_BATCH.operationsCapBytes,
): Promise<SaveOutcome | undefined> {
  const [outcome] = await writeSaves(db, [input], operationsCapBytes);
  return outcome;
}

function saveFileIfOpen(db: ResultsDb, input: SaveFileInput): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [open] = await tx
      .update(attempts)
      .set({ answersVersion: sql`${attempts.answersVersion} + 1` })
      .where(
        and(
          eq(attempts.id, input.attemptId),
          isNull(attempts.submittedAt),
          sql`(${attempts.deadline} is null or ${attempts.deadline} >= ${input.cutoff.toISOString()}::timestamptz)`,
        ),
      )
      .returning({ id: attempts.id });
    if (!open) return false;
    const file = {
      fileName: input.fileName,
      mimeType: input.mimeType,
      size: input.content.length,
      content: input.content,
      uploadedAt: input.now,
    };
    await tx
      .insert(answerFiles)
      .values({ attemptId: input.attemptId, questionIndex: input.questionIndex, ...file })
      .onConflictDoUpdate({ target: [answerFiles.attemptId, answerFiles.questionIndex], set: file });
    await tx
      .insert(answers)
      .values({
        attemptId: input.attemptId,
        questionIndex: input.questionIndex,
        answer: input.answer,
        seq: 1,
        updatedAt: input.now,
      })
      .onConflictDoUpdate({
        target: [answers.attemptId, answers.questionIndex],
        set: { answer: input.answer, seq: sql`${answers.seq} + 1`, updatedAt: input.now },
      });
    return true;
  });
}
