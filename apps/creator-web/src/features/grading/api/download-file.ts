import { useMutation } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client.ts';
import { getToken } from '../../../lib/auth-storage.ts';

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

/** GET /api/results/{id}/files/{questionIndex}: a candidate's uploaded answer, saved under its own name. */
export async function downloadAnswerFile({ resultId, questionIndex, fileName }: { resultId: string; questionIndex: number; fileName: string }): Promise<void> {
  const headers = new Headers();
  const token = getToken();
  if (token) headers.set('authorization', `Bearer ${token}`);
  const url = new URL(`/api/results/${encodeURIComponent(resultId)}/files/${questionIndex}`, window.location.origin);
  const response = await fetch(url, { headers }).catch(() => {
    throw new ApiError({ code: 'NETWORK', status: 0, userMessage: 'Cannot reach the server. Check your connection and try again.' });
  });
  if (!response.ok) {
    throw new ApiError({ code: `HTTP_${response.status}`, status: response.status, userMessage: response.status === 404 ? 'The file was not found.' : 'The file could not be downloaded. Please try again.' });
  }
  saveBlob(await response.blob(), fileName);
}

export function useDownloadAnswerFile() {
  return useMutation({ mutationFn: downloadAnswerFile });
}
