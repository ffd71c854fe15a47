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

/** GET /api/exams/{examId}/results.csv with the creator's token, saved as a file. */
export async function downloadResultsCsv(examId: string): Promise<string> {
  const response = await fetchDownload(
    api.examResultsCsv(examId),
    { notFound: i18n.t('results:download.examNotFound'), failed: i18n.t('results:download.csvFailed') },
    'text/csv',
  );
  const fileName = fileNameOf(response.headers.get('content-disposition'), `results-${examId}.csv`);
  saveBlob(await response.blob(), fileName);
  return fileName;
}

export function useDownloadResultsCsv() {
  return useMutation({ mutationFn: downloadResultsCsv });
}
