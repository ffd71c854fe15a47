import { AppError, ErrorCode } from '@exam/domain/errors';
import {
  PreviewMessages,
  PublicExamMessages,
  type PreviewTokenResponse,
  type PublicExam,
} from '@exam/domain/public-exam';
import type { ExamAccessCheck } from '../exams/exam-access.ts';
import type { MaterialsRepository } from '../materials/materials.repository.ts';
import { candidateViewOf, type CandidateViewOptions } from '../public/public.service.ts';
import type { PreviewClaims, PreviewTokens } from './preview-token.ts';

/**
 * The creator's preview (docs/product.md#sitting-an-exam, 'Preview'): the owner's session buys a short-lived
 * token for one exam, and that token reads the exam as a candidate would see it, in any state, and nothing else.
 */
export function createPreviewService(
  access: ExamAccessCheck,
  materials: MaterialsRepository,
  tokens: PreviewTokens,
  opts: CandidateViewOptions,
  /** Whether the creator's sign-in session is still open (the auth module's check, passed in by app.ts). */
  isSessionOpen: (ref: { userId: string; sessionId: string }) => Promise<boolean>,
) {
  return {
    /**
     * Only a role that may edit the exam gets one (exam-access.ts): 404 to a creator with no role on it, as in the
     * exams API, 403 to a member whose role does not edit.
     */
    async issue(creatorId: string, sessionId: string, examId: string): Promise<PreviewTokenResponse> {
      const { row } = await access.require(creatorId, examId, 'exam:edit');
      return tokens.issue(row.id, creatorId, sessionId);
    },

    /**
     * The token must name this exam, the session it was bought with must still be open (a signed-out creator's
     * links stop working with the session, ARCHITECTURE.md "Creator sessions"), and whoever asked for the token must
     * still hold a role that edits the exam (a share removed meanwhile ends it).
     */
    async read(examId: string, claims: PreviewClaims): Promise<PublicExam> {
      if (!(await isSessionOpen({ userId: claims.ownerId, sessionId: claims.sid }))) {
        throw new AppError(ErrorCode.UNAUTHENTICATED, PreviewMessages.invalid);
      }
      if (claims.sub !== examId) throw new AppError(ErrorCode.FORBIDDEN, PreviewMessages.otherExam);
      const row = await access.find(claims.ownerId, examId, 'exam:edit');
      if (!row) throw new AppError(ErrorCode.NOT_FOUND, PublicExamMessages.notFound);
      return candidateViewOf(row, materials, opts);
    },
  };
}
export type PreviewService = ReturnType<typeof createPreviewService>;
