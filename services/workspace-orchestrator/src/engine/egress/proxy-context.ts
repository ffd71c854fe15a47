import type { Socket } from 'node:net';
import type { Decision } from './decision.ts';

/** What the CONNECT and plain-request handlers share with the proxy that runs them. */
export type ProxyContext = {
  decide(host: string, port: number): Promise<Decision>;
  /** Logs one request, with the session behind its source address; `refused` is the refusal's reason. */
  record(source: string | undefined, fields: Record<string, unknown>, refused?: string): Promise<void>;
  /** Open sockets (clients and upstreams), destroyed on close. */
  sockets: Set<Socket>;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
};
