import { ApiError } from '../../../lib/api-client.ts';

export type SaveStatus = 'saved' | 'saving' | 'offline';

export type SyncState = ReturnType<typeof createSyncState>;

/**
 * What the page is told about saving ('saved', 'saving', 'offline') and whether this device may still
 * send anything: the attempt closes for good when the server says so or the submit is acknowledged.
 */
export function createSyncState(options: {
  onStatus?: ((status: SaveStatus) => void) | undefined;
  onClosed?: ((message: string) => void) | undefined;
  isOnline: () => boolean;
}) {
  let status: SaveStatus = 'saved';
  let networkDown = false;
  let closed = false;
  let disposed = false;

  function setStatus(next: SaveStatus) {
    if (next === status) return;
    status = next;
    options.onStatus?.(next);
  }
  const busyStatus = (): SaveStatus => (networkDown || !options.isOnline() ? 'offline' : 'saving');

  return {
    status: () => status,
    setStatus,
    /** What 'something is waiting to be sent' looks like now: 'offline' without a network, else 'saving'. */
    busyStatus,
    showBusy: () => setStatus(busyStatus()),
    /** A retryable send failed: offline when no answer came at all. */
    noteFailure(error: unknown) {
      networkDown = error instanceof ApiError ? error.isNetwork : true;
      setStatus(busyStatus());
    },
    networkBack() {
      networkDown = false;
    },
    isClosed: () => closed,
    /** The server refuses this attempt for good; the page hears why, once. */
    close(message: string) {
      if (closed) return;
      closed = true;
      options.onClosed?.(message);
    },
    /** The submit was acknowledged: nothing more is sent, and the page already knows. */
    markSubmitted() {
      closed = true;
    },
    dispose() {
      disposed = true;
    },
    /** Closed or disposed: new work is kept on the device but not sent from here. */
    isStopped: () => closed || disposed,
  };
}
