import type { PrivacyEraseRequest } from '@exam/domain/privacy';
import type { Deps } from '../../deps.ts';
import type { PrivacyRepository } from './privacy.repository.ts';

/** A candidate's data in results-service: their attempts, erasure (the database, then Redis presence) and export. */
export function createPrivacyService(repo: PrivacyRepository, deps: Pick<Deps, 'redis'>) {
  return {
    async attempts(query: {
      examId: string;
      candidateKey?: string | undefined;
      before?: string | undefined;
      limit: number;
    }) {
      if (query.before) return repo.expiredAttempts(query.examId, new Date(query.before), query.limit);
      if (query.candidateKey) return repo.attemptsOf(query.examId, query.candidateKey);
      return [];
    },

    async erase(request: PrivacyEraseRequest): Promise<Record<string, number>> {
      const deleted = await repo.erase(request);
      // Presence kept in Redis expires by itself (PRESENCE_TTL_MS), but nothing of an erased attempt should wait for it.
      const redis = deps.redis;
      if (redis && request.attemptIds.length > 0) {
        const removed = await redis.client.del(...request.attemptIds.map((id) => `${redis.keyPrefix}presence:${id}`));
        if (removed > 0) deleted['redis:presence'] = removed;
      }
      return deleted;
    },

    export: (examId: string, candidateKey: string) => repo.export(examId, candidateKey),
  };
}
export type PrivacyService = ReturnType<typeof createPrivacyService>;
