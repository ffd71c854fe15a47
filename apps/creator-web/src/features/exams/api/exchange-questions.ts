import {
  type ImportFormat,
  type ImportPreview,
  ImportPreviewSchema,
  type ImportResult,
  ImportResultSchema,
} from '@exam/domain/interchange';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { fetchDownload, saveBlob } from '../../../lib/download.ts';
import { i18n } from '../../../i18n/index.ts';
import { examKeys } from './get-exams.ts';

export type ChosenFile = { format: ImportFormat; file: File };

/** The file's bytes in base64: a data URL's payload, which FileReader encodes without a copy in JavaScript. */
function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).slice(String(reader.result).indexOf(',') + 1));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}

/** The format a file most likely has, from its name; the creator can change it. */
export function guessFormat(fileName: string): ImportFormat | null {
  const name = fileName.toLowerCase();
  if (name.endsWith('.zip')) return 'qti';
  if (name.endsWith('.gift') || name.endsWith('.gift.txt') || name.endsWith('.txt')) return 'gift';
  if (name.endsWith('.xml')) return 'moodle-xml';
  return null;
}

async function body({ format, file }: ChosenFile) {
  return { format, fileName: file.name, data: await base64Of(file) };
}

/** POST /api/exams/import/preview: what the file would give, nothing saved. */
export async function previewImport(chosen: ChosenFile): Promise<ImportPreview> {
  return apiRequest(api.importPreview, { method: 'POST', body: await body(chosen), schema: ImportPreviewSchema });
}

/** POST /api/exams/import: a new draft, or the questions added to the draft `examId`. */
export async function importQuestions(chosen: ChosenFile & { examId?: string }): Promise<ImportResult> {
  const payload = { ...(await body(chosen)), ...(chosen.examId ? { examId: chosen.examId } : {}) };
  return apiRequest(api.importQuestions, { method: 'POST', body: payload, schema: ImportResultSchema });
}

export function usePreviewImport() {
  return useMutation({ mutationFn: previewImport });
}

export function useImportQuestions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importQuestions,
    onSuccess: (result) => {
      queryClient.setQueryData(examKeys.detail(result.exam.id), result.exam);
      return queryClient.invalidateQueries({ queryKey: examKeys.list() });
    },
  });
}

/** Fetches an export with the creator's token and saves it under the name the service gives it. */
async function downloadExport(
  path: string,
  accept: string,
  fallbackName: string,
): Promise<Response & { fileName: string }> {
  const response = await fetchDownload(
    path,
    { notFound: i18n.t('exams:interchange.examNotFound'), failed: i18n.t('exams:interchange.exportFailed') },
    accept,
  );
  const disposition = response.headers.get('content-disposition') ?? '';
  const named = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  const fileName = named ? decodeURIComponent(named) : fallbackName;
  saveBlob(await response.blob(), fileName);
  return Object.assign(response, { fileName });
}

/** GET /api/exams/{id}/export.qti with the creator's token, saved as a file. */
export async function downloadExamQti(examId: string): Promise<string> {
  return (await downloadExport(api.examQti(examId), 'application/zip', `exam-${examId}.qti.zip`)).fileName;
}

/**
 * GET /api/exams/{id}/export.moodle-xml, saved as a file; `losses` counts what Moodle cannot hold (named at the
 * top of the file).
 */
export async function downloadExamMoodleXml(examId: string): Promise<{ fileName: string; losses: number }> {
  const response = await downloadExport(api.examMoodleXml(examId), 'application/xml', `exam-${examId}.moodle.xml`);
  const losses = Number(response.headers.get('x-export-losses') ?? 0);
  return { fileName: response.fileName, losses: Number.isFinite(losses) ? losses : 0 };
}

export function useExportQti() {
  return useMutation({ mutationFn: downloadExamQti });
}
