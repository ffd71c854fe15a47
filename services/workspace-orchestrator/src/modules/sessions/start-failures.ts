import type { AttemptClaims } from '@exam/domain/auth';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { WORKSPACE_UNAVAILABLE, type WorkspaceStartFailure } from '@exam/domain/workspace';
import { eq, sql } from 'drizzle-orm';
import type { WorkspaceDatabase } from '../../db/database.ts';
import { startFailures } from '../../db/schema.ts';

/** Where the reason of a failed start goes besides the record: the request's logger. */
export type FailureLog = { warn(details: Record<string, unknown>, message: string): void };

/**
 * Failed workspace starts, kept with the attempt for its creator. The candidate's answer names no engine,
 * socket or image: those are for whoever can fix them (docs/product.md#the-coding-workspace).
 */
export function createStartFailures(database: WorkspaceDatabase, clock: { now(): Date }) {
  const { db } = database;

  async function record(claims: AttemptClaims, reason: string): Promise<void> {
    const at = clock.now();
    await db
      .insert(startFailures)
      .values({
        attemptId: claims.sub,
        examId: claims.examId,
        ownerId: claims.ownerId,
        reason,
        failures: 1,
        firstFailedAt: at,
        lastFailedAt: at,
      })
      .onConflictDoUpdate({
        target: startFailures.attemptId,
        set: { reason, failures: sql`${startFailures.failures} + 1`, lastFailedAt: at },
      });
  }

  return {
    /**
     * Runs a start; a 503 (no engine, no image, a container that did not come up) is recorded and logged with
     * its reason, and the candidate gets the bare WORKSPACE_UNAVAILABLE. Other refusals (the attempt has
     * ended, no workspace for this exam) pass unchanged: they name nothing technical.
     */
    async guard<T>(claims: AttemptClaims, log: FailureLog, start: () => Promise<T>): Promise<T> {
      try {
        return await start();
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== ErrorCode.UNAVAILABLE) throw error;
        const prefix = `${WORKSPACE_UNAVAILABLE}: `;
        const reason = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
        log.warn({ attemptId: claims.sub, examId: claims.examId, reason }, 'The workspace could not start');
        await record(claims, reason);
        throw new AppError(ErrorCode.UNAVAILABLE, WORKSPACE_UNAVAILABLE);
      }
    },

    /** The attempt's failure for the creator who owns its exam; null when there is none or it is another's. */
    async find(attemptId: string, creatorId: string): Promise<WorkspaceStartFailure | null> {
      const [row] = await db.select().from(startFailures).where(eq(startFailures.attemptId, attemptId));
      if (!row || row.ownerId !== creatorId) return null;
      return {
        attemptId: row.attemptId,
        reason: row.reason,
        failures: row.failures,
        firstFailedAt: row.firstFailedAt.toISOString(),
        lastFailedAt: row.lastFailedAt.toISOString(),
      };
    },
  };
}
export type StartFailures = ReturnType<typeof createStartFailures>;
