import { type ImportFormat } from '@exam/domain/interchange';
import { type ImportRead, readImport, UnreadableFileError } from '@exam/interchange/read-import';
import { type ZipLimits } from '@exam/interchange/safe-unzip';

/** A worker-thread task (server-kit isolated-worker.ts): one import file read into questions. */
export type ReadImportInput = { format: ImportFormat; data: Uint8Array; zipLimits: ZipLimits };
export type ReadImportOutput = { ok: true; read: ImportRead } | { ok: false; reason: string };

export default function readImportTask({ format, data, zipLimits }: ReadImportInput): ReadImportOutput {
  try {
    return { ok: true, read: readImport(format, data, zipLimits) };
  } catch (error) {
    if (error instanceof UnreadableFileError) return { ok: false, reason: error.message };
    throw error;
  }
}
