import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createInternalClient, parseUpstream, unexpectedStatus } from './internal-client.ts';

describe('internal client', () => {
  let server: Server;
  let baseUrl: string;
  const seen: Array<{ method?: string; token?: string; body: string }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (part) => (body += part));
      req.on('end', () => {
        seen.push({ method: req.method, token: req.headers['x-internal-token'] as string, body });
        if (req.url === '/slow') return setTimeout(() => res.end('{}'), 500);
        if (req.url === '/html') return res.end('<html>');
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ echo: body ? JSON.parse(body) : null }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('sends the internal token and a JSON body, and parses the JSON answer', async () => {
    const request = createInternalClient(baseUrl, 'secret-token');
    const response = await request<{ echo: unknown }>('/things', { method: 'POST', body: { a: 1 } });
    expect(response).toEqual({ status: 200, body: { echo: { a: 1 } } });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', token: 'secret-token' });
    request.close();
  });

  it('answers the body as text, unparsed, from text()', async () => {
    const request = createInternalClient(baseUrl, 'secret-token');
    expect(await request.text('/html')).toEqual({ status: 200, body: '<html>' });
    expect(await request.text('/things', { method: 'POST', body: { a: 1 } })).toEqual({
      status: 200,
      body: '{"echo":{"a":1}}',
    });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', token: 'secret-token' });
    request.close();
  });

  it('maps a timeout, an unreachable service and a non-JSON answer to UNAVAILABLE', async () => {
    const slow = createInternalClient(baseUrl, 't', { timeoutMs: 50 });
    await expect(slow('/slow')).rejects.toMatchObject({ code: 'UNAVAILABLE', statusCode: 503 });
    await expect(slow('/html')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    const closed = createInternalClient('http://127.0.0.1:1', 't');
    await expect(closed('/x')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });

  it('maps an unexpected status and a body off the contract to UPSTREAM', () => {
    expect(unexpectedStatus('exam-service', 500, 'exam e1')).toMatchObject({ code: 'UPSTREAM', statusCode: 502 });
    expect(() => parseUpstream('exam-service', z.object({ id: z.string() }), { id: 1 }, 'an exam')).toThrow(
      /exam-service sent an exam that does not match the contract/,
    );
    expect(parseUpstream('exam-service', z.object({ id: z.string() }), { id: 'e1' }, 'an exam')).toEqual({ id: 'e1' });
  });
});
