import type { AiProvider } from '@exam/domain/ai-catalogue';
import type { TokenClaims } from '@exam/domain/auth';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { missingAiConfiguration, PublicExamMessages, toPublicQuestion, type PublicExam } from '@exam/domain/exam';
import type { ExamRow, ExamsRepository } from '../exams/exams.repository.ts';
import type { MaterialsRepository } from '../materials/materials.repository.ts';

/**
 * Whether the assistant has a key to work with: the creator's own, the server's default for that
 * provider, or a self-hosted OpenAI-compatible server (which needs only its base URL).
 */
function hasUsableKey(row: ExamRow, defaultProviderKeys: Record<AiProvider, boolean>): boolean {
  const ai = row.aiSettings;
  return row.encryptedApiKey !== null || defaultProviderKeys[ai.provider] || (ai.provider === 'openai-compatible' && ai.baseUrl !== '');
}

export function createPublicService(exams: ExamsRepository, materials: MaterialsRepository, opts: { defaultProviderKeys: Record<AiProvider, boolean> }) {
  return {
    /**
     * The candidate's view (spec sections 4 and 8): unknown ids and drafts are not found, a published
     * exam that is not live is offline. The owner's own token previews it in any state (spec section 6).
     */
    async getForCandidate(id: string, viewer: TokenClaims | undefined): Promise<PublicExam> {
      const row = await exams.findById(id);
      const isOwnerPreview = row !== undefined && viewer?.kind === 'creator' && viewer.sub === row.ownerId;
      if (!row || (row.isDraft && !isOwnerPreview)) throw new AppError(ErrorCode.NOT_FOUND, PublicExamMessages.notFound);
      if (!row.isLive && !isOwnerPreview) throw new AppError(ErrorCode.EXAM_OFFLINE, PublicExamMessages.offline);

      const ai = row.aiSettings;
      const materialNames = (await materials.findMetadata(row.ownerId, ai.courseMaterialIds)).map((m) => m.name);
      return {
        id: row.id,
        title: row.title,
        description: row.description,
        header: row.header,
        rules: row.rules,
        timerEnabled: row.timerEnabled,
        timerMinutes: row.timerMinutes,
        fullScreenEnabled: row.fullScreenEnabled,
        isLive: row.isLive,
        questions: row.questions.map(toPublicQuestion),
        codingWorkspace: row.codingWorkspace,
        aiSettings: {
          enabled: ai.enabled,
          provider: ai.provider,
          model: ai.model,
          startMessage: ai.startMessage,
          copyLLMResponse: ai.copyLLMResponse,
          uploadDocuments: ai.uploadDocuments,
          materialNames,
          missing: missingAiConfiguration({ provider: ai.provider, model: ai.model, hasKey: hasUsableKey(row, opts.defaultProviderKeys) }),
        },
      };
    },
  };
}
export type PublicService = ReturnType<typeof createPublicService>;
