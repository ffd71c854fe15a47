import type { ProctorEvent } from '@exam/domain/attempt';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { answerFiles, answers, attempts } from '../../db/schema.ts';
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
    insertEventsIfOpen: (input: InsertEventsInput) => insertEventsIfOpen(db, input),
  };
}

/** Locks the attempt's row while it is open (the caller's transaction orders event writes and a submit). */
const LOCK_OPEN_ATTEMPT = `
  select a.id from results_service.attempts a
  where a.id = $1 and a.submitted_at is null and (a.deadline is null or a.deadline >= $2::timestamptz)
  for update`;

/**
 * The events that fit under the cap, in the order sent, while the attempt is open. Run after LOCK_OPEN_ATTEMPT in
 * the same transaction: a statement of its own, so its count sees every event batch committed before the lock was
 * granted (one statement's snapshot is taken when it starts, before a lock it waits for).
 */
const INSERT_EVENTS_UNDER_CAP = `
  insert into results_service.events (attempt_id, type, question_index, detail, client_at, recorded_at)
  select $1, t.type, t.question_index, t.detail, t.client_at, $3::timestamptz
  from json_to_recordset($2::json) as t(ord int, type text, question_index int, detail text, client_at text)
  where exists (
      select 1 from results_service.attempts a
      where a.id = $1 and a.submitted_at is null and (a.deadline is null or a.deadline >= $4::timestamptz))
    and t.ord < $5::int - (select count(*) from results_service.events e where e.attempt_id = $1)
  order by t.ord
  returning id`;

type PostgresJs = {
  /** Queries handed back in an array are sent as one pipeline; the answer is each one's rows. */
  begin(fn: (sql: PostgresJs) => Promise<unknown[]>[]): Promise<unknown[][]>;
  unsafe(text: string, params: unknown[], opts: { prepare: boolean }): Promise<unknown[]>;
};
type Pglite = {
  transaction<T>(
    fn: (tx: { query(text: string, params: unknown[]): Promise<{ rows: unknown[] }> }) => Promise<T>,
  ): Promise<T>;
};

/**
 * Proctoring events: the attempt's row locked, then the events inserted under the cap, in one transaction of two
 * prepared statements. On PostgreSQL both go in one pipeline (BEGIN, the pair, COMMIT: three round trips, where the
 * drizzle transaction it replaces took eight: each of its three statements was described before it ran).
 */
async function insertEventsIfOpen(db: ResultsDb, input: InsertEventsInput): Promise<{ open: boolean; stored: number }> {
  const rows = JSON.stringify(
    input.list.map((e, ord) => ({
      ord,
      type: e.type,
      question_index: e.questionIndex ?? null,
      detail: e.detail ?? null,
      client_at: e.clientAt ?? null,
    })),
  );
  const cutoff = input.cutoff.toISOString();
  const lockParams = [input.attemptId, cutoff];
  const insertParams = [input.attemptId, rows, input.now.toISOString(), cutoff, input.max];
  const client = (db as unknown as { $client: PostgresJs | Pglite }).$client;
  const [locked, inserted] =
    'unsafe' in client
      ? await client.begin((sql) => [
          sql.unsafe(LOCK_OPEN_ATTEMPT, lockParams, { prepare: true }),
          sql.unsafe(INSERT_EVENTS_UNDER_CAP, insertParams, { prepare: true }),
        ])
      : await client.transaction(async (tx) => [
          (await tx.query(LOCK_OPEN_ATTEMPT, lockParams)).rows,
          (await tx.query(INSERT_EVENTS_UNDER_CAP, insertParams)).rows,
        ]);
  if (locked!.length === 0) return { open: false, stored: 0 };
  return { open: true, stored: inserted!.length };
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
