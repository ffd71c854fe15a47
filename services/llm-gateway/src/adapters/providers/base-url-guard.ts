import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { bareHost, hostVerdict, isInternalAddress, type Resolve } from '@exam/server-kit/internal-address';

const refuse = (message: string) =>
  new AppError(ErrorCode.CONFLICT, message, [{ path: 'aiSettings.baseUrl', message }]);
export const GuardMessages = {
  notListed: (host: string) =>
    `The assistant's base URL host ${host} is not in this server's list of allowed hosts (OPENAI_COMPATIBLE_ALLOWED_HOSTS).`,
  internal: (host: string) =>
    `The assistant's base URL host ${host} resolves to a loopback, private or link-local address, which this server does not call.`,
  unresolvable: (host: string) => `The assistant's base URL host ${host} could not be resolved.`,
  badUrl: "The assistant's base URL must be an http or https URL.",
};

const defaultPort = (url: URL) => url.port || (url.protocol === 'https:' ? '443' : '80');

export type BaseUrlGuard = {
  /** Throws a 409 AppError naming the reason when the creator's base URL may not be called. */
  check(baseUrl: string): Promise<void>;
  /**
   * A socket lookup for the upstream request that refuses a blocked address at connect time, so a DNS
   * answer that changes after check() (rebinding) cannot reach the internal network. Undefined with an allow-list.
   */
  lookup: LookupFunction | undefined;
};

/**
 * The SSRF guard for creators' openai-compatible base URLs. With OPENAI_COMPATIBLE_ALLOWED_HOSTS set,
 * only those host[:port] entries are called (a host without a port allows any port). Unset, any public
 * host is called, and a host that resolves to a loopback, private (RFC 1918), link-local or unique-local
 * address is refused. The server's own OPENAI_BASE_URL and the other configured endpoints are trusted
 * configuration and never pass through here.
 */
export function createBaseUrlGuard(opts: {
  allowedHosts: string | undefined;
  resolve?: Resolve;
  verdictTtlMs?: number;
  now?: () => number;
}): BaseUrlGuard {
  const allowed = (opts.allowedHosts ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  const now = opts.now ?? Date.now;
  const ttl = opts.verdictTtlMs ?? 30_000;
  // Resolving on every message would add a DNS round trip to each chat; a verdict holds for ttl. It is kept
  // per replica on purpose: it is derived from DNS alone (no change inside the platform makes it stale, a new
  // base URL is a new key), every replica derives the same one, and the socket lookup below refuses a
  // private address at connect time whatever the verdict said (ARCHITECTURE.md, "Where state lives").
  const verdicts = new Map<string, { at: number; error: AppError | undefined }>();

  async function publicVerdict(host: string): Promise<AppError | undefined> {
    const verdict = await hostVerdict(host, opts.resolve);
    if (verdict === 'internal') return refuse(GuardMessages.internal(host));
    if (verdict === 'unresolvable') return refuse(GuardMessages.unresolvable(host));
    return undefined;
  }

  const guardedLookup = ((
    hostname: string,
    options: LookupOptions,
    callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const bad = addresses.find((a) => isInternalAddress(a.address));
      if (bad)
        return callback(new Error(`refused to connect to ${hostname}: ${bad.address} is not a public address`), '');
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  }) as LookupFunction;

  return {
    lookup: allowed.length ? undefined : guardedLookup,
    async check(baseUrl) {
      let url: URL;
      try {
        url = new URL(baseUrl);
      } catch {
        throw refuse(GuardMessages.badUrl);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse(GuardMessages.badUrl);
      const host = bareHost(url.hostname);
      if (allowed.length) {
        if (
          ![host, url.hostname.toLowerCase(), `${url.hostname.toLowerCase()}:${defaultPort(url)}`].some((entry) =>
            allowed.includes(entry),
          )
        )
          throw refuse(GuardMessages.notListed(url.host));
        return;
      }
      const cached = verdicts.get(host);
      let error = cached && now() - cached.at < ttl ? cached.error : undefined;
      if (!cached || now() - cached.at >= ttl) {
        error = await publicVerdict(host);
        verdicts.set(host, { at: now(), error });
        if (verdicts.size > 1000) verdicts.delete(verdicts.keys().next().value as string);
      }
      if (error) throw error;
    },
  };
}
