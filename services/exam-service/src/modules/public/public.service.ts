import type { AiProvider } from '@exam/domain/ai-catalogue';
import { withWorkspaceFiles } from '@exam/domain/coding';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { hasUsableAiKey } from '@exam/domain/exam-ai';
import { PublicExamMessages, toPublicExam, type PublicExam, type PublicExamSummary } from '@exam/domain/public-exam';
import type { ExamRow, ExamsRepository } from '../exams/exams.repository.ts';
import type { MaterialsRepository } from '../materials/materials.repository.ts';

export type CandidateViewOptions = { defaultProviderKeys: Record<AiProvider, boolean> };

/** The exam as a candidate sees it, questions included but no answer key, API key, prompt or material text. */
export async function candidateViewOf(
  row: ExamRow,
  materials: MaterialsRepository,
  opts: CandidateViewOptions,
): Promise<PublicExam> {
  const materialNames = (await materials.findMetadata(row.ownerId, row.aiSettings.courseMaterialIds)).map(
    (m) => m.name,
  );
  // The preview shows each coding question's workspace file as an attempt will have it (results-service's snapshot).
  const questions = withWorkspaceFiles(row.questions, row.codingWorkspace);
  return toPublicExam(
    { ...row, questions },
    {
      materialNames,
      hasUsableKey: hasUsableAiKey(row.aiSettings, {
        hasCreatorKey: row.encryptedApiKey !== null,
        serverKeys: opts.defaultProviderKeys,
      }),
    },
  );
}

export function createPublicService(
  exams: ExamsRepository,
  materials: MaterialsRepository,
  opts: CandidateViewOptions,
) {
  return {
    /**
     * What anyone with the link learns before starting (docs/product.md#sitting-an-exam): unknown ids and
     * drafts are not found, a published exam that is not live is offline. No questions: they come with an
     * attempt (its snapshot) or with the owner's preview token, never to an anonymous caller.
     */
    async getSummary(id: string): Promise<PublicExamSummary> {
      const row = await exams.findById(id);
      if (!row || row.isDraft) throw new AppError(ErrorCode.NOT_FOUND, PublicExamMessages.notFound);
      if (!row.isLive) throw new AppError(ErrorCode.EXAM_OFFLINE, PublicExamMessages.offline);
      const { questions: _questions, ...summary } = await candidateViewOf(row, materials, opts);
      return summary;
    },
  };
}
export type PublicService = ReturnType<typeof createPublicService>;
