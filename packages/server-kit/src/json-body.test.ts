import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from './create-server.ts';
import { errorsPlugin } from './plugins/errors.ts';

describe('JSON bodies and U+0000', () => {
  const app = createServer({ logLevel: 'silent' });
  const received: unknown[] = [];
  beforeAll(async () => {
    await app.register(errorsPlugin);
    app.post('/echo', async (request) => {
      received.push(request.body);
      return { ok: true };
    });
  });
  afterAll(() => app.close());

  const post = (payload: string) =>
    app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload });

  it('refuses a string holding NUL with 400, naming the field, and never reaches the handler', async () => {
    const response = await post(JSON.stringify({ answers: [{ text: 'ok' }, { text: 'bad \u0000 byte' }] }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: {
        code: 'VALIDATION',
        message: 'answers.1.text: must not contain the NUL character (U+0000)',
        issues: [{ path: 'answers.1.text', message: 'must not contain the NUL character (U+0000)' }],
      },
    });
    expect(received).toEqual([]);
  });

  it('accepts the six characters \\u0000 typed as text, and ordinary bodies, unchanged', async () => {
    const body = { answer: 'print("\\u0000")', nested: { n: 1, list: ['a', null] } };
    const response = await post(JSON.stringify(body));
    expect(response.statusCode).toBe(200);
    expect(received.at(-1)).toEqual(body);
  });

  it('keeps Fastify’s prototype-poisoning and syntax checks', async () => {
    expect((await post('{"__proto__": {"admin": true}}')).statusCode).toBe(400);
    expect((await post('{"answer": ')).statusCode).toBe(400);
  });
});
