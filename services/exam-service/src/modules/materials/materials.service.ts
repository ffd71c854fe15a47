import { AppError, ErrorCode } from '@exam/domain/errors';
import type { CourseMaterial } from '@exam/domain/exam';
import type { Deps } from '../../deps.ts';
import { extractMaterialText, materialKind, MIME_TYPES, type ExtractionLimits } from './extract-text.ts';
import type { MaterialsRepository, NewMaterialRow } from './materials.repository.ts';

export type UploadedFile = { fileName: string; bytes: Buffer };

export const MATERIAL_NOT_FOUND = 'Course material not found';

export function createMaterialsService(
  repo: MaterialsRepository,
  deps: Pick<Deps, 'clock' | 'ids'>,
  limits: ExtractionLimits,
) {
  return {
    /** All or nothing: every file is checked and read before any is stored. */
    async upload(ownerId: string, files: UploadedFile[]): Promise<CourseMaterial[]> {
      if (files.length === 0) {
        throw new AppError(ErrorCode.VALIDATION, 'Attach at least one file', [
          { path: 'files', message: 'Attach at least one file' },
        ]);
      }
      const kinds = files.map((f) => materialKind(f.fileName));
      const now = deps.clock.now();
      const rows: NewMaterialRow[] = [];
      for (const [index, file] of files.entries()) {
        const kind = kinds[index]!;
        const text = await extractMaterialText(file.fileName, kind, file.bytes, limits);
        rows.push({
          id: deps.ids.next(),
          ownerId,
          name: file.fileName,
          mimeType: MIME_TYPES[kind],
          size: file.bytes.length,
          text,
          textLength: text.length,
          content: file.bytes,
          // Distinct instants keep the upload order when listing.
          createdAt: new Date(now.getTime() + index),
        });
      }
      return repo.insertMany(rows);
    },

    async list(ownerId: string): Promise<CourseMaterial[]> {
      return repo.listOwned(ownerId);
    },

    async remove(ownerId: string, id: string): Promise<{ id: string }> {
      if (!(await repo.deleteOwned(ownerId, id))) throw new AppError(ErrorCode.NOT_FOUND, MATERIAL_NOT_FOUND);
      return { id };
    },
  };
}
export type MaterialsService = ReturnType<typeof createMaterialsService>;
