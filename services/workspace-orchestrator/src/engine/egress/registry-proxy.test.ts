import { createServer, request, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInternalAddress } from '@exam/server-kit/internal-address';
import { findAllowed, parseAllowlist } from './allowlist.ts';
import { createRegistryProxy, type RegistryProxy } from './registry-proxy.ts';

/** Sends raw bytes to the proxy and collects everything it answers until it closes or `until` matches. */
function raw(port: number, text: string, until?: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(data);
    }, 5000);
    socket.on('data', (chunk: Buffer) => {
      data += chunk.toString('latin1');
      if (until?.test(data)) {
        clearTimeout(timer);
        socket.destroy();
        resolve(data);
      }
    });
    socket.on('end', () => {
      clearTimeout(timer);
      resolve(data);
    });
    socket.on('error', reject);
    socket.write(text);
  });
}

/** A plain HTTP request sent to the proxy the way npm or pip sends one (absolute URI in the request line). */
function viaProxy(
  port: number,
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: url, headers: { host: new URL(url).host, ...headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the egress allowlist', () => {
  it('reads hosts and host:port entries and names the ones it cannot read', () => {
    const { hosts, invalid } = parseAllowlist(
      ' Registry.NPMJS.org. , pypi.org:8443, 10.0.0.5:4873, [::1]:9000, bad host, x:99999, pypi.org ',
    );
    expect(hosts).toEqual([
      { host: 'registry.npmjs.org', isAddress: false },
      { host: 'pypi.org', ports: [8443, 443, 80], isAddress: false },
      { host: '10.0.0.5', ports: [4873], isAddress: true },
      { host: '::1', ports: [9000], isAddress: true },
    ]);
    expect(invalid).toEqual(['bad host', 'x:99999']);
  });

  it('allows ports 443 and 80 unless the entry names its port, and never a subdomain', () => {
    const { hosts } = parseAllowlist('registry.npmjs.org,mirror.test:4873');
    expect(findAllowed(hosts, 'registry.npmjs.org', 443)).toBeDefined();
    expect(findAllowed(hosts, 'REGISTRY.npmjs.org', 80)).toBeDefined();
    expect(findAllowed(hosts, 'registry.npmjs.org', 22)).toBeUndefined();
    expect(findAllowed(hosts, 'evil.registry.npmjs.org', 443)).toBeUndefined();
    expect(findAllowed(hosts, 'mirror.test', 4873)).toBeDefined();
    expect(findAllowed(hosts, 'mirror.test', 443)).toBeUndefined();
  });

  it('treats loopback, private, link-local and mapped internal addresses as internal', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      'not-an-ip',
    ]) {
      expect(isInternalAddress(address), address).toBe(true);
    }
    for (const address of ['104.16.0.1', '151.101.0.223', '2606:4700::1111', '::ffff:104.16.0.1'])
      expect(isInternalAddress(address), address).toBe(false);
  });
});

describe('the registry proxy', () => {
  let registry: Server;
  let registryPort = 0;
  let proxy: RegistryProxy;
  let proxyPort = 0;
  const seen: { host?: string; proxyHeader?: string }[] = [];
  const logged: { level: string; entry: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    // The fake registry: echoes what it was asked for, so a test can see the request that reached it.
    registry = createServer((req, res) => {
      seen.push({ host: req.headers.host, proxyHeader: req.headers['proxy-authorization'] as string | undefined });
      res.end(`registry answered ${req.method} ${req.url}`);
    });
    await new Promise<void>((r) => registry.listen(0, '127.0.0.1', r));
    registryPort = (registry.address() as { port: number }).port;
    // 127.0.0.1 named explicitly is allowed; `localhost` is allowed by name but resolves to loopback.
    const { hosts } = parseAllowlist(`127.0.0.1:${registryPort},localhost:${registryPort},registry.test`);
    proxy = createRegistryProxy({ allowed: hosts, connectTimeoutMs: 2000 });
    proxy.attach({
      log: {
        info: (entry) => logged.push({ level: 'info', entry: entry as Record<string, unknown> }),
        warn: (entry) => logged.push({ level: 'warn', entry: entry as Record<string, unknown> }),
      },
      identify: async (address) =>
        address === '127.0.0.1' ? { sessionId: 'session-1', attemptId: 'attempt-1' } : undefined,
    });
    proxyPort = await proxy.listen('127.0.0.1', [0]);
  });
  afterAll(async () => {
    await proxy.close();
    await new Promise<void>((r) => registry.close(() => r()));
  });

  it('tunnels CONNECT to an allowed host:port only after the check, then passes bytes both ways', async () => {
    const answer = await raw(
      proxyPort,
      `CONNECT 127.0.0.1:${registryPort} HTTP/1.1\r\nHost: 127.0.0.1:${registryPort}\r\n\r\nGET /left-pad HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
      /registry answered GET \/left-pad/,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 200 OK/);
    expect(answer).toContain('registry answered GET /left-pad');
  });

  it('refuses CONNECT to a host that is not on the list with 403 and a reason, and logs who asked', async () => {
    const answer = await raw(proxyPort, 'CONNECT chat.example.com:443 HTTP/1.1\r\nHost: chat.example.com:443\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 403 Forbidden/);
    expect(answer).toContain('chat.example.com:443 is not one of the package registries this exam allows');
    await expect
      .poll(() => logged.find((l) => l.level === 'warn' && l.entry.host === 'chat.example.com')?.entry)
      .toMatchObject({
        source: '127.0.0.1',
        sessionId: 'session-1',
        attemptId: 'attempt-1',
        port: 443,
        method: 'CONNECT',
      });
  });

  it('refuses an allowed name on a port its entry does not name', async () => {
    const answer = await raw(proxyPort, 'CONNECT registry.test:22 HTTP/1.1\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 403 Forbidden/);
    expect(answer).toContain('registry.test:22 is not one of the package registries');
  });

  it('forwards an absolute-URI HTTP request to an allowed host, keeping its Host and dropping proxy headers', async () => {
    const reply = await viaProxy(proxyPort, `http://127.0.0.1:${registryPort}/simple/requests/?x=1`, {
      'proxy-authorization': 'Basic c2VjcmV0',
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toBe('registry answered GET /simple/requests/?x=1');
    expect(seen.at(-1)).toEqual({ host: `127.0.0.1:${registryPort}`, proxyHeader: undefined });
  });

  it('refuses an absolute-URI HTTP request to a host that is not on the list', async () => {
    const reply = await viaProxy(proxyPort, 'http://chat.example.com/v1/completions');
    expect(reply.status).toBe(403);
    expect(reply.headers['x-exam-egress']).toBe('refused');
    expect(reply.body).toContain('chat.example.com:80 is not one of the package registries this exam allows');
  });

  it('refuses a listed name that resolves to a loopback or private address (the host’s own services)', async () => {
    const connectAnswer = await raw(proxyPort, `CONNECT localhost:${registryPort} HTTP/1.1\r\n\r\n`);
    expect(connectAnswer).toMatch(/^HTTP\/1\.1 403 Forbidden/);
    expect(connectAnswer).toMatch(/localhost resolves to an internal address \((127\.0\.0\.1|::1)\)/);
    const plain = await viaProxy(proxyPort, `http://localhost:${registryPort}/`);
    expect(plain.status).toBe(403);
    expect(plain.body).toContain('internal address');
  });

  it('answers 400 with a reason to requests a forward proxy cannot serve', async () => {
    const originForm = await raw(proxyPort, 'GET /left-pad HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(originForm).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    expect(originForm).toContain('a forward proxy needs an absolute http:// URL or CONNECT host:port');

    const https = await raw(
      proxyPort,
      'GET https://registry.test/ HTTP/1.1\r\nHost: registry.test\r\nConnection: close\r\n\r\n',
    );
    expect(https).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    expect(https).toContain('use CONNECT for https:');

    const noPort = await raw(proxyPort, 'CONNECT registry.test HTTP/1.1\r\n\r\n');
    expect(noPort).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    expect(noPort).toContain('CONNECT needs host:port');

    const garbage = await raw(proxyPort, 'this is not http\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 Bad Request/);
  });

  it('answers 502 when an allowed registry does not answer', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const other = createRegistryProxy({ allowed: parseAllowlist(`127.0.0.1:${port}`).hosts, connectTimeoutMs: 2000 });
    const otherPort = await other.listen('127.0.0.1', [0]);
    try {
      const answer = await raw(otherPort, `CONNECT 127.0.0.1:${port} HTTP/1.1\r\n\r\n`);
      expect(answer).toMatch(/^HTTP\/1\.1 502 Bad Gateway/);
      expect(answer).toContain('could not be reached (ECONNREFUSED)');
    } finally {
      await other.close();
    }
  });
});
