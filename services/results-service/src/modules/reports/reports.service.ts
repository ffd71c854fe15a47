import { createHash, randomBytes } from 'node:crypto';
import {
  ReportMessages,
  type CandidateReport,
  type CreatedReportLink,
  type ReportLink,
  type ReportLinkList,
} from '@exam/domain/candidate-report';
import type { CollaborationProfile } from '@exam/domain/collaboration';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { Deps } from '../../deps.ts';
import { resultNotFound } from '../results/results.service.ts';
import { buildReport } from './report-view.ts';
import type { ReportLinkRow, ReportsRepository } from './reports.repository.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The token a link carries (256 random bits) and the hash kept of it (hex SHA-256). */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export type ReportsServiceDeps = Pick<Deps, 'clock' | 'ids'> & {
  repo: ReportsRepository;
  /** The result's collaboration profile as its owner reads it (modules/collaboration, read at request time). */
  profileOf(resultId: string, ownerId: string): Promise<CollaborationProfile>;
  log: { warn(obj: object, msg: string): void };
};

function toLink(row: ReportLinkRow, now: Date): ReportLink {
  const state = row.revokedAt ? 'revoked' : row.expiresAt <= now ? 'expired' : 'active';
  return {
    id: row.id,
    resultId: row.resultId,
    state,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    expiresAt: row.expiresAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    lastOpenedAt: row.lastOpenedAt?.toISOString() ?? null,
    openCount: row.openCount,
  };
}

/**
 * Candidate reports (docs/product.md#candidate-report): the exam's owner makes, lists and revokes share links of a
 * result (another creator's result answers 404 as if unknown); anyone with a live link reads the report.
 */
export function createReportsService(deps: ReportsServiceDeps) {
  const notFound = () => new AppError(ErrorCode.NOT_FOUND, ReportMessages.notFound);

  return {
    async create(resultId: string, owner: { sub: string; email: string }, days: number): Promise<CreatedReportLink> {
      if (!(await deps.repo.ownsResult(resultId, owner.sub))) throw resultNotFound();
      const token = randomBytes(32).toString('base64url');
      const now = deps.clock.now();
      const row = await deps.repo.insertLink({
        id: deps.ids.next(),
        resultId,
        ownerId: owner.sub,
        tokenHash: hashToken(token),
        createdBy: owner.email,
        createdAt: now,
        expiresAt: new Date(now.getTime() + days * DAY_MS),
      });
      return { ...toLink(row, now), token };
    },

    async list(resultId: string, ownerId: string): Promise<ReportLinkList> {
      if (!(await deps.repo.ownsResult(resultId, ownerId))) throw resultNotFound();
      const now = deps.clock.now();
      return { links: (await deps.repo.listLinks(resultId, ownerId)).map((row) => toLink(row, now)) };
    },

    async revoke(resultId: string, linkId: string, ownerId: string): Promise<ReportLink> {
      const now = deps.clock.now();
      const row = await deps.repo.revoke(linkId, resultId, ownerId, now);
      if (!row) throw new AppError(ErrorCode.NOT_FOUND, 'Report link not found');
      return toLink(row, now);
    },

    /** The report behind a live link; one 404 for a token that is unknown, expired or revoked. */
    async read(token: string): Promise<CandidateReport> {
      const now = deps.clock.now();
      const link = await deps.repo.open(hashToken(token), now);
      if (!link) throw notFound();
      const found = await deps.repo.findResult(link.resultId, link.ownerId);
      if (!found) throw notFound();
      const { result } = found;
      const [cohort, events, profile] = await Promise.all([
        deps.repo.cohortPercentages(result.examId, link.ownerId, found.candidateKey),
        deps.repo.observedEvents(result.attemptId),
        deps.profileOf(result.id, link.ownerId).catch((err: unknown) => {
          // The report goes on without the profile (its page says it could not be read).
          deps.log.warn({ err, resultId: result.id }, 'candidate report without the collaboration profile');
          return null;
        }),
      ]);
      return buildReport({ ...found, cohort, events, profile, expiresAt: link.expiresAt });
    },
  };
}
export type ReportsService = ReturnType<typeof createReportsService>;
