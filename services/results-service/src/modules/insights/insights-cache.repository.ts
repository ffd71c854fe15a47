import { sql } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { queryRows } from '../../db/rows.ts';
import { insightsReports } from '../../db/schema.ts';

export type CachedReportKey = { examId: string; ownerId: string; model: string };

/**
 * The insights cache's table (insights_reports) and the exam's change counter (insights_versions, kept by
 * triggers in the migration insights_cache calling src/db/functions/insights_bump.sql).
 */
export function createInsightsCacheRepository({ db }: ResultsDatabase) {
  return {
    /**
     * The exam's insights version now, and the cached body (gzip) when it was computed at that version from
     * inputs with `inputsDigest`; null otherwise. One round trip.
     */
    async lookup(key: CachedReportKey, inputsDigest: string): Promise<{ version: number; bodyGzip: Buffer | null }> {
      const [row] = await queryRows<{ version: string | number; body: Uint8Array | null }>(
        db,
        sql`select v.version, (
              select r.body_gzip from results_service.insights_reports r
              where r.exam_id = ${key.examId} and r.owner_id = ${key.ownerId} and r.model = ${key.model}
                and r.data_version = v.version and r.inputs_digest = ${inputsDigest}
            ) as body
            from (select coalesce(sum(version), 0)::bigint as version
                  from results_service.insights_versions where exam_id = ${key.examId}) v`,
      );
      const body = row?.body ?? null;
      return {
        version: Number(row?.version ?? 0),
        bodyGzip:
          body === null
            ? null
            : Buffer.isBuffer(body)
              ? body
              : Buffer.from(body.buffer, body.byteOffset, body.byteLength),
      };
    },

    /**
     * Keeps `bodyGzip` as the report of `key` at `version`. A replica that finished later with an older
     * version never replaces a newer one.
     */
    async store(
      key: CachedReportKey,
      version: number,
      inputsDigest: string,
      bodyGzip: Buffer,
      now: Date,
    ): Promise<void> {
      await db
        .insert(insightsReports)
        .values({ ...key, dataVersion: version, inputsDigest, bodyGzip, computedAt: now })
        .onConflictDoUpdate({
          target: [insightsReports.examId, insightsReports.ownerId, insightsReports.model],
          set: { dataVersion: version, inputsDigest, bodyGzip, computedAt: now },
          setWhere: sql`${insightsReports.dataVersion} <= excluded.data_version`,
        });
    },
  };
}
export type InsightsCacheRepository = ReturnType<typeof createInsightsCacheRepository>;
