import { setMaxListeners } from 'node:events';
import type { FastifyInstance } from 'fastify';

/**
 * Where a server is in its shutdown (ARCHITECTURE.md, "Graceful shutdown"): `isDraining` turns /ready to 503
 * the moment a stop signal arrives, so a load balancer stops routing new requests here; `streamsEnd` aborts when
 * the drain time is up, so a long stream (the assistant's reply) can end cleanly with an event that tells the
 * client to retry elsewhere instead of being cut.
 */
export type Lifecycle = {
  readonly isDraining: boolean;
  readonly streamsEnd: AbortSignal;
  beginDrain(): void;
  endStreams(): void;
};

// Keyed by the node:http server: every encapsulated Fastify context of one app shares it.
const lifecycles = new WeakMap<object, Lifecycle>();

function createLifecycle(): Lifecycle {
  let draining = false;
  const streams = new AbortController();
  // Every open stream listens to it: thousands at once on a busy gateway, which is no leak.
  setMaxListeners(0, streams.signal);
  return {
    get isDraining() {
      return draining;
    },
    streamsEnd: streams.signal,
    beginDrain() {
      draining = true;
    },
    endStreams() {
      draining = true;
      streams.abort();
    },
  };
}

/** The shutdown state of the server `app` belongs to (created on first use). */
export function lifecycleOf(app: FastifyInstance): Lifecycle {
  let lifecycle = lifecycles.get(app.server);
  if (!lifecycle) {
    lifecycle = createLifecycle();
    lifecycles.set(app.server, lifecycle);
  }
  return lifecycle;
}
