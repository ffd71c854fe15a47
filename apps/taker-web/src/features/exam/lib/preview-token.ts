/**
 * Creator preview: the creator app opens this page and, once it hears 'preview-ready', answers
 * with its bearer token. Only a message from the creator's origin is believed.
 */
export type PreviewReady = { type: 'preview-ready' };
export type PreviewTokenMessage = { type: 'preview-token'; token: string };

function isTokenMessage(data: unknown): data is PreviewTokenMessage {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as { type?: unknown }).type === 'preview-token' &&
    typeof (data as { token?: unknown }).token === 'string'
  );
}

/** Resolves with the token, or null when there is no opener or it does not answer in time. */
export function requestPreviewToken(creatorOrigin: string, timeoutMs = 3000): Promise<string | null> {
  const opener = window.opener as Window | null;
  if (!opener) return Promise.resolve(null);
  return new Promise((resolve) => {
    const timer = setTimeout(() => finish(null), timeoutMs);
    function onMessage(event: MessageEvent) {
      if (event.origin !== creatorOrigin || !isTokenMessage(event.data)) return;
      finish(event.data.token);
    }
    function finish(token: string | null) {
      clearTimeout(timer);
      window.removeEventListener('message', onMessage);
      resolve(token);
    }
    window.addEventListener('message', onMessage);
    try {
      const ready: PreviewReady = { type: 'preview-ready' };
      opener.postMessage(ready, creatorOrigin);
    } catch (error) {
      console.warn('Could not reach the creator window', error);
      finish(null);
    }
  });
}
