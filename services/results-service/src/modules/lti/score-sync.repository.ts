import type { AttemptLtiLink } from '@exam/domain/lti-ags';
import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { attempts, ltiScoreSyncs, results } from '../../db/schema.ts';

export type ScoreSyncRow = typeof ltiScoreSyncs.$inferSelect;
/** A claimed outbox row with the attempt's LMS link (where the score goes). */
export type ClaimedSync = { row: ScoreSyncRow; lti: AttemptLtiLink | null };
/** What the job decided for one claimed row. */
export type SyncStep = Partial<Pick<ScoreSyncRow, 'state' | 'tries' | 'nextTryAt' | 'lastError' | 'syncedAt'>>;

type Db = ResultsDatabase['db'];
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Writes the outbox rows of results whose LMS score changed, inside the caller's transaction (the release's,
 * regrade's or grade's), after its updates: a released result sends its points and maximum, a result whose
 * release was withdrawn sends "no score" (only when the LMS was told something before). A row whose score is
 * what it already holds is left as it is (sent stays sent, failed stays failed for the creator to retry). A practice
 * attempt's result never goes to the LMS (docs/product.md#practice-and-review).
 */
export async function recordScoreChanges(tx: Tx | Db, resultIds: readonly string[], now: Date) {
  if (resultIds.length === 0) return;
  const at = now.toISOString();
  const ids = sql.join(
    resultIds.map((id) => sql`${id}`),
    sql`, `,
  );
  await tx.execute(sql`
    insert into ${ltiScoreSyncs} as s (result_id, attempt_id, exam_id, state, tries, next_try_at, last_error,
      score_given, score_maximum, scored_at, synced_at, updated_at)
    select r.id, r.attempt_id, r.exam_id, 'pending', 0, ${at}::timestamptz, null,
      case when r.released_at is not null then r.score end, r.max_score, ${at}::timestamptz, null, ${at}::timestamptz
    from ${results} r
    join ${attempts} a on a.id = r.attempt_id
    where r.id in (${ids})
      and a.lti ->> 'lineItemUrl' is not null
      and not a.practice
      and (r.released_at is not null or exists (select 1 from ${ltiScoreSyncs} e where e.result_id = r.id))
    on conflict (result_id) do update set
      state = 'pending', tries = 0, next_try_at = excluded.next_try_at, last_error = null,
      score_given = excluded.score_given, score_maximum = excluded.score_maximum,
      scored_at = excluded.scored_at, updated_at = excluded.updated_at
    where s.score_given is distinct from excluded.score_given
      or s.score_maximum is distinct from excluded.score_maximum`);
}

/**
 * The LTI score outbox (lti_score_syncs). A pass claims due rows FOR UPDATE SKIP LOCKED in a short transaction and
 * moves their next_try_at past a lease, so no other replica claims them while this one sends; the send happens
 * outside any transaction (exam-service, and on one embedded database every other service, must not wait on our
 * locks). The outcome is written only if the row still holds the score that was sent: a release or regrade
 * meanwhile has made it pending with a new score, which the next pass sends. A replica that dies mid-send leaves
 * the row to be claimed again when its lease ends.
 */
export function createScoreSyncRepository({ db }: ResultsDatabase) {
  return {
    async claim(now: Date, limit: number, leaseMs: number): Promise<ClaimedSync[]> {
      return db.transaction(async (tx) => {
        const locked = await tx
          .select()
          .from(ltiScoreSyncs)
          .where(and(eq(ltiScoreSyncs.state, 'pending'), lte(ltiScoreSyncs.nextTryAt, now)))
          .orderBy(asc(ltiScoreSyncs.nextTryAt))
          .limit(limit)
          .for('update', { skipLocked: true });
        if (locked.length === 0) return [];
        const ids = locked.map((r) => r.resultId);
        await tx
          .update(ltiScoreSyncs)
          .set({ nextTryAt: new Date(now.getTime() + leaseMs) })
          .where(inArray(ltiScoreSyncs.resultId, ids));
        const links = await tx
          .select({ id: attempts.id, lti: attempts.lti })
          .from(attempts)
          .where(inArray(attempts.id, [...new Set(locked.map((r) => r.attemptId))]));
        const linkOf = new Map(links.map((a) => [a.id, a.lti]));
        return locked.map((row) => ({ row, lti: linkOf.get(row.attemptId) ?? null }));
      });
    },

    /** Writes the outcome of sending `sent`, unless the row changed since it was claimed; answers whether it wrote. */
    async finish(sent: ScoreSyncRow, step: SyncStep, now: Date): Promise<boolean> {
      const written = await db
        .update(ltiScoreSyncs)
        .set({ ...step, updatedAt: now })
        .where(
          and(
            eq(ltiScoreSyncs.resultId, sent.resultId),
            eq(ltiScoreSyncs.state, 'pending'),
            eq(ltiScoreSyncs.tries, sent.tries),
            eq(ltiScoreSyncs.scoredAt, sent.scoredAt),
            eq(ltiScoreSyncs.scoreMaximum, sent.scoreMaximum),
            sent.scoreGiven === null ? isNull(ltiScoreSyncs.scoreGiven) : eq(ltiScoreSyncs.scoreGiven, sent.scoreGiven),
          ),
        )
        .returning({ resultId: ltiScoreSyncs.resultId });
      return written.length > 0;
    },

    /** A failed row of the owner's result made pending again; 'not-found' / 'not-failed' otherwise. */
    async retry(resultId: string, ownerId: string, now: Date): Promise<'queued' | 'not-found' | 'not-failed'> {
      const [owned] = await db
        .select({ state: ltiScoreSyncs.state })
        .from(ltiScoreSyncs)
        .innerJoin(results, eq(results.id, ltiScoreSyncs.resultId))
        .where(and(eq(ltiScoreSyncs.resultId, resultId), eq(results.ownerId, ownerId)));
      if (!owned) return 'not-found';
      // One statement: a job pass sending the row meanwhile makes it 'sent' first, and this changes nothing.
      const queued = await db
        .update(ltiScoreSyncs)
        .set({ state: 'pending', tries: 0, nextTryAt: now, lastError: null, updatedAt: now })
        .where(and(eq(ltiScoreSyncs.resultId, resultId), eq(ltiScoreSyncs.state, 'failed')))
        .returning({ resultId: ltiScoreSyncs.resultId });
      return queued.length ? 'queued' : 'not-failed';
    },

    async find(resultId: string) {
      const [row] = await db.select().from(ltiScoreSyncs).where(eq(ltiScoreSyncs.resultId, resultId));
      return row;
    },
  };
}
export type ScoreSyncRepository = ReturnType<typeof createScoreSyncRepository>;
