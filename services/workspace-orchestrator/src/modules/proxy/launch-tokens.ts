import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { WorkspaceDatabase } from '../../db/database.ts';
import { launchTokens } from '../../db/schema.ts';

const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

export type Launch = { sessionId: string; attemptId: string; capAt: Date };

/**
 * One-time launch tokens (see the launch_tokens table): 32 random bytes, stored only as a hash, consumed by
 * one conditional UPDATE so two replicas (or two tabs) cannot both exchange the same token.
 */
export function createLaunchTokens(database: WorkspaceDatabase, opts: { ttlSeconds: number }) {
  const { db } = database;
  return {
    async issue(launch: Launch, now: Date): Promise<{ token: string; expiresAt: Date }> {
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(Math.min(now.getTime() + opts.ttlSeconds * 1000, launch.capAt.getTime()));
      // Spent and expired tickets are worth nothing; each issue sweeps the ones older than a minute.
      await db.delete(launchTokens).where(lt(launchTokens.expiresAt, new Date(now.getTime() - 60_000)));
      await db.insert(launchTokens).values({ tokenHash: hashOf(token), ...launch, expiresAt });
      return { token, expiresAt };
    },
    /** The launch the token was issued for, once; undefined when unknown, spent, expired or for another session. */
    async consume(token: string, sessionId: string, now: Date): Promise<Launch | undefined> {
      const [row] = await db
        .update(launchTokens)
        .set({ usedAt: now })
        .where(
          and(
            eq(launchTokens.tokenHash, hashOf(token)),
            eq(launchTokens.sessionId, sessionId),
            isNull(launchTokens.usedAt),
            gt(launchTokens.expiresAt, now),
          ),
        )
        .returning();
      return row ? { sessionId: row.sessionId, attemptId: row.attemptId, capAt: row.capAt } : undefined;
    },
  };
}
export type LaunchTokens = ReturnType<typeof createLaunchTokens>;
