/**
 * The creator app opens the preview at /exam/{id}/preview#token=…, with a short-lived preview token the
 * server issued to the exam's owner. A fragment never reaches a server, a log or a Referer header. The page
 * moves the token into this tab's sessionStorage (so a reload keeps working until the token expires) and
 * takes the fragment out of the address bar and the history entry.
 */
const storageKey = (examId: string) => `exam-preview-token:${examId}`;

function readStored(examId: string): string | null {
  try {
    return sessionStorage.getItem(storageKey(examId));
  } catch {
    return null;
  }
}

export function takePreviewToken(examId: string): string | null {
  const fromFragment = new URLSearchParams(window.location.hash.slice(1)).get('token');
  if (!fromFragment) return readStored(examId);
  try {
    sessionStorage.setItem(storageKey(examId), fromFragment);
  } catch (error) {
    console.warn('The preview token cannot be kept for a reload', error);
  }
  const { pathname, search } = window.location;
  window.history.replaceState(window.history.state, '', `${pathname}${search}`);
  return fromFragment;
}

/** A token the server refused is of no further use in this tab. */
export function forgetPreviewToken(examId: string): void {
  try {
    sessionStorage.removeItem(storageKey(examId));
  } catch {
    // Storage is unavailable: there is nothing kept to forget.
  }
}
