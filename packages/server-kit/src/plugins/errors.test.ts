import { Writable } from 'node:stream';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, type App } from '../create-server.ts';
import { errorsPlugin } from './errors.ts';

/** A server whose pino lines are collected, to prove what the errors plugin logs. */
async function appWithLogs() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = createServer({ logLevel: 'info', logger: { level: 'info', stream } });
  await app.register(errorsPlugin);
  return { app, lines };
}

describe('errors plugin', () => {
  let app: App;
  afterEach(() => app.close());

  it('answers 400 with the field and the reason when a body fails its schema', async () => {
    ({ app } = await appWithLogs());
    app.post(
      '/things',
      { schema: { body: z.object({ title: z.string().min(1), points: z.number().positive() }) } },
      () => ({}),
    );
    const response = await app.inject({ method: 'POST', url: '/things', payload: { title: 'ok', points: -1 } });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.error.code).toBe(ErrorCode.VALIDATION);
    expect(body.error.issues).toEqual([expect.objectContaining({ path: 'points' })]);
    expect(body.error.message).toMatch(/^points: /);
  });

  it('maps an AppError to its status with its code, message and issues', async () => {
    ({ app } = await appWithLogs());
    app.get('/conflict', () => {
      throw new AppError(ErrorCode.CONFLICT, 'Already submitted', [{ path: 'attemptId', message: 'closed' }]);
    });
    const response = await app.inject({ method: 'GET', url: '/conflict' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: { code: 'CONFLICT', message: 'Already submitted', issues: [{ path: 'attemptId', message: 'closed' }] },
    });
  });

  it('answers an unknown error with a generic 500 and logs it with the request id', async () => {
    const built = await appWithLogs();
    app = built.app;
    app.get('/boom', () => {
      throw new Error('database password is hunter2');
    });
    const response = await app.inject({ method: 'GET', url: '/boom', headers: { 'x-request-id': 'req-42' } });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: { code: 'INTERNAL', message: 'Internal server error' } });
    expect(response.body).not.toContain('hunter2');
    const logged = built.lines.find((line) => line.msg === 'unhandled error');
    expect(logged).toMatchObject({ reqId: 'req-42', level: 50 });
  });

  it('answers a reply that breaks its response schema with a logged 500, never the unchecked body', async () => {
    const built = await appWithLogs();
    app = built.app;
    app.get('/leaky', { schema: { response: { 200: z.object({ id: z.string() }) } } }, () => ({ id: 7 }) as never);
    const response = await app.inject({ method: 'GET', url: '/leaky' });
    expect(response.statusCode).toBe(500);
    expect(response.json().error.code).toBe('INTERNAL');
    expect(built.lines.some((line) => line.msg === 'response did not match its schema')).toBe(true);
  });

  it('answers malformed JSON with a 400, not a 500', async () => {
    ({ app } = await appWithLogs());
    app.post('/things', () => ({}));
    const response = await app.inject({
      method: 'POST',
      url: '/things',
      headers: { 'content-type': 'application/json' },
      payload: '{"title":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('VALIDATION');
  });

  it('answers an unknown route with a 404 naming it', async () => {
    ({ app } = await appWithLogs());
    const response = await app.inject({ method: 'DELETE', url: '/nowhere?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toBe('Route DELETE /nowhere not found');
  });
});
