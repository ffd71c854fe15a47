import { and, asc, desc, eq, inArray, isNull, like, lt, or, sql } from 'drizzle-orm';
import type { WorkspaceDatabase } from '../../db/database.ts';
import { startFailures, volumes, workspaces, type VolumeRow, type WorkspaceRow } from '../../db/schema.ts';
import type { EngineKind } from '../../engine/engine.ts';

export type NewWorkspace = typeof workspaces.$inferInsert;
export type NewVolume = typeof volumes.$inferInsert;

/** Queries only; the rules live in sessions.service.ts. */
export function createSessionsRepository(database: WorkspaceDatabase) {
  const { db } = database;
  const live = isNull(workspaces.endedAt);
  const kept = isNull(volumes.removedAt);
  return {
    async insert(row: NewWorkspace): Promise<WorkspaceRow> {
      const [inserted] = await db.insert(workspaces).values(row).returning();
      return inserted!;
    },
    async update(id: string, changes: Partial<NewWorkspace>): Promise<WorkspaceRow | undefined> {
      const [row] = await db.update(workspaces).set(changes).where(eq(workspaces.id, id)).returning();
      return row;
    },
    async find(id: string): Promise<WorkspaceRow | undefined> {
      const [row] = await db.select().from(workspaces).where(eq(workspaces.id, id));
      return row;
    },
    async findLiveByAttempt(attemptId: string): Promise<WorkspaceRow | undefined> {
      const [row] = await db
        .select()
        .from(workspaces)
        .where(and(eq(workspaces.attemptId, attemptId), live));
      return row;
    },
    /**
     * Atomically hands the oldest warm container of a type on this host to an attempt; concurrent claims never
     * share one.
     */
    async claimWarm(
      workspaceType: string,
      backend: EngineKind,
      host: string,
      assignment: Partial<NewWorkspace>,
    ): Promise<WorkspaceRow | undefined> {
      const oldest = sql`(select ${workspaces.id} from ${workspaces} where ${workspaces.status} = 'warm' and ${workspaces.workspaceType} = ${workspaceType} and ${workspaces.backend} = ${backend} and (${workspaces.host} = ${host} or ${workspaces.host} is null) and ${workspaces.endedAt} is null order by ${workspaces.createdAt} limit 1 for update skip locked)`;
      const [row] = await db
        .update(workspaces)
        .set({ ...assignment, status: 'ready', fromWarmPool: true })
        .where(and(eq(workspaces.id, oldest), eq(workspaces.status, 'warm')))
        .returning();
      return row;
    },
    /**
     * Tops a host's warm pool up to each type's target by inserting 'starting' rows, which count as pool
     * members at once. The count and the inserts run under a per-host advisory lock, so two orchestrator
     * replicas refilling at the same moment never both see the pool short and overfill it. Answers the
     * rows inserted; the caller starts their containers after the lock is released.
     */
    async reservePool(
      pool: { host: string; backend: EngineKind; targets: ReadonlyMap<string, number> },
      newRow: (workspaceType: string) => Promise<NewWorkspace>,
    ): Promise<WorkspaceRow[]> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`warm-pool:${pool.backend}:${pool.host}`}))`);
        const wanted: NewWorkspace[] = [];
        for (const [workspaceType, size] of pool.targets) {
          const [counted] = await tx
            .select({ n: sql<number>`count(*)::int` })
            .from(workspaces)
            .where(
              and(
                eq(workspaces.workspaceType, workspaceType),
                eq(workspaces.backend, pool.backend),
                or(eq(workspaces.host, pool.host), isNull(workspaces.host)),
                isNull(workspaces.attemptId),
                inArray(workspaces.status, ['warm', 'starting']),
                live,
              ),
            );
          for (let have = counted?.n ?? 0; have < size; have++) wanted.push(await newRow(workspaceType));
        }
        return wanted.length ? tx.insert(workspaces).values(wanted).returning() : [];
      });
    },
    /**
     * A reserved pool row whose start begins now: its start clock restarts (the reaper's start timeout counts
     * from here, not from the reservation). Undefined when the row was ended meanwhile.
     */
    async beginStart(id: string, at: Date): Promise<WorkspaceRow | undefined> {
      const [row] = await db
        .update(workspaces)
        .set({ createdAt: at, lastActivityAt: at })
        .where(and(eq(workspaces.id, id), eq(workspaces.status, 'starting'), live))
        .returning();
      return row;
    },
    /**
     * The live workspace on this host whose container has this address (the egress proxy names who asked;
     * bridge addresses repeat from host to host).
     */
    async findLiveByAddress(address: string, host: string): Promise<WorkspaceRow | undefined> {
      const [row] = await db
        .select()
        .from(workspaces)
        .where(
          and(
            like(workspaces.target, `${address}:%`),
            eq(workspaces.backend, 'docker'),
            or(eq(workspaces.host, host), isNull(workspaces.host)),
            live,
          ),
        );
      return row;
    },
    /** Which of these sessions have ended (their containers may go). */
    async listEndedAmong(ids: string[]): Promise<string[]> {
      if (!ids.length) return [];
      const rows = await db
        .select({ id: workspaces.id })
        .from(workspaces)
        .where(and(inArray(workspaces.id, ids), sql`${workspaces.endedAt} is not null`));
      return rows.map((row) => row.id);
    },
    /** Per exam, how many of its attempts have had a workspace (any status): the candidates already arrived. */
    async arrivedByExam(examIds: readonly string[]): Promise<Map<string, number>> {
      if (examIds.length === 0) return new Map();
      const rows = await db
        .select({ examId: workspaces.examId, n: sql<number>`count(distinct ${workspaces.attemptId})::int` })
        .from(workspaces)
        .where(inArray(workspaces.examId, [...examIds]))
        .groupBy(workspaces.examId);
      return new Map(rows.map((r) => [r.examId ?? '', r.n]));
    },
    /** Live workspaces on a host held by an attempt (the ones the warm pool must leave room for). */
    async countAssignedOnHost(host: string, backend: EngineKind): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(workspaces)
        .where(
          and(
            eq(workspaces.backend, backend),
            or(eq(workspaces.host, host), isNull(workspaces.host)),
            sql`${workspaces.attemptId} is not null`,
            live,
          ),
        );
      return row?.n ?? 0;
    },
    /** A host's ready, unclaimed pool containers of a type, newest first (the first to go when the pool shrinks). */
    async listWarm(workspaceType: string, host: string, backend: EngineKind): Promise<WorkspaceRow[]> {
      return db
        .select()
        .from(workspaces)
        .where(
          and(
            eq(workspaces.workspaceType, workspaceType),
            eq(workspaces.backend, backend),
            eq(workspaces.host, host),
            eq(workspaces.status, 'warm'),
            isNull(workspaces.attemptId),
            live,
          ),
        )
        .orderBy(desc(workspaces.createdAt));
    },
    async listLive(): Promise<WorkspaceRow[]> {
      return db.select().from(workspaces).where(live).orderBy(asc(workspaces.createdAt));
    },
    async listLiveForAttempt(attemptId: string): Promise<WorkspaceRow[]> {
      return db
        .select()
        .from(workspaces)
        .where(and(eq(workspaces.attemptId, attemptId), live));
    },
    async listLiveForOwner(ownerId: string): Promise<WorkspaceRow[]> {
      return db
        .select()
        .from(workspaces)
        .where(and(eq(workspaces.ownerId, ownerId), live))
        .orderBy(asc(workspaces.createdAt));
    },
    /** Live sessions of the exams, under the owner each exam's rows carry. */
    async listLiveForExams(examIds: readonly string[]): Promise<WorkspaceRow[]> {
      if (examIds.length === 0) return [];
      return db
        .select()
        .from(workspaces)
        .where(and(inArray(workspaces.examId, [...examIds]), live))
        .orderBy(asc(workspaces.createdAt));
    },
    async listIdle(before: Date): Promise<WorkspaceRow[]> {
      return db
        .select()
        .from(workspaces)
        .where(and(eq(workspaces.status, 'ready'), lt(workspaces.lastActivityAt, before), live));
    },
    async touch(id: string, at: Date): Promise<void> {
      await db
        .update(workspaces)
        .set({ lastActivityAt: at })
        .where(and(eq(workspaces.id, id), live));
    },
    async markEnded(id: string, at: Date, reason: string, status: 'ended' | 'failed' = 'ended'): Promise<void> {
      await db
        .update(workspaces)
        .set({ status, endedAt: at, endReason: reason })
        .where(and(eq(workspaces.id, id), live));
    },

    async insertVolume(row: NewVolume): Promise<void> {
      await db.insert(volumes).values(row);
    },
    /** The attempt's volume that still exists (at most one, by the partial unique index). */
    async findVolumeOfAttempt(attemptId: string): Promise<VolumeRow | undefined> {
      const [row] = await db
        .select()
        .from(volumes)
        .where(and(eq(volumes.attemptId, attemptId), kept));
      return row;
    },
    async findVolume(name: string): Promise<VolumeRow | undefined> {
      const [row] = await db.select().from(volumes).where(eq(volumes.name, name));
      return row;
    },
    async updateVolume(name: string, changes: Partial<NewVolume>): Promise<void> {
      await db
        .update(volumes)
        .set(changes)
        .where(and(eq(volumes.name, name), kept));
    },
    async listKeptVolumes(): Promise<VolumeRow[]> {
      return db.select().from(volumes).where(kept).orderBy(asc(volumes.createdAt));
    },
    /** Deletes start-failure records whose last failed try is older than `before`; answers how many went. */
    async pruneStartFailures(before: Date): Promise<number> {
      const gone = await db
        .delete(startFailures)
        .where(lt(startFailures.lastFailedAt, before))
        .returning({ attemptId: startFailures.attemptId });
      return gone.length;
    },
  };
}
export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
