import type { AttemptClaims } from '@exam/domain/auth';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { plainWorkspaceUnavailable, UnavailableError } from '@exam/domain/service-status';
import { WORKSPACE_UNAVAILABLE, type WorkspaceStartFailure } from '@exam/domain/workspace';
import { eq, sql } from 'drizzle-orm';
import type { WorkspaceDatabase } from '../../db/database.ts';
import { startFailures } from '../../db/schema.ts';

/** Where the reason of a failed start goes besides the record: the request's logger. */
export type FailureLog = { warn(details: Record<string, unknown>, message: string): void };

/**
 * Failed workspace starts, kept with the attempt for its creator in plain words (what it means, who can fix it).
 * Neither the candidate's answer nor the creator's record names an engine, socket or image: those are in the log and
 * on the admin status page, for whoever can fix them (docs/product.md#the-coding-workspace).
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
        const known = error instanceof UnavailableError;
        const prefix = `${WORKSPACE_UNAVAILABLE}: `;
        // Every start failure is an UnavailableError with its plain words; anything else is told as a failed start.
        const plain = known
          ? error.message.startsWith(prefix)
            ? error.message.slice(prefix.length)
            : error.message
          : plainWorkspaceUnavailable('start-failed');
        const detail = known ? error.detail : error.message;
        log.warn(
          { attemptId: claims.sub, examId: claims.examId, kind: known ? error.kind : 'start-failed', detail },
          'The workspace could not start',
        );
        await record(claims, plain);
        throw new AppError(ErrorCode.UNAVAILABLE, WORKSPACE_UNAVAILABLE);
      }
    },

    /** The attempt's failure with its exam and owner (the route checks who may read it); null when there is none. */
    async find(
      attemptId: string,
    ): Promise<{ exam: { examId: string; ownerId: string }; failure: WorkspaceStartFailure } | null> {
      const [row] = await db.select().from(startFailures).where(eq(startFailures.attemptId, attemptId));
      if (!row) return null;
      return {
        exam: { examId: row.examId, ownerId: row.ownerId },
        failure: {
          attemptId: row.attemptId,
          reason: row.reason,
          failures: row.failures,
          firstFailedAt: row.firstFailedAt.toISOString(),
          lastFailedAt: row.lastFailedAt.toISOString(),
        },
      };
    },
  };
}
export type StartFailures = ReturnType<typeof createStartFailures>;
