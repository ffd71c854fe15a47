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

/** GET /api/exams/{id}/export.qti with the creator's token, saved as a file. */
export async function downloadExamQti(examId: string): Promise<string> {
  const response = await fetchDownload(
    api.examQti(examId),
    { notFound: i18n.t('exams:interchange.examNotFound'), failed: i18n.t('exams:interchange.exportFailed') },
    'application/zip',
  );
  const disposition = response.headers.get('content-disposition') ?? '';
  const named = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  const fileName = named ? decodeURIComponent(named) : `exam-${examId}.qti.zip`;
  saveBlob(await response.blob(), fileName);
  return fileName;
}

export function useExportQti() {
  return useMutation({ mutationFn: downloadExamQti });
}
