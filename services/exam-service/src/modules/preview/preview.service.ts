import { AppError, ErrorCode } from '@exam/domain/errors';
import { PreviewMessages, PublicExamMessages, type PreviewTokenResponse, type PublicExam } from '@exam/domain/exam';
import type { ExamsRepository } from '../exams/exams.repository.ts';
import type { MaterialsRepository } from '../materials/materials.repository.ts';
import { candidateViewOf, type CandidateViewOptions } from '../public/public.service.ts';
import type { PreviewClaims, PreviewTokens } from './preview-token.ts';

/**
 * The creator's preview (docs/product.md#sitting-an-exam, 'Preview'): the owner's session buys a short-lived
 * token for one exam, and that token reads the exam as a candidate would see it, in any state, and nothing else.
 */
export function createPreviewService(
  exams: ExamsRepository,
  materials: MaterialsRepository,
  tokens: PreviewTokens,
  opts: CandidateViewOptions,
) {
  return {
    /** Only the owner gets one; another creator's exam does not exist for them (404, as in the exams API). */
    async issue(ownerId: string, examId: string): Promise<PreviewTokenResponse> {
      const row = await exams.findOwned(ownerId, examId);
      if (!row) throw new AppError(ErrorCode.NOT_FOUND, 'Exam not found');
      return tokens.issue(row.id, ownerId);
    },

    /** The token must name this exam, and the exam must still belong to whoever asked for the token. */
    async read(examId: string, claims: PreviewClaims): Promise<PublicExam> {
      if (claims.sub !== examId) throw new AppError(ErrorCode.FORBIDDEN, PreviewMessages.otherExam);
      const row = await exams.findOwned(claims.ownerId, examId);
      if (!row) throw new AppError(ErrorCode.NOT_FOUND, PublicExamMessages.notFound);
      return candidateViewOf(row, materials, opts);
    },
  };
}
export type PreviewService = ReturnType<typeof createPreviewService>;
