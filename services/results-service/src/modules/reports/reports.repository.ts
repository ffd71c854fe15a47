import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { attempts, events, reportLinks, results } from '../../db/schema.ts';
import { percentageOf } from '../../scoring/score.ts';
import { isKept } from '../results/kept-results.ts';

export type ReportLinkRow = typeof reportLinks.$inferSelect;

/** The proctoring events the report's integrity observations are read from. */
const OBSERVED_EVENTS = ['focus-lost', 'focus-gained', 'fullscreen-exit', 'fullscreen-enter', 'paste-blocked'];

/** Share links of candidate reports, and the reads a report is built from. */
export function createReportsRepository({ db }: ResultsDatabase) {
  return {
    /** The owner's result with its attempt (undefined for another creator's or an unknown one). */
    async findResult(resultId: string, ownerId: string) {
      const [row] = await db
        .select({
          result: results,
          snapshot: attempts.examSnapshot,
          deadline: attempts.deadline,
          candidateKey: attempts.candidateKey,
          attemptNo: sql<number>`coalesce(${attempts.attemptNo}, 1)`.mapWith(Number),
        })
        .from(results)
        .innerJoin(attempts, eq(attempts.id, results.attemptId))
        .where(and(eq(results.id, resultId), eq(results.ownerId, ownerId)))
        .limit(1);
      return row;
    },

    async ownsResult(resultId: string, ownerId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: results.id })
        .from(results)
        .where(and(eq(results.id, resultId), eq(results.ownerId, ownerId)))
        .limit(1);
      return row !== undefined;
    },

    async insertLink(row: typeof reportLinks.$inferInsert): Promise<ReportLinkRow> {
      const [stored] = await db.insert(reportLinks).values(row).returning();
      return stored!;
    },

    listLinks(resultId: string, ownerId: string): Promise<ReportLinkRow[]> {
      return db
        .select()
        .from(reportLinks)
        .where(and(eq(reportLinks.resultId, resultId), eq(reportLinks.ownerId, ownerId)))
        .orderBy(desc(reportLinks.createdAt), desc(reportLinks.id));
    },

    /** Sets revoked_at once (a second revoke keeps the first time); undefined for another creator's link. */
    async revoke(linkId: string, resultId: string, ownerId: string, now: Date): Promise<ReportLinkRow | undefined> {
      const [row] = await db
        .update(reportLinks)
        .set({ revokedAt: sql`coalesce(${reportLinks.revokedAt}, ${now.toISOString()}::timestamptz)` })
        .where(and(eq(reportLinks.id, linkId), eq(reportLinks.resultId, resultId), eq(reportLinks.ownerId, ownerId)))
        .returning();
      return row;
    },

    /**
     * The link with this token hash while it may be used (not revoked, not expired at `now`), counting the open.
     * One statement, so a link revoked a moment before is never counted or served.
     */
    async open(tokenHash: string, now: Date): Promise<ReportLinkRow | undefined> {
      const [row] = await db
        .update(reportLinks)
        .set({ lastOpenedAt: now, openCount: sql`${reportLinks.openCount} + 1` })
        .where(
          and(
            eq(reportLinks.tokenHash, tokenHash),
            sql`${reportLinks.revokedAt} is null`,
            sql`${reportLinks.expiresAt} > ${now.toISOString()}::timestamptz`,
          ),
        )
        .returning();
      return row;
    },

    /** The attempt's observed proctoring events in time order (server time). */
    observedEvents(attemptId: string) {
      return db
        .select({ type: events.type, at: events.recordedAt })
        .from(events)
        .where(and(eq(events.attemptId, attemptId), inArray(events.type, OBSERVED_EVENTS)))
        .orderBy(asc(events.recordedAt), asc(events.id));
    },

    /**
     * The percentages the report's percentile compares with: every other candidate's kept result of the exam
     * (kept-results.ts), graded, not a practice attempt. The reported candidate's own are left out: their result
     * under report stands in for them.
     */
    async cohortPercentages(examId: string, ownerId: string, candidateKey: string): Promise<number[]> {
      const rows = await db
        .select({ score: results.score, maxScore: results.maxScore })
        .from(results)
        .innerJoin(attempts, eq(attempts.id, results.attemptId))
        .where(
          and(
            eq(results.examId, examId),
            eq(results.ownerId, ownerId),
            ne(results.status, 'pending'),
            eq(attempts.practice, false),
            ne(attempts.candidateKey, candidateKey),
            isKept(),
          ),
        );
      return rows.map((r) => percentageOf(r.score, r.maxScore));
    },
  };
}
export type ReportsRepository = ReturnType<typeof createReportsRepository>;
