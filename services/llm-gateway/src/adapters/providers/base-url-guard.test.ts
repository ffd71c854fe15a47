import { describe, expect, it } from 'vitest';
import { isIP } from 'node:net';
import { interfaceAddresses, isInternalAddress } from '@exam/server-kit/internal-address';
import { createBaseUrlGuard, GuardMessages } from './base-url-guard.ts';

const dnsOf = (table: Record<string, string[]>) => async (host: string) => {
  const addresses = table[host];
  if (!addresses) throw new Error(`ENOTFOUND ${host}`);
  return addresses;
};
const refusal = (promise: Promise<void>) =>
  promise.then(
    () => undefined,
    (err: { statusCode?: number; message: string }) => err,
  );

describe('isInternalAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['0.0.0.0', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.31.255.254', true],
    ['172.32.0.1', false],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['::1', true],
    ['::', true],
    ['fd12:3456::1', true],
    ['fc00::1', true],
    ['fe80::1', true],
    ['::ffff:10.0.0.1', true],
    ['::ffff:127.0.0.1', true],
    ['8.8.8.8', false],
    ['93.184.216.34', false],
    ['2606:4700::1111', false],
    ['::ffff:8.8.8.8', false],
  ])('judges %s blocked: %s', (address, expected) => {
    expect(isInternalAddress(address)).toBe(expected);
  });
});

describe('base URL guard without an allow-list', () => {
  const resolve = dnsOf({
    'llm.example.com': ['93.184.216.34'],
    'sneaky.example.com': ['93.184.216.34', '10.0.0.7'],
    'metadata.example.com': ['169.254.169.254'],
  });
  const guard = createBaseUrlGuard({ allowedHosts: undefined, resolve });

  it('allows a public host after resolving it', async () => {
    await expect(guard.check('https://llm.example.com/v1')).resolves.toBeUndefined();
  });

  it('refuses a host when any of its addresses is private or link-local', async () => {
    expect(await refusal(guard.check('https://sneaky.example.com/v1'))).toMatchObject({
      statusCode: 409,
      message: GuardMessages.internal('sneaky.example.com'),
    });
    expect(await refusal(guard.check('http://metadata.example.com/latest'))).toMatchObject({ statusCode: 409 });
  });

  it('refuses loopback, private and unique-local literals without a DNS query', async () => {
    for (const url of [
      'http://127.0.0.1:11434/v1',
      'http://10.0.0.5:8000/v1',
      'http://192.168.0.10/v1',
      'http://[::1]:8000/v1',
      'http://[fd00::5]/v1',
    ]) {
      expect(await refusal(guard.check(url)), url).toMatchObject({ statusCode: 409 });
    }
  });

  it('refuses every address this machine answers on, whatever its range, as a literal and behind a name', async () => {
    const own = interfaceAddresses();
    expect(own.length).toBeGreaterThan(0);
    for (const address of own) {
      const literal = isIP(address) === 6 ? `[${address}]` : address;
      expect(await refusal(guard.check(`http://${literal}:8000/v1`)), address).toMatchObject({ statusCode: 409 });
      const named = createBaseUrlGuard({ allowedHosts: undefined, resolve: dnsOf({ 'self.example.com': [address] }) });
      expect(await refusal(named.check('https://self.example.com/v1')), address).toMatchObject({
        statusCode: 409,
        message: GuardMessages.internal('self.example.com'),
      });
    }
  });

  it('refuses a host that does not resolve and a URL that is not http(s)', async () => {
    expect(await refusal(guard.check('http://nowhere.invalid/v1'))).toMatchObject({
      message: GuardMessages.unresolvable('nowhere.invalid'),
    });
    expect(await refusal(guard.check('file:///etc/passwd'))).toMatchObject({ message: GuardMessages.badUrl });
  });

  it('pins connections with a lookup that refuses blocked addresses', () => {
    expect(guard.lookup).toBeTypeOf('function');
  });
});

describe('base URL guard with OPENAI_COMPATIBLE_ALLOWED_HOSTS', () => {
  const guard = createBaseUrlGuard({ allowedHosts: 'vllm.internal:8000, ollama.lan ,[::1]:9000', resolve: dnsOf({}) });

  it('allows a listed host on its listed port, or on any port when listed without one, even when it is private', async () => {
    await expect(guard.check('http://vllm.internal:8000/v1')).resolves.toBeUndefined();
    await expect(guard.check('http://OLLAMA.lan:11434/v1')).resolves.toBeUndefined();
    await expect(guard.check('http://[::1]:9000/v1')).resolves.toBeUndefined();
  });

  it('refuses a host that is not listed, or a listed host on another port, with a message naming it', async () => {
    expect(await refusal(guard.check('http://vllm.internal:9999/v1'))).toMatchObject({
      statusCode: 409,
      message: GuardMessages.notListed('vllm.internal:9999'),
    });
    expect(await refusal(guard.check('https://api.example.com/v1'))).toMatchObject({
      statusCode: 409,
      message: GuardMessages.notListed('api.example.com'),
    });
  });

  it('leaves DNS resolution of listed hosts to the system', () => {
    expect(guard.lookup).toBeUndefined();
  });
});
