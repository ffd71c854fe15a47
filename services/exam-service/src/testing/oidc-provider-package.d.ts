// oidc-provider ships no types; this covers the part testing/oidc-provider.ts uses to run it in the tests.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  type Claims = Record<string, unknown> & { sub: string };
  export type Account = { accountId: string; claims(): Claims | Promise<Claims> };
  export type Configuration = {
    clients?: Record<string, unknown>[];
    findAccount?: (ctx: unknown, id: string) => Promise<Account | undefined> | Account | undefined;
    claims?: Record<string, string[]>;
    jwks?: { keys: Record<string, unknown>[] };
    cookies?: { keys?: string[] };
    features?: Record<string, unknown>;
    ttl?: Record<string, number>;
    pkce?: Record<string, unknown>;
  };
  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
