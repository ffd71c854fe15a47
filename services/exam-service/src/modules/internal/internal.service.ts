import { AppError, ErrorCode } from '@exam/domain/errors';
import type { InternalExam } from '@exam/domain/internal';
import { toExamView } from '../exams/exam-view.ts';
import { EXAM_NOT_FOUND } from '../exams/exams.service.ts';
import type { ExamsRepository } from '../exams/exams.repository.ts';
import type { MaterialsRepository } from '../materials/materials.repository.ts';

export function createInternalService(exams: ExamsRepository, materials: MaterialsRepository) {
  return {
    /** The whole exam for scoring and prompts: answer keys, the encrypted key and the materials' text. */
    async getExam(id: string): Promise<InternalExam> {
      const row = await exams.findById(id);
      if (!row) throw new AppError(ErrorCode.NOT_FOUND, EXAM_NOT_FOUND);
      const ids = row.aiSettings.courseMaterialIds;
      const [metadata, texts] = await Promise.all([
        materials.findMetadata(row.ownerId, ids),
        materials.findTexts(row.ownerId, ids),
      ]);
      const exam = toExamView(row, metadata);
      return {
        ...exam,
        aiSettings: { ...exam.aiSettings, encryptedApiKey: row.encryptedApiKey },
        materialTexts: texts.map((t) => ({ name: t.name, text: t.text })),
      };
    },
  };
}
export type InternalService = ReturnType<typeof createInternalService>;
