import { AppError, ErrorCode } from '@exam/domain/errors';
import { CodingWorkspaceSchema } from '@exam/domain/exam';
import type { ExamGrants, InternalExam, WorkspaceDemand } from '@exam/domain/internal';
import { toExamView } from '../exams/exam-view.ts';
import { EXAM_NOT_FOUND } from '../exams/exams.service.ts';
import type { ExamsRepository } from '../exams/exams.repository.ts';
import type { MaterialsRepository } from '../materials/materials.repository.ts';

export function createInternalService(
  exams: ExamsRepository,
  materials: MaterialsRepository,
  clock: { now(): Date } = { now: () => new Date() },
) {
  return {
    /**
     * The editors workspace-orchestrator should have started for windows opening within `horizonSeconds` (or
     * opened less than `graceSeconds` ago): per exam, the larger of its roster's size and the creator's
     * expectedCandidates. An exam without either asks for none.
     */
    async workspaceDemand(horizonSeconds: number, graceSeconds: number): Promise<WorkspaceDemand[]> {
      const now = clock.now().getTime();
      const rows = await exams.opening(new Date(now - graceSeconds * 1000), new Date(now + horizonSeconds * 1000));
      return rows.flatMap((row) => {
        const settings = CodingWorkspaceSchema.parse(row.codingWorkspace);
        const candidates = Math.max(row.rosterSize, settings.expectedCandidates ?? 0);
        if (candidates === 0 || !row.opensAt) return [];
        return [
          {
            examId: row.id,
            workspaceType: settings.workspaceType,
            egress: settings.allowPackageRegistries ? ('registries' as const) : ('none' as const),
            opensAt: row.opensAt.toISOString(),
            candidates,
          },
        ];
      });
    },

    /** The exams shared with a creator, with each share's role (the ones they own are not listed). */
    async examGrants(creatorId: string): Promise<ExamGrants> {
      return { grants: await exams.findGrants(creatorId) };
    },

    /** The whole exam for scoring and prompts: answer keys, the encrypted key and the materials' text. */
    async getExam(id: string): Promise<InternalExam> {
      const row = await exams.findById(id);
      if (!row) throw new AppError(ErrorCode.NOT_FOUND, EXAM_NOT_FOUND);
      const ids = row.aiSettings.courseMaterialIds;
      const [metadata, texts, members] = await Promise.all([
        materials.findMetadata(row.ownerId, ids),
        materials.findTexts(row.ownerId, ids),
        exams.findMembers(id),
      ]);
      const exam = toExamView(row, metadata);
      return {
        ...exam,
        aiSettings: { ...exam.aiSettings, encryptedApiKey: row.encryptedApiKey },
        materialTexts: texts.map((t) => ({ name: t.name, text: t.text })),
        members,
        retentionDays: row.retentionDays,
      };
    },
  };
}
export type InternalService = ReturnType<typeof createInternalService>;
