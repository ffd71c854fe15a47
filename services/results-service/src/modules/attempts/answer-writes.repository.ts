import type { ProctorEvent } from '@exam/domain/attempt';
import { and, count, eq, gte, isNull, or, sql } from 'drizzle-orm';
import { rawQuery } from '../../db/rows.ts';
import { answerFiles, answers, attempts, events } from '../../db/schema.ts';
import { createAnswerBatcher, DEFAULT_SAVE_BATCH, type PendingSave, type SaveBatchOptions } from './answer-batch.ts';
import type { ResultsDb } from './attempt-rows.ts';

// The CTE checks the attempt is open and the index in range, and bumps answers_version, which also
// row-locks the attempt until this write commits. The upsert only replaces an older seq.
const SAVE_ANSWER = `
  with open_attempt as (
    update results_service.attempts set answers_version = answers_version + 1
    where id = $1 and submitted_at is null and (deadline is null or deadline >= $2::timestamptz) and question_count > $3
    returning id
  )
  insert into results_service.answers (attempt_id, question_index, answer, seq, updated_at)
  select id, $3, $4, $5, $6::timestamptz from open_attempt
  on conflict (attempt_id, question_index) do update
    set answer = excluded.answer, seq = excluded.seq, updated_at = excluded.updated_at
    where answers.seq < excluded.seq
  returning 1 as applied`;

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
  const batcher = createAnswerBatcher(db, (input) => saveAnswerAlone(db, input), saveBatch);
  return {
    /**
     * The autosave hot path. Saves arriving together are written in one statement (answer-batch.ts); a
     * save alone, or one whose batch failed, takes the single-row statement. Either way the attempt is
     * checked open and the index in range, answers_version goes up (which also row-locks the attempt
     * until the write commits, so a concurrent submit either waits for it or makes it see the attempt
     * closed), and only an older seq is replaced. Resolves once committed. False means closed, out of
     * range or stale; the caller finds out which.
     */
    saveAnswerIfOpen: (input: SaveAnswerInput): Promise<boolean> => batcher.save(input),

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

/** The single-row autosave statement: one save, one commit. */
export async function saveAnswerAlone(db: ResultsDb, input: SaveAnswerInput): Promise<boolean> {
  const rows = await rawQuery<{ applied: number }>(db, SAVE_ANSWER, [
    input.attemptId,
    input.cutoff.toISOString(),
    input.questionIndex,
    input.answer,
    input.seq,
    input.now.toISOString(),
  ]);
  return rows.length > 0;
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
