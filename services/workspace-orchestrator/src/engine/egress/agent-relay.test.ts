import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentRelay, relayedPath, type AgentRelay } from './agent-relay.ts';

/** A stand-in for llm-gateway's agent endpoint: it records what reached it and streams SSE in two parts. */
describe('the AI relay', () => {
  let gateway: Server;
  let relay: AgentRelay;
  let port = 0;
  const seen: Array<{ method?: string; url?: string; headers: IncomingHttpHeaders; body: string }> = [];
  let release: () => void = () => {};

  beforeAll(async () => {
    gateway = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, headers: req.headers, body });
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"delta":"first"}\n\n');
        release = () => res.end('data: [DONE]\n\n');
      });
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    relay = createAgentRelay({ gatewayUrl: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}` });
    port = await relay.listen(['127.0.0.1'], [0]);
  });
  afterAll(async () => {
    await relay.close();
    await new Promise<void>((resolve) => gateway.close(() => resolve()));
  });

  it('relays /v1/* only, with dot segments resolved first', () => {
    expect(relayedPath('/v1/chat/completions?x=1')).toBe('/api/agent/v1/chat/completions?x=1');
    expect(relayedPath('/v1')).toBe('/api/agent/v1');
    expect(relayedPath('/v1/../internal/attempts/a/transcript')).toBeUndefined();
    expect(relayedPath('/v1/%2e%2e/api/llm/chat')).toBeUndefined();
    expect(relayedPath('/v10/models')).toBeUndefined();
    expect(relayedPath('http://api.openai.com/v1/models')).toBeUndefined();
    expect(relayedPath('/')).toBeUndefined();
  });

  it('forwards method, headers and body to the agent endpoint, and streams each chunk of the answer as it comes', async () => {
    const chunks: string[] = [];
    const done = new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/v1/responses',
          headers: {
            authorization: 'Bearer workspace-token',
            'x-api-key': 'workspace-token',
            'content-type': 'application/json',
          },
        },
        (res) => {
          res.on('data', (chunk: Buffer) => {
            chunks.push(chunk.toString('utf8'));
            // The gateway holds the rest back until the first part has reached the agent: no buffering.
            if (chunks.length === 1) release();
          });
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end('{"model":"gpt-4.1-mini","stream":true}');
    });
    expect(await done).toBe(200);
    expect(chunks.join('')).toBe('data: {"delta":"first"}\n\ndata: [DONE]\n\n');
    expect(seen.at(-1)).toMatchObject({
      method: 'POST',
      url: '/api/agent/v1/responses',
      body: '{"model":"gpt-4.1-mini","stream":true}',
      headers: { authorization: 'Bearer workspace-token', 'x-api-key': 'workspace-token' },
    });
  });

  it('answers 404 for anything outside /v1 and never passes it on', async () => {
    const before = seen.length;
    for (const path of ['/internal/exams/e', '/api/llm/chat', '/v1/../internal/x']) {
      const status = await new Promise<number>((resolve, reject) =>
        request({ host: '127.0.0.1', port, path }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
          .on('error', reject)
          .end(),
      );
      expect(status, path).toBe(404);
    }
    expect(seen.length).toBe(before);
  });

  it('answers 502 when the gateway cannot be reached', async () => {
    const away = createAgentRelay({ gatewayUrl: 'http://127.0.0.1:1' });
    const awayPort = await away.listen(['127.0.0.1'], [0]);
    try {
      const status = await new Promise<number>((resolve, reject) =>
        request({ host: '127.0.0.1', port: awayPort, path: '/v1/models' }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
          .on('error', reject)
          .end(),
      );
      expect(status).toBe(502);
    } finally {
      await away.close();
    }
  });
});
