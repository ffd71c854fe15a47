import dns from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/**
 * Addresses that reach this host, its network or other special-purpose ranges rather than the public
 * internet. Services that connect somewhere on someone else's behalf (llm-gateway for a creator's
 * base URL, the workspace egress proxy for a candidate) refuse them. Ranges from the IANA special-purpose
 * address registries (RFC 6890) and the RFCs named beside them.
 */
const internal = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network" (RFC 1122 section 3.2.1.3)
  ['10.0.0.0', 8], // private (RFC 1918)
  ['100.64.0.0', 10], // shared address space behind carrier NAT (RFC 6598)
  ['127.0.0.0', 8], // loopback (RFC 1122 section 3.2.1.3)
  ['169.254.0.0', 16], // link-local, cloud metadata endpoints among them (RFC 3927)
  ['172.16.0.0', 12], // private (RFC 1918)
  ['192.0.0.0', 24], // IETF protocol assignments (RFC 6890)
  ['192.168.0.0', 16], // private (RFC 1918)
  ['198.18.0.0', 15], // benchmarking (RFC 2544)
  ['224.0.0.0', 4], // multicast (RFC 5771)
  ['240.0.0.0', 4], // reserved, and the limited broadcast address (RFC 1112 section 4)
] as const)
  internal.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], // unspecified (RFC 4291 section 2.5.2)
  ['::1', 128], // loopback (RFC 4291 section 2.5.3)
  ['fc00::', 7], // unique local (RFC 4193)
  ['fe80::', 10], // link-local unicast (RFC 4291 section 2.5.6)
  ['ff00::', 8], // multicast (RFC 4291 section 2.7)
  // Local-use IPv4/IPv6 translation (RFC 8215): the operator picks where the IPv4 address sits (any
  // RFC 6052 section 2.2 format) and what it reaches, so none of it is trusted
  ['64:ff9b:1::', 48],
] as const)
  internal.addSubnet(net, prefix, 'ipv6');

/** The addresses this machine answers on, each without a zone index. */
export type LocalAddresses = () => string[];

/**
 * Every address of every interface, read afresh on each call: interfaces come and go (Docker bridges, VPNs, DHCP
 * leases), and an interface may carry any range, documentation and public ones included, which the list above
 * cannot know (a base URL naming this host's own public address reaches its services as surely as 127.0.0.1).
 */
export const interfaceAddresses: LocalAddresses = () =>
  Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => entry.address.replace(/%.*$/, '')));

function ownList(local: LocalAddresses): BlockList {
  const own = new BlockList();
  for (const address of local()) {
    const family = isIP(address);
    if (family) own.addAddress(address, family === 4 ? 'ipv4' : 'ipv6');
  }
  return own;
}

/**
 * True for an internal address (see above), for any address this machine answers on (`local`, every interface by
 * default), and for anything that is not an IP address at all. An IPv6 address that carries an IPv4 address (see
 * `embeddedIPv4`) is also judged by that IPv4 address, since the host or a translator on the way may deliver the
 * connection to it.
 */
export function isInternalAddress(address: string): boolean {
  return isInternalFor(address, interfaceAddresses);
}

function isInternalFor(address: string, local: LocalAddresses): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  const own = ownList(local);
  if (family === 4) return internal.check(address, 'ipv4') || own.check(address, 'ipv4');
  // A zone index ("fe80::1%eth0") names an interface, not part of the address (RFC 4007 section 11)
  const bare = address.replace(/%.*$/, '');
  if (internal.check(bare, 'ipv6') || own.check(bare, 'ipv6')) return true;
  return embeddedIPv4(ipv6Groups(bare)).some((ipv4) => internal.check(ipv4, 'ipv4') || own.check(ipv4, 'ipv4'));
}

/**
 * The IPv4 addresses an IPv6 address embeds, by the formats that put one in a fixed place:
 * - IPv4-compatible ::a.b.c.d, deprecated but still routed by some stacks (RFC 4291 section 2.5.5.1)
 * - IPv4-mapped ::ffff:a.b.c.d (RFC 4291 section 2.5.5.2)
 * - IPv4-translated ::ffff:0:a.b.c.d (RFC 6145 section 2, first in RFC 2765)
 * - the NAT64 well-known prefix 64:ff9b::a.b.c.d (RFC 6052 section 2.1)
 * - 6to4 2002:AABB:CCDD::/48, the relay's IPv4 in bits 16-47 (RFC 3056 section 2)
 * - Teredo 2001:0::/32: the server's IPv4 in bits 32-63 and the client's, every bit inverted, in
 *   bits 96-127 (RFC 4380 section 4)
 */
function embeddedIPv4(groups: number[]): string[] {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const zeroUpTo = (end: number) => groups.slice(0, end).every((group) => group === 0);
  const embedded: string[] = [];
  if (zeroUpTo(6)) embedded.push(ipv4Of(g6, g7));
  if (zeroUpTo(5) && g5 === 0xffff) embedded.push(ipv4Of(g6, g7));
  if (zeroUpTo(4) && g4 === 0xffff && g5 === 0) embedded.push(ipv4Of(g6, g7));
  if (g0 === 0x64 && g1 === 0xff9b && groups.slice(2, 6).every((group) => group === 0)) embedded.push(ipv4Of(g6, g7));
  if (g0 === 0x2002) embedded.push(ipv4Of(g1, g2));
  if (g0 === 0x2001 && g1 === 0) embedded.push(ipv4Of(g2, g3), ipv4Of(g6 ^ 0xffff, g7 ^ 0xffff));
  return embedded;
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/** The eight 16-bit groups of an IPv6 address that `isIP` has already accepted (RFC 4291 section 2.2). */
function ipv6Groups(address: string): number[] {
  const hex = address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a: string, b: string, c: string, d: string) =>
    [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)].map((group) => group.toString(16)).join(':'),
  );
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const [head = '', tail] = hex.split('::');
  if (tail === undefined) return parse(head);
  const [before, after] = [parse(head), parse(tail)];
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/** Every address a host name resolves to (the system resolver, as a connection would see it). */
export type Resolve = (hostname: string) => Promise<string[]>;
const systemResolve: Resolve = (hostname) =>
  dns.promises.lookup(hostname, { all: true }).then((all) => all.map((a) => a.address));

/** A URL's hostname without the brackets URL keeps around an IPv6 literal, lower-cased. */
export const bareHost = (hostname: string) => hostname.replace(/^\[|\]$/g, '').toLowerCase();

/**
 * Whether a request to this host would leave for the public internet: 'internal' when it is, or resolves to, an
 * internal address (any one of its addresses is enough), 'unresolvable' when it resolves to nothing, undefined when
 * every address is public. The one judgement behind each guard that calls a URL someone else supplied (llm-gateway's
 * base URLs, exam-service's LMS URLs).
 */
export async function hostVerdict(
  hostname: string,
  resolve: Resolve = systemResolve,
  local: LocalAddresses = interfaceAddresses,
): Promise<'internal' | 'unresolvable' | undefined> {
  const host = bareHost(hostname);
  if (isIP(host)) return isInternalFor(host, local) ? 'internal' : undefined;
  const addresses = await resolve(host).catch(() => undefined);
  if (!addresses?.length) return 'unresolvable';
  return addresses.some((address) => isInternalFor(address, local)) ? 'internal' : undefined;
}
