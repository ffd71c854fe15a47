import { compactInsert, type SaveOperations } from '@exam/domain/answer-operations';
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
  /** The page's edit operations that came with the save (@exam/domain/answer-operations). */
  operations?: SaveOperations;
};

/**
 * What became of a save the attempt accepted (open, within its deadline, index in range): whether it replaced the
 * stored answer (false: a newer seq was stored, which `seq` then is), the question's stored operation count after
 * it, and whether the attempt's operations reached their cap. undefined: the attempt did not accept it (closed or out
 * of range), which the caller then tells apart.
 */
export type SaveOutcome = { applied: boolean; seq: number; operationsEnd: number; operationsCapped: boolean };

export type SaveBatchOptions = {
  /** How long the first save of a batch waits for others to join it. 0 writes every save on its own. */
  windowMs: number;
  /**
   * While a batch is being written, how long a save waits for it to finish before a batch of its own goes beside
   * it (default BUSY_WINDOW_MS). Saves that arrive meanwhile normally go together the moment the batch in flight
   * commits; this only bounds their wait when it is slow (a lock held by a submit, a long flush).
   */
  busyWindowMs?: number;
  /** Batches written at the same time (each holds one pooled connection while it runs). */
  maxInFlight: number;
  /** Most saves in one statement; a fuller queue is written in several. */
  maxRows: number;
  /** Most answer text (characters) in one statement, so a burst of long code answers stays a modest message. */
  maxChars: number;
  /** OPERATIONS_PER_ATTEMPT_MAX_BYTES: the edit operations an attempt may store. */
  operationsCapBytes: number;
};

/** Four MiB of edit operations per attempt: config.ts (OPERATIONS_PER_ATTEMPT_MAX_BYTES) says why. */
export const DEFAULT_OPERATIONS_CAP_BYTES = 4 * 1024 * 1024;

/**
 * A batch's statement costs PostgreSQL about 0.5 ms of CPU whatever its size, and each save in it about 0.04 ms
 * (bench/README.md, durable saves 2026-11-29): starting a new batch while one is in flight paid that fixed cost
 * for a handful of saves. Saves now wait for the batch in flight (a few ms) and go together, up to this long.
 */
export const BUSY_WINDOW_MS = 5;

export const DEFAULT_SAVE_BATCH: SaveBatchOptions = {
  windowMs: 1,
  busyWindowMs: BUSY_WINDOW_MS,
  maxInFlight: 4,
  maxRows: 200,
  maxChars: 2_000_000,
  operationsCapBytes: DEFAULT_OPERATIONS_CAP_BYTES,
};

/**
 * The write itself, for one save or many: the save_answers function (src/db/functions/save_answers.sql), which
 * keeps the single-row rules save by save — attempt locks in id order, open/deadline/index checks per save,
 * answers_version + 1 per accepted save, the highest seq of a question wins (the earliest of equal ones), only an
 * older stored seq is replaced — and stores each question's new edit operations once, within the attempt's cap.
 * One call: one round trip, one commit and so one WAL flush for all of them.
 */
const SAVE_ANSWERS = 'select * from results_service.save_answers($1::json, $2::text[], $3::int)';

type Waiter = {
  save: PendingSave;
  resolve: (outcome: SaveOutcome | undefined) => void;
  reject: (err: unknown) => void;
};

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
  single: (save: PendingSave) => Promise<SaveOutcome | undefined>,
  options: SaveBatchOptions,
) {
  const queue: Waiter[] = [];
  let inFlight = 0;
  let timer: NodeJS.Timeout | undefined;

  // Questions whose operations are in a batch being written. save_answers stores at most one chunk of operations
  // per question per call, and a question's chunks must commit in arrival order (a later chunk stored first would
  // leave a gap that the earlier one, arriving after it, could no longer fill): a second chunk waits, with
  // everything queued after it, until the batch holding the first has committed.
  const writing = new Set<string>();

  const takeBatch = (): { batch: Waiter[]; chunks: string[] } => {
    let chars = 0;
    let n = 0;
    const chunks: string[] = [];
    while (n < queue.length && n < options.maxRows) {
      const save = queue[n]!.save;
      chars += save.answer.length + operationsChars(save);
      if (n > 0 && chars > options.maxChars) break;
      if (save.operations) {
        const key = keyOf(save);
        if (writing.has(key)) break;
        writing.add(key);
        chunks.push(key);
      }
      n++;
    }
    return { batch: queue.splice(0, n), chunks };
  };

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    while (queue.length > 0 && inFlight < options.maxInFlight) {
      const { batch, chunks } = takeBatch();
      // The next save waits for a chunk of its question being written: the batch that holds it flushes again.
      if (batch.length === 0) return;
      inFlight++;
      void write(batch).finally(() => {
        inFlight--;
        for (const key of chunks) writing.delete(key);
        // Saves that queued while this batch was written go out at once, together: they have waited long enough.
        if (queue.length > 0) flush();
      });
    }
  };

  const write = async (batch: Waiter[]) => {
    if (batch.length === 1) return settleAlone(batch[0]!);
    let outcomes: Array<SaveOutcome | undefined>;
    try {
      outcomes = await writeBatch(db, batch, options.operationsCapBytes);
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
    batch.forEach((waiter, i) => waiter.resolve(outcomes[i]));
  };

  const settleAlone = async (waiter: Waiter) => {
    try {
      waiter.resolve(await single(waiter.save));
    } catch (err) {
      waiter.reject(err);
    }
  };

  return {
    /** Resolves once committed: what became of the save, undefined when the attempt is closed or the index out of range. */
    save(save: PendingSave): Promise<SaveOutcome | undefined> {
      if (options.windowMs <= 0) return single(save);
      return new Promise<SaveOutcome | undefined>((resolve, reject) => {
        queue.push({ save, resolve, reject });
        if (queue.length >= options.maxRows) flush();
        else if (timer === undefined && inFlight < options.maxInFlight)
          // With a batch in flight the queue waits for its commit (which flushes) or, if that is slow, the busy window.
          timer = setTimeout(flush, inFlight === 0 ? options.windowMs : (options.busyWindowMs ?? BUSY_WINDOW_MS));
      });
    },
  };
}

const keyOf = (save: Pick<PendingSave, 'attemptId' | 'questionIndex'>) =>
  `${save.attemptId}\u0000${save.questionIndex}`;

type SaveRow = {
  attempt_id: string;
  question_index: number;
  seq: number | string;
  applied: boolean;
  operations_end: number;
  capped: boolean;
};

/** Roughly what a save's operations add to the statement, for maxChars. */
const operationsChars = (save: PendingSave) =>
  save.operations ? save.operations.ops.reduce((n, op) => n + compactInsert(op).insert.length + 24, 0) : 0;

/**
 * A save's operations as save_answers takes them: the compact operations and, counted here so the statement need
 * not take the JSON apart, how many and the characters they insert by source (the live view's running shares).
 */
function operationColumns(operations: SaveOperations | undefined) {
  if (!operations) return { ops_start: null, ops: null, ops_count: null, ops_chars: null };
  // A string holding U+0000, which PostgreSQL cannot store, never gets here: the JSON body parser refuses it (400).
  const { ops } = operations;
  const chars = [0, 0, 0, 0, 0];
  for (const op of ops) {
    const { insert, source } = compactInsert(op);
    chars[source]! += insert.length;
  }
  return { ops_start: operations.start, ops, ops_count: ops.length, ops_chars: chars };
}

/** Writes the saves in one call; answers, save by save, what became of it (undefined: not accepted). */
export async function writeSaves(
  db: ResultsDb,
  saves: ReadonlyArray<PendingSave>,
  operationsCapBytes: number,
): Promise<Array<SaveOutcome | undefined>> {
  const rows = saves.map((save, ord) => ({
    ord,
    attempt_id: save.attemptId,
    question_index: save.questionIndex,
    answer: save.answer,
    seq: save.seq,
    at: save.now.toISOString(),
    cutoff: save.cutoff.toISOString(),
    ...operationColumns(save.operations),
  }));
  const attemptIds = [...new Set(saves.map((save) => save.attemptId))];
  const stored = await rawQuery<SaveRow>(db, SAVE_ANSWERS, [JSON.stringify(rows), attemptIds, operationsCapBytes]);
  const byQuestion = new Map(
    stored.map((r) => [keyOf({ attemptId: r.attempt_id, questionIndex: r.question_index }), r]),
  );
  // The save chosen for its question is the first one with the winning seq; equal seqs after it were not written
  // (as if they came second).
  const claimed = new Set<string>();
  return saves.map((save) => {
    const key = keyOf(save);
    const row = byQuestion.get(key);
    if (!row) return undefined;
    const seq = Number(row.seq);
    const applied = row.applied && seq === save.seq && !claimed.has(key);
    if (applied) claimed.add(key);
    return { applied, seq, operationsEnd: row.operations_end, operationsCapped: row.capped };
  });
}

const writeBatch = (db: ResultsDb, batch: Waiter[], operationsCapBytes: number) =>
  writeSaves(
    db,
    batch.map((waiter) => waiter.save),
    operationsCapBytes,
  );
