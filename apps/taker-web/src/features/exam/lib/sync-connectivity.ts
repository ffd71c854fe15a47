/**
 * Follows the browser's online and offline events between start() and stop(). Coming back online is
 * the moment to send at once instead of waiting out the backoff.
 */
export function createConnectivityListener(handlers: { onOnline: () => void; onOffline: () => void }) {
  let target: Window | undefined;
  return {
    start(on: Window) {
      target = on;
      target.addEventListener('online', handlers.onOnline);
      target.addEventListener('offline', handlers.onOffline);
    },
    stop() {
      target?.removeEventListener('online', handlers.onOnline);
      target?.removeEventListener('offline', handlers.onOffline);
      target = undefined;
    },
  };
}
