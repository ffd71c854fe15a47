import { describe, expect, it } from 'vitest';
import { clientBucket } from './client-bucket.ts';

describe('clientBucket', () => {
  it('counts an IPv4 client by its address', () => {
    expect(clientBucket('203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts every address of one IPv6 /64 together, however it is written', () => {
    const bucket = '2001:db8:0:1::/64';
    expect(clientBucket('2001:db8:0:1::1')).toBe(bucket);
    expect(clientBucket('2001:0db8:0000:0001:ffff:1234:5678:9abc')).toBe(bucket);
    expect(clientBucket('2001:DB8:0:1:a::b')).toBe(bucket);
    expect(clientBucket('2001:db8:0:2::1')).not.toBe(bucket);
    expect(clientBucket('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('counts an IPv4-mapped IPv6 client as the IPv4 address', () => {
    expect(clientBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientBucket('::ffff:cb00:7107')).toBe('203.0.113.7');
  });
});
