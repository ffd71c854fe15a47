import { z } from 'zod';
import { ExamSchema } from './exam.ts';
import { PassageSchema } from './passages.ts';
import { QuestionSchema } from './question.ts';

/**
 * Question interchange (docs/product.md#importing-and-exporting-questions): the files a creator can import
 * questions from, and what an import preview answers. Conversions live in packages/interchange.
 */
export const IMPORT_FORMATS = ['qti', 'moodle-xml', 'gift'] as const;
export const ImportFormatSchema = z.enum(IMPORT_FORMATS);
export type ImportFormat = z.infer<typeof ImportFormatSchema>;

/** The largest file accepted for an import (decoded bytes): question banks are text, packages are small. */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

/** POST /api/exams/import/preview and /api/exams/import: the file, base64-encoded, and its format. */
export const ImportFileSchema = z.object({
  format: ImportFormatSchema,
  fileName: z.string().max(300).default(''),
  /** The file's bytes in base64 (a QTI package is a zip; Moodle XML and GIFT are UTF-8 text). */
  data: z
    .string()
    .min(1, 'Choose a file')
    .max(Math.ceil((MAX_IMPORT_BYTES * 4) / 3) + 4, 'The file is larger than 5 MB'),
});
export type ImportFile = z.infer<typeof ImportFileSchema>;

export const ImportRequestSchema = ImportFileSchema.extend({
  /** A draft exam of the creator's to add the questions to; without it a new draft exam is created. */
  examId: z.string().min(1).max(64).optional(),
});
export type ImportRequest = z.infer<typeof ImportRequestSchema>;

/** A question of the file that is not imported, and why (nothing of it is imported). */
export const NotImportedSchema = z.object({
  /** Where it is in the file: the item's identifier or file name, or its position and name. */
  ref: z.string(),
  title: z.string(),
  reason: z.string(),
});
export type NotImported = z.infer<typeof NotImportedSchema>;

export const ImportPreviewSchema = z.object({
  format: ImportFormatSchema,
  /** The title the file gives its questions (a QTI test's title, a file name), used for a new exam. */
  title: z.string(),
  questions: z.array(QuestionSchema),
  notImported: z.array(NotImportedSchema),
  /**
   * Shared passages the questions refer to by passageId (a QTI stimulus, a Moodle description); their ids are
   * the file's, renumbered when they join an existing exam.
   */
  passages: z.array(PassageSchema).default([]),
  /**
   * What was imported with a part left behind: the question is in `questions`, and this names what of it was not
   * carried over and why (feedback per answer, a grading rule the platform has no counterpart for…).
   */
  warnings: z.array(NotImportedSchema).default([]),
});
export type ImportPreview = z.infer<typeof ImportPreviewSchema>;

export const ImportResultSchema = ImportPreviewSchema.extend({ exam: ExamSchema });
export type ImportResult = z.infer<typeof ImportResultSchema>;
