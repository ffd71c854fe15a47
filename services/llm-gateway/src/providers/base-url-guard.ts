import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { AppError, ErrorCode } from '@exam/domain/errors';

/**
 * Addresses a creator's openai-compatible base URL must never reach when no allow-list is configured:
 * the gateway would otherwise call into its own network on the creator's behalf (SSRF).
 */
const blocked = new BlockList();
blocked.addSubnet('0.0.0.0', 8, 'ipv4'); // "this network" (RFC 1122 section 3.2.1.3)
blocked.addSubnet('127.0.0.0', 8, 'ipv4'); // loopback (RFC 1122 section 3.2.1.3)
blocked.addSubnet('10.0.0.0', 8, 'ipv4'); // private (RFC 1918)
blocked.addSubnet('172.16.0.0', 12, 'ipv4'); // private (RFC 1918)
blocked.addSubnet('192.168.0.0', 16, 'ipv4'); // private (RFC 1918)
blocked.addSubnet('100.64.0.0', 10, 'ipv4'); // shared address space behind carrier NAT (RFC 6598)
blocked.addSubnet('169.254.0.0', 16, 'ipv4'); // link-local, cloud metadata endpoints among them (RFC 3927)
blocked.addAddress('::', 'ipv6'); // unspecified (RFC 4291 section 2.5.2)
blocked.addAddress('::1', 'ipv6'); // loopback (RFC 4291 section 2.5.3)
blocked.addSubnet('fc00::', 7, 'ipv6'); // unique local (RFC 4193)
blocked.addSubnet('fe80::', 10, 'ipv6'); // link-local unicast (RFC 4291 section 2.5.6)

/** True for an address the guard refuses; an IPv4-mapped IPv6 address (RFC 4291 section 2.5.5.2) is judged as its IPv4 address. */
export function isBlockedAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export type Resolve = (hostname: string) => Promise<string[]>;
const systemResolve: Resolve = (hostname) => dns.promises.lookup(hostname, { all: true }).then((all) => all.map((a) => a.address));

const refuse = (message: string) => new AppError(ErrorCode.CONFLICT, message, [{ path: 'aiSettings.baseUrl', message }]);
export const GuardMessages = {
  notListed: (host: string) => `The assistant's base URL host ${host} is not in this server's list of allowed hosts (OPENAI_COMPATIBLE_ALLOWED_HOSTS).`,
  internal: (host: string) => `The assistant's base URL host ${host} resolves to a loopback, private or link-local address, which this server does not call.`,
  unresolvable: (host: string) => `The assistant's base URL host ${host} could not be resolved.`,
  badUrl: 'The assistant\'s base URL must be an http or https URL.',
};

const defaultPort = (url: URL) => url.port || (url.protocol === 'https:' ? '443' : '80');
// URL.hostname keeps the brackets of an IPv6 literal.
const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '').toLowerCase();

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
export function createBaseUrlGuard(opts: { allowedHosts: string | undefined; resolve?: Resolve; verdictTtlMs?: number; now?: () => number }): BaseUrlGuard {
  const allowed = (opts.allowedHosts ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  const resolve = opts.resolve ?? systemResolve;
  const now = opts.now ?? Date.now;
  const ttl = opts.verdictTtlMs ?? 30_000;
  // Resolving on every message would add a DNS round trip to each chat; a verdict holds for ttl.
  const verdicts = new Map<string, { at: number; error: AppError | undefined }>();

  async function publicVerdict(host: string): Promise<AppError | undefined> {
    if (isIP(host)) return isBlockedAddress(host) ? refuse(GuardMessages.internal(host)) : undefined;
    const addresses = await resolve(host).catch(() => undefined);
    if (!addresses?.length) return refuse(GuardMessages.unresolvable(host));
    return addresses.some(isBlockedAddress) ? refuse(GuardMessages.internal(host)) : undefined;
  }

  const guardedLookup = ((hostname: string, options: LookupOptions, callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const bad = addresses.find((a) => isBlockedAddress(a.address));
      if (bad) return callback(new Error(`refused to connect to ${hostname}: ${bad.address} is not a public address`), '');
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
      const host = bare(url.hostname);
      if (allowed.length) {
        if (![host, url.hostname.toLowerCase(), `${url.hostname.toLowerCase()}:${defaultPort(url)}`].some((entry) => allowed.includes(entry))) throw refuse(GuardMessages.notListed(url.host));
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
