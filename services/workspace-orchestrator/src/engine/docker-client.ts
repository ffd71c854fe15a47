import Docker from 'dockerode';

/**
 * The one place a dockerode client is built: the engine behind its unix socket. `timeoutMs` caps each
 * call to the engine (the orchestrator's own engine sets one; tests and scripts wait as long as it takes).
 */
export function dockerClient(socketPath: string, opts: { timeoutMs?: number } = {}): Docker {
  return new Docker({ socketPath, ...(opts.timeoutMs !== undefined ? { timeout: opts.timeoutMs } : {}) });
}

export const isNotFound = (err: unknown) => (err as { statusCode?: number }).statusCode === 404;
export const isConflict = (err: unknown) => (err as { statusCode?: number }).statusCode === 409;

/**
 * Runs `work` once and shares its promise with every later caller; a failure is forgotten, so the next
 * caller tries again (a network or proxy that could not be set up now may be set up later).
 */
export function onceUntilFailure<T>(work: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= work().catch((err: unknown) => {
      pending = undefined;
      throw err;
    });
    return pending;
  };
}
