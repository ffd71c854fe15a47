import { rawQuery } from '../../db/rows.ts';
import type { ResultsDb } from './attempt-rows.ts';

/** One autosave waiting for its batch: what the single-row statement would take, and how to answer it. */
export type PendingSave = {
  attemptId: string;
  questionIndex: number;
  answer: string;
  seq: number;
  now: Date;
  cutoff: Date;
};

export type SaveBatchOptions = {
  /** How long the first save of a batch waits for others to join it. 0 writes every save on its own. */
  windowMs: number;
  /** Batches written at the same time (each holds one pooled connection while it runs). */
  maxInFlight: number;
  /** Most saves in one statement; a fuller queue is written in several. */
  maxRows: number;
  /** Most answer text (characters) in one statement, so a burst of long code answers stays a modest message. */
  maxChars: number;
};

export const DEFAULT_SAVE_BATCH: SaveBatchOptions = { windowMs: 1, maxInFlight: 4, maxRows: 200, maxChars: 2_000_000 };

// Many saves in one autocommit statement: one round trip, one commit and so one WAL flush for all of
// them. It keeps the single-row statement's rules (answer-writes.repository.ts) row by row:
//   - `locked` takes the open attempts' row locks in id order, so two batches never wait on each other
//     in a cycle, and a submit that commits first makes the attempt drop out here (READ COMMITTED
//     re-checks `submitted_at` on the newest row version before locking it);
//   - a save counts only while its own cutoff is within the deadline and its index is in range;
//   - answers_version goes up by one per accepted save, as it would with one statement each, so a
//     submit that read the attempt before these saves sees the version move and scores again;
//   - several saves of the same question keep the highest seq (the earliest of equal ones), as running
//     them one after another would; the upsert still replaces only an older stored seq.
// Each returned row is a save that was applied; the others are answered like the single path's
// "no row": closed, out of range or stale, which the service then tells apart.
const SAVE_ANSWERS = `
  with input as (
    select * from json_to_recordset($1::json)
      as t(ord int, attempt_id text, question_index int, answer text, seq bigint, at timestamptz, cutoff timestamptz)
  ),
  locked as (
    select a.id, a.question_count, a.deadline from results_service.attempts a
    where a.id in (select attempt_id from input) and a.submitted_at is null
    order by a.id
    for update
  ),
  accepted as (
    select i.* from input i join locked l on l.id = i.attempt_id
    where i.question_index < l.question_count and (l.deadline is null or l.deadline >= i.cutoff)
  ),
  bumped as (
    update results_service.attempts a set answers_version = a.answers_version + c.n
    from (select attempt_id, count(*)::int as n from accepted group by attempt_id) c
    where a.id = c.attempt_id
  ),
  chosen as (
    select distinct on (attempt_id, question_index) * from accepted
    order by attempt_id, question_index, seq desc, ord
  )
  insert into results_service.answers (attempt_id, question_index, answer, seq, updated_at)
  select attempt_id, question_index, answer, seq, at from chosen
  on conflict (attempt_id, question_index) do update
    set answer = excluded.answer, seq = excluded.seq, updated_at = excluded.updated_at
    where answers.seq < excluded.seq
  returning attempt_id, question_index, seq`;

type Waiter = { save: PendingSave; resolve: (applied: boolean) => void; reject: (err: unknown) => void };

/**
 * Group commit for autosaves: saves that arrive within `windowMs` of each other go to PostgreSQL as one
 * statement, and each caller's promise settles only after that statement has committed (with the
 * server's synchronous_commit, after the WAL flush), so an acknowledged save is as durable as before.
 * Only requests still waiting for their answer are held here; nothing outlives them.
 *
 * If a batch fails as a whole (a row the single statement would also refuse, a lost connection, a
 * deadlock with another writer), every save in it runs again on its own through `single`, so one bad
 * row never fails the others and each caller gets exactly what the single-row path would have said.
 */
export function createAnswerBatcher(
  db: ResultsDb,
  single: (save: PendingSave) => Promise<boolean>,
  options: SaveBatchOptions,
) {
  const queue: Waiter[] = [];
  let inFlight = 0;
  let timer: NodeJS.Timeout | undefined;

  const takeBatch = (): Waiter[] => {
    let chars = 0;
    let n = 0;
    while (n < queue.length && n < options.maxRows) {
      chars += queue[n]!.save.answer.length;
      if (n > 0 && chars > options.maxChars) break;
      n++;
    }
    return queue.splice(0, n);
  };

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    while (queue.length > 0 && inFlight < options.maxInFlight) {
      inFlight++;
      void write(takeBatch()).finally(() => {
        inFlight--;
        // Saves that queued while every slot was busy go out at once: they have waited long enough.
        if (queue.length > 0 && timer === undefined) flush();
      });
    }
  };

  const write = async (batch: Waiter[]) => {
    if (batch.length === 1) return settleAlone(batch[0]!);
    let applied: boolean[];
    try {
      applied = await writeBatch(db, batch);
    } catch {
      // Alone, in arrival order within each attempt (attempts side by side): a question's later save must
      // not commit before its earlier one, or the earlier would be answered stale where one statement after
      // another would have applied both in turn.
      const byAttempt = new Map<string, Waiter[]>();
      for (const waiter of batch)
        byAttempt.set(waiter.save.attemptId, [...(byAttempt.get(waiter.save.attemptId) ?? []), waiter]);
      await Promise.all(
        [...byAttempt.values()].map(async (waiters) => {
          for (const waiter of waiters) await settleAlone(waiter);
        }),
      );
      return;
    }
    batch.forEach((waiter, i) => waiter.resolve(applied[i]!));
  };

  const settleAlone = async (waiter: Waiter) => {
    try {
      waiter.resolve(await single(waiter.save));
    } catch (err) {
      waiter.reject(err);
    }
  };

  return {
    /** Resolves true when this save was stored (committed), false when closed, out of range or stale. */
    save(save: PendingSave): Promise<boolean> {
      if (options.windowMs <= 0) return single(save);
      return new Promise<boolean>((resolve, reject) => {
        queue.push({ save, resolve, reject });
        if (queue.length >= options.maxRows) flush();
        else if (timer === undefined && inFlight < options.maxInFlight) timer = setTimeout(flush, options.windowMs);
      });
    },
  };
}

const keyOf = (save: Pick<PendingSave, 'attemptId' | 'questionIndex'>, seq: number | string) =>
  `${save.attemptId}\u0000${save.questionIndex}\u0000${seq}`;

/** Writes the batch; answers, save by save, whether it was stored. */
async function writeBatch(db: ResultsDb, batch: Waiter[]): Promise<boolean[]> {
  const rows = batch.map(({ save }, ord) => ({
    ord,
    attempt_id: save.attemptId,
    question_index: save.questionIndex,
    answer: save.answer,
    seq: save.seq,
    at: save.now.toISOString(),
    cutoff: save.cutoff.toISOString(),
  }));
  const stored = await rawQuery<{ attempt_id: string; question_index: number; seq: number | string }>(
    db,
    SAVE_ANSWERS,
    [JSON.stringify(rows)],
  );
  const keys = new Set(stored.map((r) => keyOf({ attemptId: r.attempt_id, questionIndex: r.question_index }, r.seq)));
  // Equal seqs of one question: the earliest save was written, the later ones were not (as if they came second).
  return batch.map(({ save }) => keys.delete(keyOf(save, save.seq)));
}
