import { describe, expect, it } from 'vitest';
import { hostVerdict, interfaceAddresses, isInternalAddress } from './internal-address.ts';

const hex = (ipv4: string) => {
  const [a, b, c, d] = ipv4.split('.').map(Number) as [number, number, number, number];
  return [(a << 8) | b, (c << 8) | d].map((group) => group.toString(16));
};
const inverted = (ipv4: string) => hex(ipv4).map((group) => (Number.parseInt(group, 16) ^ 0xffff).toString(16));

/** Every IPv6 spelling that carries an IPv4 address, each of which a connection can reach it through. */
const embeddings = (ipv4: string): [form: string, address: string][] => {
  const [hi, lo] = hex(ipv4);
  const [notHi, notLo] = inverted(ipv4);
  const [publicHi, publicLo] = hex('8.8.4.4');
  const [notPublicHi, notPublicLo] = inverted('8.8.4.4');
  return [
    ['IPv4-mapped', `::ffff:${ipv4}`],
    ['IPv4-mapped, hex', `::ffff:${hi}:${lo}`],
    ['IPv4-mapped, expanded', `0:0:0:0:0:FFFF:${hi}:${lo}`.toUpperCase()],
    ['IPv4-compatible', `::${ipv4}`],
    ['IPv4-compatible, hex', `::${hi}:${lo}`],
    ['IPv4-translated', `::ffff:0:${ipv4}`],
    ['IPv4-translated, hex', `::ffff:0:${hi}:${lo}`],
    ['6to4', `2002:${hi}:${lo}::`],
    ['6to4 host', `2002:${hi}:${lo}:1::1`],
    ['NAT64 well-known prefix', `64:ff9b::${ipv4}`],
    ['NAT64 well-known prefix, hex', `64:ff9b::${hi}:${lo}`],
    ['Teredo client', `2001:0:${publicHi}:${publicLo}:8000:f227:${notHi}:${notLo}`],
    ['Teredo server', `2001:0:${hi}:${lo}:0:0:${notPublicHi}:${notPublicLo}`],
  ];
};

const internalIPv4 = {
  loopback: '127.0.0.1',
  private: '10.1.2.3',
  'home private': '192.168.1.1',
  'link-local': '169.254.1.1',
  metadata: '169.254.169.254',
};
const publicIPv4 = ['8.8.8.8', '1.1.1.1', '93.184.216.34'];

describe('isInternalAddress', () => {
  it.each(
    Object.entries(internalIPv4).flatMap(([kind, ipv4]) =>
      embeddings(ipv4).map(([form, address]) => ({ kind, form, address })),
    ),
  )('refuses $kind behind $form: $address', ({ address }) => {
    expect(isInternalAddress(address)).toBe(true);
  });

  it.each(publicIPv4.flatMap((ipv4) => embeddings(ipv4).map(([form, address]) => ({ form, address }))))(
    'allows a public address behind $form: $address',
    ({ address }) => {
      expect(isInternalAddress(address)).toBe(false);
    },
  );

  it.each([
    ['::1', true],
    ['::', true],
    ['fe80::1', true],
    ['fe80::1%eth0', true],
    ['fc00::1', true],
    ['fd12:3456::1', true],
    ['ff02::1', true],
    // The local-use NAT64 prefix may embed its IPv4 at any RFC 6052 offset, so none is trusted
    ['64:ff9b:1::8.8.8.8', true],
    ['64:ff9b:1::a00:1', true],
    ['2606:4700::1111', false],
    ['2001:4860:4860::8888', false],
    ['2a00:1450:4001:82b::200e', false],
    ['127.0.0.1', true],
    ['8.8.8.8', false],
    ['not-an-ip', true],
    ['', true],
  ])('judges %s internal: %s', (address, expected) => {
    expect(isInternalAddress(address)).toBe(expected);
  });
});

describe('the addresses this machine answers on', () => {
  it('counts every address of every interface of this machine as internal, whatever its range', async () => {
    const own = interfaceAddresses();
    expect(own.length).toBeGreaterThan(0);
    for (const address of own) {
      expect(isInternalAddress(address), address).toBe(true);
      expect(await hostVerdict(address), address).toBe('internal');
      expect(await hostVerdict('own.example.test', async () => [address]), address).toBe('internal');
    }
  });

  it('refuses an interface address in a public range, in every IPv6 form that embeds it, and only that address', async () => {
    const local = () => ['127.0.0.1', '::1', '203.0.113.50', '2001:db8:5::7'];
    for (const [form, address] of [['as is', '203.0.113.50'] as const, ...embeddings('203.0.113.50')]) {
      expect(await hostVerdict(address, undefined, local), form).toBe('internal');
    }
    expect(await hostVerdict('[2001:db8:5::7]', undefined, local)).toBe('internal');
    expect(await hostVerdict('lms.example.test', async () => ['203.0.113.50'], local)).toBe('internal');
    expect(await hostVerdict('203.0.113.51', undefined, local)).toBeUndefined();
    expect(await hostVerdict('2001:db8:5::8', undefined, local)).toBeUndefined();
  });
});
