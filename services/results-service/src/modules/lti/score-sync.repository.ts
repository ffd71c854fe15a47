import type { AttemptLtiLink } from '@exam/domain/lti-ags';
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { attempts, ltiScoreSyncs, results } from '../../db/schema.ts';

export type ScoreSyncRow = typeof ltiScoreSyncs.$inferSelect;
/** A claimed outbox row with the attempt's LMS link (where the score goes). */
export type ClaimedSync = { row: ScoreSyncRow; lti: AttemptLtiLink };
/** What the job decided for one claimed row. */
export type SyncStep = Partial<Pick<ScoreSyncRow, 'state' | 'tries' | 'nextTryAt' | 'lastError' | 'syncedAt'>>;

type Db = ResultsDatabase['db'];
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Writes the outbox rows of results whose LMS score changed, inside the caller's transaction (the release's,
 * regrade's or grade's), after its updates: a released result sends its points and maximum, a result whose
 * release was withdrawn sends "no score" (only when the LMS was told something before). A row whose score is
 * what it already holds is left as it is (sent stays sent, failed stays failed for the creator to retry).
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
      and (r.released_at is not null or exists (select 1 from ${ltiScoreSyncs} e where e.result_id = r.id))
    on conflict (result_id) do update set
      state = 'pending', tries = 0, next_try_at = excluded.next_try_at, last_error = null,
      score_given = excluded.score_given, score_maximum = excluded.score_maximum,
      scored_at = excluded.scored_at, updated_at = excluded.updated_at
    where s.score_given is distinct from excluded.score_given
      or s.score_maximum is distinct from excluded.score_maximum`);
}

/**
 * The LTI score outbox (lti_score_syncs). The job claims due rows FOR UPDATE SKIP LOCKED and sends them in the
 * claiming transaction, so replicas running it at once share the rows and a score is sent by one of them; a
 * release of the same result meanwhile waits for that transaction and then marks the row pending again.
 */
export function createScoreSyncRepository({ db }: ResultsDatabase) {
  return {
    async process(
      now: Date,
      limit: number,
      decide: (claimed: ClaimedSync) => Promise<SyncStep>,
    ): Promise<{ claimed: number; sent: number }> {
      return db.transaction(async (tx) => {
        const locked = await tx
          .select()
          .from(ltiScoreSyncs)
          .where(and(eq(ltiScoreSyncs.state, 'pending'), lte(ltiScoreSyncs.nextTryAt, now)))
          .orderBy(asc(ltiScoreSyncs.nextTryAt))
          .limit(limit)
          .for('update', { skipLocked: true });
        if (locked.length === 0) return { claimed: 0, sent: 0 };
        const links = await tx
          .select({ id: attempts.id, lti: attempts.lti })
          .from(attempts)
          .where(inArray(attempts.id, [...new Set(locked.map((r) => r.attemptId))]));
        const linkOf = new Map(links.map((a) => [a.id, a.lti]));
        let sent = 0;
        for (const row of locked) {
          const lti = linkOf.get(row.attemptId);
          // An attempt without its link (gone, or never linked) has nowhere to send to: closed as failed.
          const step: SyncStep = lti?.lineItemUrl
            ? await decide({ row, lti })
            : { state: 'failed', lastError: 'The attempt has no LMS line item' };
          if (step.state === 'sent') sent++;
          await tx
            .update(ltiScoreSyncs)
            .set({ ...step, updatedAt: now })
            .where(eq(ltiScoreSyncs.resultId, row.resultId));
        }
        return { claimed: locked.length, sent };
      });
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
