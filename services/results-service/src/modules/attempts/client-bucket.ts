import { isIPv4, isIPv6 } from 'node:net';

/** The eight 16-bit groups of an IPv6 address, as numbers (an embedded dotted IPv4 tail becomes two groups). */
function ipv6Groups(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const parse = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * Who a start is counted against: an IPv4 address as it is, an IPv6 client by its /64 (one subscriber's
 * network, RFC 6177 §2: a single host usually has a whole /64 to pick addresses from), IPv4-mapped IPv6
 * as the IPv4 address it carries.
 */
export function clientBucket(ip: string): string {
  const address = ip.split('%')[0] ?? ip;
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return address;
  const groups = ipv6Groups(address.toLowerCase());
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi = 0, lo = 0] = groups.slice(6);
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
