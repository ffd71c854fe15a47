import { ClientErrorCode, httpErrorCode } from '@exam/domain/api-error';
import { ApiError } from './api-client.ts';
import { getToken } from './auth-storage.ts';
import { i18n } from '../i18n/index.ts';

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

/**
 * Fetches a file the creator may download (the bearer token goes in a header, never in the URL) and
 * turns a failure into an ApiError with the given messages.
 */
export async function fetchDownload(
  path: string,
  messages: { notFound: string; failed: string },
  accept?: string,
): Promise<Response> {
  const headers = new Headers(accept ? { accept } : {});
  const token = getToken();
  if (token) headers.set('authorization', `Bearer ${token}`);
  const response = await fetch(new URL(path, window.location.origin), { headers }).catch(() => {
    throw new ApiError({
      code: ClientErrorCode.NETWORK,
      status: 0,
      userMessage: i18n.t('errors.network'),
    });
  });
  if (!response.ok) {
    throw new ApiError({
      code: httpErrorCode(response.status),
      status: response.status,
      userMessage: response.status === 404 ? messages.notFound : messages.failed,
    });
  }
  return response;
}
