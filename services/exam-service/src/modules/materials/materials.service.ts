import { AppError, ErrorCode } from '@exam/domain/errors';
import type { CourseMaterial } from '@exam/domain/exam-ai';
import { type IsolatedRunner, IsolatedTaskError } from '@exam/server-kit/isolated-worker';
import type { Deps } from '../../deps.ts';
import {
  extractMaterialText,
  materialKind,
  MIME_TYPES,
  unreadable,
  type ExtractionLimits,
  type MaterialKind,
} from './extract-text.ts';
import type { ExtractTextInput } from './extract-text.task.ts';
import type { MaterialsRepository, NewMaterialRow } from './materials.repository.ts';

export type UploadedFile = { fileName: string; bytes: Buffer };

export const MATERIAL_NOT_FOUND = 'Course material not found';

const EXTRACT_TASK = new URL('./extract-text.task.ts', import.meta.url);

function refused(message: string): AppError {
  return new AppError(ErrorCode.VALIDATION, message, [{ path: 'files', message }]);
}

export function createMaterialsService(
  repo: MaterialsRepository,
  deps: Pick<Deps, 'clock' | 'ids'>,
  limits: ExtractionLimits,
  isolated: IsolatedRunner,
) {
  /** Plain text is read here; every other kind in a worker thread with a heap and time limit. */
  async function textOf(fileName: string, kind: MaterialKind, bytes: Buffer): Promise<string> {
    if (kind === 'txt') return extractMaterialText(fileName, kind, bytes, limits);
    try {
      return await isolated.run<string>(EXTRACT_TASK, { fileName, kind, bytes, limits } satisfies ExtractTextInput);
    } catch (error) {
      if (!(error instanceof IsolatedTaskError)) throw error;
      const { timeoutMs, maxHeapMb } = isolated.limits;
      if (error.reason === 'timeout')
        throw refused(`"${fileName}" took too long to read (more than ${timeoutMs / 1000} s, PARSE_TIMEOUT_SECONDS)`);
      if (error.reason === 'memory')
        throw refused(`"${fileName}" needs more than ${maxHeapMb} MB of memory to read (PARSE_MAX_HEAP_MB)`);
      throw unreadable(fileName, kind);
    }
  }

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
        const text = await textOf(file.fileName, kind, file.bytes);
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
