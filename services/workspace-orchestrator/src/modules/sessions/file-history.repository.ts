import { and, asc, desc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { WorkspaceDatabase } from '../../db/database.ts';
import { fileHistories, fileVersions, workspaces, type FileHistoryRow, type FileVersionRow } from '../../db/schema.ts';
import type { EngineKind } from '../../engine/engine.ts';

export type NewFileVersion = typeof fileVersions.$inferInsert;
/** The latest version of each path: enough to tell whether a file changed and which version comes next. */
export type FileHead = Pick<FileVersionRow, 'path' | 'version' | 'kind' | 'hash' | 'at'>;

type Tx = Parameters<Parameters<WorkspaceDatabase['db']['transaction']>[0]>[0];

/** What one snapshot's writer reads and writes while it holds the attempt's history row. */
export type FileHistoryWriter = {
  history: FileHistoryRow;
  heads(): Promise<Map<string, FileHead>>;
  /** A path's versions from its last full text on (what its current text is rebuilt from). */
  chain(path: string): Promise<FileVersionRow[]>;
  append(
    rows: NewFileVersion[],
    update: Partial<Pick<FileHistoryRow, 'bytes' | 'cappedAt' | 'lookedAt' | 'dueAt'>>,
  ): Promise<void>;
};

/** Queries only (file_histories and file_versions); the rules live in file-history.ts. */
export function createFileHistoryRepository({ db }: Pick<WorkspaceDatabase, 'db'>) {
  const writerOf = (tx: Tx, history: FileHistoryRow): FileHistoryWriter => ({
    history,
    async heads() {
      const rows = await tx
        .selectDistinctOn([fileVersions.path], {
          path: fileVersions.path,
          version: fileVersions.version,
          kind: fileVersions.kind,
          hash: fileVersions.hash,
          at: fileVersions.at,
        })
        .from(fileVersions)
        .where(eq(fileVersions.attemptId, history.attemptId))
        .orderBy(fileVersions.path, desc(fileVersions.version));
      return new Map(rows.map((row) => [row.path, row]));
    },
    async chain(path) {
      const own = and(eq(fileVersions.attemptId, history.attemptId), eq(fileVersions.path, path));
      const [base] = await tx
        .select({ version: fileVersions.version })
        .from(fileVersions)
        .where(and(own, eq(fileVersions.kind, 'full')))
        .orderBy(desc(fileVersions.version))
        .limit(1);
      return tx
        .select()
        .from(fileVersions)
        .where(and(own, sql`${fileVersions.version} >= ${base?.version ?? 0}`))
        .orderBy(asc(fileVersions.version));
    },
    async append(rows, update) {
      if (rows.length) await tx.insert(fileVersions).values(rows);
      await tx.update(fileHistories).set(update).where(eq(fileHistories.attemptId, history.attemptId));
    },
  });

  return {
    /**
     * Runs `write` holding the attempt's history row (created when missing) under FOR UPDATE, so the job's
     * snapshot and the one taken at collection never interleave: the second sees the first's versions.
     */
    async withWriter<T>(attemptId: string, now: Date, write: (writer: FileHistoryWriter) => Promise<T>): Promise<T> {
      return db.transaction(async (tx) => {
        await tx.insert(fileHistories).values({ attemptId, dueAt: now }).onConflictDoNothing();
        const [history] = await tx
          .select()
          .from(fileHistories)
          .where(eq(fileHistories.attemptId, attemptId))
          .for('update');
        return write(writerOf(tx, history!));
      });
    },

    /**
     * Claims up to `limit` attempts whose live, ready workspace runs on this host and whose next look is due,
     * pushing each one's `dueAt` to `leaseUntil`. Attempts with a running workspace but no history row yet get
     * one first (due at once). SKIP LOCKED: replicas never wait on each other's claims.
     */
    async claimDue(
      on: { backend: EngineKind; host: string },
      now: Date,
      leaseUntil: Date,
      limit: number,
    ): Promise<string[]> {
      const running = and(
        isNull(workspaces.endedAt),
        eq(workspaces.status, 'ready'),
        eq(workspaces.backend, on.backend),
        or(eq(workspaces.host, on.host), isNull(workspaces.host)),
        sql`${workspaces.attemptId} is not null`,
      );
      await db
        .insert(fileHistories)
        .select(
          db
            .select({
              attemptId: sql<string>`${workspaces.attemptId}`.as('attempt_id'),
              bytes: sql<number>`0`.as('bytes'),
              cappedAt: sql<Date | null>`null::timestamptz`.as('capped_at'),
              followed: sql<boolean | null>`null::boolean`.as('followed'),
              lookedAt: sql<Date | null>`null::timestamptz`.as('looked_at'),
              dueAt: sql<Date>`${now.toISOString()}::timestamptz`.as('due_at'),
            })
            .from(workspaces)
            .where(running),
        )
        .onConflictDoNothing();
      return db.transaction(async (tx) => {
        const onThisHost = tx
          .select({ attemptId: sql`${workspaces.attemptId}` })
          .from(workspaces)
          .where(running);
        const due = await tx
          .select({ attemptId: fileHistories.attemptId })
          .from(fileHistories)
          .where(
            and(
              lte(fileHistories.dueAt, now),
              isNull(fileHistories.cappedAt),
              or(isNull(fileHistories.followed), eq(fileHistories.followed, true)),
              inArray(fileHistories.attemptId, onThisHost),
            ),
          )
          .orderBy(asc(fileHistories.dueAt))
          .limit(limit)
          .for('update', { skipLocked: true });
        if (!due.length) return [];
        const ids = due.map((row) => row.attemptId);
        await tx.update(fileHistories).set({ dueAt: leaseUntil }).where(inArray(fileHistories.attemptId, ids));
        return ids;
      });
    },

    /** Records whether the attempt's files are followed (the first answer stays). */
    async decideFollowed(attemptId: string, followed: boolean, now: Date): Promise<void> {
      await db.insert(fileHistories).values({ attemptId, followed, dueAt: now }).onConflictDoNothing();
      await db
        .update(fileHistories)
        .set({ followed })
        .where(and(eq(fileHistories.attemptId, attemptId), isNull(fileHistories.followed)));
    },

    async findHistory(attemptId: string): Promise<FileHistoryRow | undefined> {
      const [row] = await db.select().from(fileHistories).where(eq(fileHistories.attemptId, attemptId));
      return row;
    },

    /** Every version of the attempt's files, by path and then in order. */
    async listVersions(attemptId: string): Promise<FileVersionRow[]> {
      return db
        .select()
        .from(fileVersions)
        .where(eq(fileVersions.attemptId, attemptId))
        .orderBy(asc(fileVersions.path), asc(fileVersions.version));
    },
  };
}
export type FileHistoryRepository = ReturnType<typeof createFileHistoryRepository>;
