import { EQUIVALENCE_MARGIN, type EquivalenceReport } from '@exam/domain/assistant-audit';
import type { CreatorClaims } from '@exam/domain/auth';
import { AppError, ErrorCode, notFound } from '@exam/domain/errors';
import { buildEquivalenceReport } from '@exam/psychometrics/equivalence';
import type { Deps } from '../../deps.ts';
import type { EquivalenceRepository } from './equivalence.repository.ts';
import { assertCan } from '../../access/exam-access.ts';

export const EquivalenceMessages = {
  singleConfiguration:
    "Compare at least two configurations: this audit ran only the exam's own assistant. Start an audit that compares it with another provider or model.",
} as const;

/**
 * Provider equivalence of an audit (docs/product.md, "Comparing configurations"), for the exam's owner only:
 * the audit's leak counts and the newest finished solvability check of the same exam version over the same
 * configurations, read into one report by the pure rule in @exam/psychometrics/equivalence.
 */
export function createEquivalenceService(repo: EquivalenceRepository, deps: Pick<Deps, 'exams'>) {
  return {
    async report(creator: CreatorClaims, examId: string, auditId: string): Promise<EquivalenceReport> {
      const exam = await assertCan(deps, examId, creator.sub, 'exam:edit');
      const audit = await repo.findAudit(exam.id, auditId);
      if (!audit) throw notFound('Audit');
      if (audit.configurations.length < 2)
        throw new AppError(ErrorCode.CONFLICT, EquivalenceMessages.singleConfiguration);
      const check = await repo.findComparableCheck(exam.id, audit.examVersion, audit.configurations);
      return buildEquivalenceReport({
        auditId: audit.id,
        configurations: audit.configurations,
        auditItems: audit.items,
        solvability: check ?? null,
        margin: EQUIVALENCE_MARGIN,
      });
    },
  };
}
export type EquivalenceService = ReturnType<typeof createEquivalenceService>;
