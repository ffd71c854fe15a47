import { afterAll, describe, expect, it } from 'vitest';
import { createServer } from './create-server.ts';

describe('createServer trusted proxies', () => {
  const app = createServer({ logLevel: 'silent', trustedProxies: ['127.0.0.1', '10.1.0.0/16'] });
  app.get('/ip', async (request) => ({ ip: request.ip }));
  const defaults = createServer({ logLevel: 'silent' });
  defaults.get('/ip', async (request) => ({ ip: request.ip }));
  afterAll(async () => {
    await app.close();
    await defaults.close();
  });

  const ipOf = async (server: typeof app, remoteAddress: string, forwarded?: string) => {
    const response = await server.inject({
      url: '/ip',
      remoteAddress,
      headers: forwarded ? { 'x-forwarded-for': forwarded } : {},
    });
    return (response.json() as { ip: string }).ip;
  };

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    expect(await ipOf(app, '203.0.113.9', '198.51.100.1')).toBe('203.0.113.9');
    expect(await ipOf(defaults, '203.0.113.9', '198.51.100.1')).toBe('203.0.113.9');
  });

  it('takes the client address from X-Forwarded-For set by a listed address or CIDR', async () => {
    expect(await ipOf(app, '127.0.0.1', '198.51.100.1')).toBe('198.51.100.1');
    expect(await ipOf(app, '10.1.2.3', '198.51.100.1')).toBe('198.51.100.1');
    expect(await ipOf(defaults, '::1', '198.51.100.1')).toBe('198.51.100.1');
  });

  it('stops at the first untrusted hop, so a client cannot prepend a forged address', async () => {
    expect(await ipOf(app, '127.0.0.1', '6.6.6.6, 203.0.113.9')).toBe('203.0.113.9');
  });
});
