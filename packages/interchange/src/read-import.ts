import { strFromU8 } from 'fflate';
import { type ImportFormat, type ImportPreview } from '@exam/domain/interchange';
import { importGift } from './gift.ts';
import { importMoodleXml } from './moodle-xml.ts';
import { type QtiReadResult, importQti } from './qti-import.ts';
import { type ExamExtension } from './qti-shared.ts';

/** A file that cannot be read as its format at all (as opposed to single questions that are not imported). */
export class UnreadableFileError extends Error {}

export type ImportRead = ImportPreview & { settings: ExamExtension | null };

/** Reads an import file of any supported format; throws UnreadableFileError with the reason when it cannot. */
export function readImport(format: ImportFormat, data: Uint8Array): ImportRead {
  try {
    if (format === 'qti') {
      const read: QtiReadResult = importQti(data);
      return { format, ...read };
    }
    const text = strFromU8(data);
    if (text.includes('\uFFFD')) throw new Error('The file is not UTF-8 text');
    const read = format === 'gift' ? importGift(text) : importMoodleXml(text);
    return { format, ...read, settings: null };
  } catch (error) {
    throw new UnreadableFileError((error as Error).message);
  }
}
