import type { ResultsCsvFormat } from '@exam/domain/result';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { fetchDownload, saveBlob } from '../../../lib/download.ts';
import { i18n } from '../../../i18n/index.ts';

/** The file name the server suggests (RFC 6266 filename* first), or the fallback. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (extended?.[1]) return decodeURIComponent(extended[1]);
  const plain = /filename="([^"]+)"/i.exec(disposition);
  return plain?.[1] ?? fallback;
}

export type ResultsCsvRequest = {
  examId: string;
  /** `gradebook`: one row per candidate for a spreadsheet or an LMS import; `full` (default): every column. */
  format?: ResultsCsvFormat;
  /** Start the file with a UTF-8 byte-order mark, so Excel opened by double-click reads accents right. */
  forExcel?: boolean;
};

/** GET /api/exams/{examId}/results.csv with the creator's token, saved as a file. */
export async function downloadResultsCsv(request: string | ResultsCsvRequest): Promise<string> {
  const { examId, format = 'full', forExcel = false } = typeof request === 'string' ? { examId: request } : request;
  const query = new URLSearchParams();
  if (format !== 'full') query.set('format', format);
  if (forExcel) query.set('bom', 'true');
  const search = query.size > 0 ? `?${query.toString()}` : '';
  const response = await fetchDownload(
    `${api.examResultsCsv(examId)}${search}`,
    { notFound: i18n.t('results:download.examNotFound'), failed: i18n.t('results:download.csvFailed') },
    'text/csv',
  );
  const prefix = format === 'gradebook' ? 'gradebook' : 'results';
  const fileName = fileNameOf(response.headers.get('content-disposition'), `${prefix}-${examId}.csv`);
  saveBlob(await response.blob(), fileName);
  return fileName;
}

export function useDownloadResultsCsv() {
  return useMutation({ mutationFn: downloadResultsCsv });
}
