/** How long the creator tab waits for the preview tab to ask for the token. */
const HANDSHAKE_TIMEOUT_MS = 120_000;

function isPreviewReady(data: unknown): boolean {
  return (
    data === 'preview-ready' ||
    (typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'preview-ready')
  );
}

/**
 * Opens the taker's preview page and hands it the creator token by postMessage, never in the URL
 * (URLs end up in history and logs). The taker page posts 'preview-ready' to its opener; the reply
 * goes only to the taker origin and only to the window this call opened; a reload of the preview
 * asks again, so the listener stays until the timeout.
 */
export function openPreview(previewUrl: string, takerOrigin: string, token: string): Window | null {
  const preview = window.open(previewUrl, '_blank');
  if (!preview) return null;
  const onMessage = (event: MessageEvent) => {
    if (event.origin !== takerOrigin || event.source !== preview || !isPreviewReady(event.data)) return;
    preview.postMessage({ type: 'preview-token', token }, takerOrigin);
  };
  const timer = window.setTimeout(() => stop(), HANDSHAKE_TIMEOUT_MS);
  function stop() {
    window.clearTimeout(timer);
    window.removeEventListener('message', onMessage);
  }
  window.addEventListener('message', onMessage);
  return preview;
}
