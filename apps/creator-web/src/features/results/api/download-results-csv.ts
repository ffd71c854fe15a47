import { useMutation } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client.ts';
import { getToken } from '../../../lib/auth-storage.ts';

/** The file name the server suggests (RFC 6266 filename* first), or the fallback. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (extended?.[1]) return decodeURIComponent(extended[1]);
  const plain = /filename="([^"]+)"/i.exec(disposition);
  return plain?.[1] ?? fallback;
}

/** Hands a Blob to the browser as a download. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next task: the click has started the download by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** GET /api/exams/{examId}/results.csv with the creator's token, saved as a file. */
export async function downloadResultsCsv(examId: string): Promise<string> {
  const headers = new Headers({ accept: 'text/csv' });
  const token = getToken();
  if (token) headers.set('authorization', `Bearer ${token}`);
  const response = await fetch(new URL(`/api/exams/${encodeURIComponent(examId)}/results.csv`, window.location.origin), { headers }).catch(() => {
    throw new ApiError({ code: 'NETWORK', status: 0, userMessage: 'Cannot reach the server. Check your connection and try again.' });
  });
  if (!response.ok) {
    throw new ApiError({ code: `HTTP_${response.status}`, status: response.status, userMessage: response.status === 404 ? 'Exam not found' : 'The CSV could not be downloaded. Please try again.' });
  }
  const fileName = fileNameOf(response.headers.get('content-disposition'), `results-${examId}.csv`);
  saveBlob(await response.blob(), fileName);
  return fileName;
}

export function useDownloadResultsCsv() {
  return useMutation({ mutationFn: downloadResultsCsv });
}
