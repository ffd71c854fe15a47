import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, type TestApp } from '../../testing/app.ts';

const TRUNCATED =
  '--b\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\nhello';

describe('malformed upload and JSON bodies', () => {
  let app: TestApp;
  let owner: Awaited<ReturnType<typeof createCreator>>;
  beforeAll(async () => {
    app = await buildTestApp({ env: { MATERIAL_MAX_BYTES: '4096' } });
    owner = await createCreator(app);
  });
  afterAll(() => app.close());

  const upload = (contentType: string, payload: string) =>
    app.inject({
      method: 'POST',
      url: '/api/materials',
      headers: { ...owner.headers, 'content-type': contentType },
      payload,
    });
  const listed = async () =>
    (await app.inject({ method: 'GET', url: '/api/materials', headers: owner.headers })).json().materials;

  it('answers 400 with the reason when a multipart upload has no boundary, and stores nothing', async () => {
    const response = await upload('multipart/form-data', TRUNCATED);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/boundary/i) });
    expect(await listed()).toEqual([]);
  });

  it('answers 400 with the reason when a multipart upload ends before its closing boundary, and stores nothing', async () => {
    const response = await upload('multipart/form-data; boundary=b', TRUNCATED);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'VALIDATION',
      message: 'The multipart body is malformed: it ended before its closing boundary',
    });
    expect(await listed()).toEqual([]);
  });

  it('answers 413 with a JSON error when a JSON body passes the body limit', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'big@example.com', password: 'x'.repeat(3_000_000) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
