import type { AiProvider } from '@exam/domain/ai-catalogue';
import type { TokenClaims } from '@exam/domain/auth';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { hasUsableAiKey, PublicExamMessages, toPublicExam, type PublicExam } from '@exam/domain/exam';
import type { ExamsRepository } from '../exams/exams.repository.ts';
import type { MaterialsRepository } from '../materials/materials.repository.ts';

export function createPublicService(
  exams: ExamsRepository,
  materials: MaterialsRepository,
  opts: { defaultProviderKeys: Record<AiProvider, boolean> },
) {
  return {
    /**
     * The candidate's view (docs/product.md#sitting-an-exam): unknown ids and drafts are not found, a published
     * exam that is not live is offline. The owner's own token previews it in any state (a preview).
     */
    async getForCandidate(id: string, viewer: TokenClaims | undefined): Promise<PublicExam> {
      const row = await exams.findById(id);
      const isOwnerPreview = row !== undefined && viewer?.kind === 'creator' && viewer.sub === row.ownerId;
      if (!row || (row.isDraft && !isOwnerPreview))
        throw new AppError(ErrorCode.NOT_FOUND, PublicExamMessages.notFound);
      if (!row.isLive && !isOwnerPreview) throw new AppError(ErrorCode.EXAM_OFFLINE, PublicExamMessages.offline);

      const materialNames = (await materials.findMetadata(row.ownerId, row.aiSettings.courseMaterialIds)).map(
        (m) => m.name,
      );
      return toPublicExam(row, {
        materialNames,
        hasUsableKey: hasUsableAiKey(row.aiSettings, {
          hasCreatorKey: row.encryptedApiKey !== null,
          serverKeys: opts.defaultProviderKeys,
        }),
      });
    },
  };
}
export type PublicService = ReturnType<typeof createPublicService>;
