import { BlockList, isIP } from 'node:net';

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
  ['64:ff9b::', 96], // IPv4/IPv6 translation, which could reach any IPv4 address above (RFC 6052)
] as const)
  internal.addSubnet(net, prefix, 'ipv6');

/**
 * True for an internal address (see above) and for anything that is not an IP address at all. An
 * IPv4-mapped IPv6 address (RFC 4291 section 2.5.5.2) is judged as its IPv4 address.
 */
export function isInternalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return internal.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return internal.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
