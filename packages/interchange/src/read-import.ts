import { strFromU8 } from 'fflate';
import { type ImportFormat, type ImportPreview } from '@exam/domain/interchange';
import { importGift } from './gift.ts';
import { importMoodleXml } from './moodle-xml.ts';
import { type QtiReadResult, importQti } from './qti-import.ts';
import { type ExamExtension } from './qti-shared.ts';
import { type ZipLimits } from './safe-unzip.ts';

/** A file that cannot be read as its format at all (as opposed to single questions that are not imported). */
export class UnreadableFileError extends Error {}

export type ImportRead = ImportPreview & { settings: ExamExtension | null };

/**
 * Reads an import file of any supported format; throws UnreadableFileError with the reason when it cannot,
 * including a zip that passes `zipLimits`. CPU-heavy on a large file: exam-service runs it in a worker thread.
 */
export function readImport(format: ImportFormat, data: Uint8Array, zipLimits?: ZipLimits): ImportRead {
  try {
    if (format === 'qti') {
      const read: QtiReadResult = importQti(data, zipLimits);
      return { format, passages: [], warnings: [], ...read };
    }
    const text = strFromU8(data);
    if (text.includes('\uFFFD')) throw new Error('The file is not UTF-8 text');
    const read = format === 'gift' ? importGift(text) : importMoodleXml(text);
    return { format, ...read, settings: null };
  } catch (error) {
    throw new UnreadableFileError((error as Error).message);
  }
}
