import { AppError, ErrorCode } from '@exam/domain/errors';
import {
  PreviewMessages,
  PublicExamMessages,
  type PreviewTokenResponse,
  type PublicExam,
} from '@exam/domain/public-exam';
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
  /** Whether the creator's sign-in session is still open (the auth module's check, passed in by app.ts). */
  isSessionOpen: (ref: { userId: string; sessionId: string }) => Promise<boolean>,
) {
  return {
    /** Only the owner gets one; another creator's exam does not exist for them (404, as in the exams API). */
    async issue(ownerId: string, sessionId: string, examId: string): Promise<PreviewTokenResponse> {
      const row = await exams.findOwned(ownerId, examId);
      if (!row) throw new AppError(ErrorCode.NOT_FOUND, 'Exam not found');
      return tokens.issue(row.id, ownerId, sessionId);
    },

    /**
     * The token must name this exam, the session it was bought with must still be open (a signed-out creator's
     * links stop working with the session, ARCHITECTURE.md "Creator sessions"), and the exam must still belong to
     * whoever asked for the token.
     */
    async read(examId: string, claims: PreviewClaims): Promise<PublicExam> {
      if (!(await isSessionOpen({ userId: claims.ownerId, sessionId: claims.sid }))) {
        throw new AppError(ErrorCode.UNAUTHENTICATED, PreviewMessages.invalid);
      }
      if (claims.sub !== examId) throw new AppError(ErrorCode.FORBIDDEN, PreviewMessages.otherExam);
      const row = await exams.findOwned(claims.ownerId, examId);
      if (!row) throw new AppError(ErrorCode.NOT_FOUND, PublicExamMessages.notFound);
      return candidateViewOf(row, materials, opts);
    },
  };
}
export type PreviewService = ReturnType<typeof createPreviewService>;
